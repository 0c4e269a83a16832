import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { startLab } from "../../src/lab/index.js";
import { engine as findEngine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock } from "../support/rackform-e2e.js";
const n = 64;
const eng = findEngine((process.argv[2] ?? "terraform") as "terraform");
const stateDir = await mkdtemp(join(tmpdir(), "rf-tl-"));
const lab = await startLab({ nodes: n, profile: "instant", stateDir });
const cliConfig = await freshInstall([builtProvider()]);
for (const node of lab.world.nodes.values()) lab.world.setOutlet(node.spec.pdu, node.spec.outlet, "On");
const bmcs = [...lab.world.nodes.values()].map((node) => `resource "rackform_bmc" ${JSON.stringify(node.spec.name)} {
  endpoint = ${JSON.stringify(lab.info.nodes.find((x) => x.name === node.spec.name)!.bmc.url)}
  expected = { gpu_count = ${lab.world.visibleGpus(node).length} }
}
`).join("\n");
const wb = await Workdir.create(eng, cliConfig, { "main.tf": providerBlock(lab) + bmcs });
await wb.ok(["init", "-no-color"]);
await wb.ok(["apply", "-auto-approve", "-no-color"]);
for (let i = 0; i < 3; i++) { const t = performance.now(); await wb.ok(["plan", "-no-color", "-refresh=false"]); console.log("plan norefresh", (performance.now() - t).toFixed(0)); }
const r = await wb.run(["plan", "-no-color", "-refresh=false"], { env: { TF_LOG: "trace", TF_LOG_PATH: "/tmp/rf-tl/trace.log" } });
console.log("traced", r.code);
console.log(wb.dir);
await lab.close();
