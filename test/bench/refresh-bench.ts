/**
 * Refresh benchmark (issue 12), printed, never asserted: a no-op plan of N rackform_bmc resources (each checking its
 * node against an `expected` baseline) against a baseline run in the same process on the same machine: a no-op plan
 * of N terraform_data resources under the same engine, which measures the engine's own cost of N resources.
 * Prints wall time of each, Redfish requests per BMC (from the lab's request log, by method and path), and the ratio.
 * Run: npm run build && npm run bench:refresh -- [--nodes 64] [--rounds 3] [--engine terraform] [--detail]
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { startLab } from "../../src/lab/index.js";
import { engine as findEngine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock } from "../support/rackform-e2e.js";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "64" },
    rounds: { type: "string", default: "3" },
    engine: { type: "string", default: "terraform" },
    detail: { type: "boolean", default: false },
  },
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const n = Number(values.nodes);
  const rounds = Number(values.rounds);
  const eng = findEngine(values.engine as "terraform" | "tofu");
  const stateDir = await mkdtemp(join(tmpdir(), "rf-refresh-bench-"));
  const lab = await startLab({ nodes: n, profile: "instant", stateDir });
  const cliConfig = await freshInstall([builtProvider()]);
  const dirs: string[] = [dirname(cliConfig), stateDir];
  try {
    for (const node of lab.world.nodes.values()) lab.world.setOutlet(node.spec.pdu, node.spec.outlet, "On");
    const bmcs = [...lab.world.nodes.values()]
      .map(
        (node) => `resource "rackform_bmc" ${JSON.stringify(node.spec.name)} {
  endpoint = ${JSON.stringify(lab.info.nodes.find((x) => x.name === node.spec.name)!.bmc.url)}
  expected = {
    gpu_count = ${lab.world.visibleGpus(node).length}
    firmware  = { BIOS = ${JSON.stringify(lab.world.firmwareVersion(node, "bios"))} }
  }
}
`,
      )
      .join("\n");
    const data = Array.from({ length: n }, (_, i) => `resource "terraform_data" "n${i}" {\n  input = ${i}\n}\n`).join(
      "\n",
    );
    const wb = await Workdir.create(eng, cliConfig, { "main.tf": providerBlock(lab) + bmcs });
    const wd = await Workdir.create(eng, cliConfig, { "main.tf": data });
    dirs.push(wb.dir, wd.dir);
    for (const w of [wb, wd]) {
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
    }
    const walls = { bmc: [] as number[], data: [] as number[], norefresh: [] as number[] };
    for (let round = 1; round <= rounds; round++) {
      let t = performance.now();
      const r0 = await wd.run(["plan", "-no-color", "-detailed-exitcode"]);
      walls.data.push((performance.now() - t) / 1000);
      if (r0.code !== 0) throw new Error(`terraform_data plan was not empty (exit ${r0.code})\n${r0.stdout}`);
      // The same plan without refresh: the engine and the provider process alone, no Redfish.
      t = performance.now();
      await wb.ok(["plan", "-no-color", "-refresh=false"]);
      walls.norefresh.push((performance.now() - t) / 1000);
      const before = lab.requests.last();
      t = performance.now();
      const r = await wb.run(["plan", "-no-color", "-detailed-exitcode"]);
      walls.bmc.push((performance.now() - t) / 1000);
      if (r.code !== 0) throw new Error(`rackform_bmc plan was not empty (exit ${r.code})\n${r.stdout}\n${r.stderr}`);
      const reqs = lab.requests.since(before).filter((e) => e.target !== undefined && lab.world.node(e.target));
      const perBmc = new Map<string, number>();
      for (const e of reqs) perBmc.set(e.target!, (perBmc.get(e.target!) ?? 0) + 1);
      const counts = [...perBmc.values()];
      console.log(
        `round ${round}: no-op plan of ${n} rackform_bmc ${walls.bmc.at(-1)!.toFixed(2)} s, of ${n} terraform_data ` +
          `${walls.data.at(-1)!.toFixed(2)} s, of rackform_bmc without refresh ${walls.norefresh.at(-1)!.toFixed(2)} s; Redfish requests ${reqs.length} (per BMC max ${Math.max(...counts)}, ` +
          `mean ${(reqs.length / n).toFixed(1)})`,
      );
      if (values.detail) {
        const first = lab.info.nodes[0].name;
        for (const e of reqs.filter((x) => x.target === first))
          console.log(`  ${e.method} ${e.path}${e.query ? `?${e.query}` : ""} ${e.status}`);
      }
    }
    const b = median(walls.bmc);
    const d = median(walls.data);
    const o = median(walls.norefresh);
    console.log(
      `median (${eng.name}, ${rounds} rounds): rackform_bmc ${b.toFixed(2)} s, terraform_data ${d.toFixed(2)} s, ` +
        `ratio ${(b / d).toFixed(2)}; rackform_bmc without refresh ${o.toFixed(2)} s (refresh itself ≈ ${(b - o).toFixed(2)} s)`,
    );
  } finally {
    await lab.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}

await main();
