/**
 * data rackform_inventory under the real engines: the lab's BMCs from a CSV file (with file()), one unreachable
 * address reported in its own row, and a broken CSV failing before any BMC is contacted — Terraform and OpenTofu.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock, testLab } from "../support/rackform-e2e.js";

let lab: Lab;
let cliConfig: string;
const GHOST = "https://127.10.1.250:1";

beforeAll(async () => {
  lab = await testLab(3);
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await lab?.close();
});

const DATA = `data "rackform_inventory" "rack" {
  csv         = file("\${path.module}/bmcs.csv")
  concurrency = 2
  bmc_timeout = "20s"
}
output "nodes" {
  value = data.rackform_inventory.rack.nodes
}
`;

interface Row {
  name: string;
  endpoint: string;
  rack: string | null;
  u: number | null;
  reachable: boolean;
  error: string | null;
  gpu_count: number | null;
  gpu_model: string | null;
  memory_gib: number | null;
  macs: string[] | null;
  firmware: Record<string, string> | null;
  serial: string | null;
}

describe.each(ENGINES)("rackform_inventory under %s", (name) => {
  it("GIVEN a CSV of the lab's BMCs and one dead address THEN every row is filled and the dead one says why", async () => {
    const csv = [
      "\uFEFFname,endpoint,rack,u",
      ...lab.info.nodes.map((n) => `${n.name},${n.bmc.url},${n.rack},${n.u}`),
      `"ghost, the unplugged one",${GHOST},r01,40`,
    ].join("\r\n");
    const w = await Workdir.create(engine(name), cliConfig, { "main.tf": providerBlock(lab) + DATA, "bmcs.csv": csv });
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    const rows = JSON.parse((await w.ok(["output", "-json", "nodes"])).stdout) as Row[];
    expect(rows.map((r) => r.name)).toEqual([...lab.info.nodes.map((n) => n.name), "ghost, the unplugged one"]);
    for (const [i, n] of lab.info.nodes.entries()) {
      const node = lab.world.node(n.name)!;
      expect(rows[i]).toMatchObject({
        reachable: true,
        error: null,
        gpu_count: 8,
        rack: n.rack,
        u: n.u,
        serial: node.serial,
      });
      expect(rows[i].gpu_model).toContain("H100");
      expect(rows[i].macs).toEqual(node.ports.map((p) => p.mac.toUpperCase()));
      expect(Object.values(rows[i].firmware ?? {})).toContain(node.firmware.bios);
    }
    const ghost = rows[rows.length - 1];
    expect(ghost).toMatchObject({ reachable: false, gpu_count: null, macs: null, endpoint: GHOST, u: 40 });
    expect(ghost.error).toMatch(/RACKFORM_ERR_HTTP_CONNECT|did not finish/);
  });

  it("fails plan on a broken CSV, naming the line and column, before contacting any BMC", async () => {
    const csv = `name,endpoint\nn1,${lab.info.nodes[0].bmc.url}\nn1,${lab.info.nodes[1].bmc.url}\nn3,not-a-url\n`;
    const w = await Workdir.create(engine(name), cliConfig, { "main.tf": providerBlock(lab) + DATA, "bmcs.csv": csv });
    await w.ok(["init", "-no-color"]);
    const before = lab.requests.last();
    const r = await w.run(["plan", "-no-color"]);
    expect(r.code).not.toBe(0);
    const text = r.stderr.replace(/\s+/g, " ");
    expect(text).toContain('line 3, column "name": duplicate name "n1" (first on line 2)');
    expect(text).toMatch(/line 4, column "endpoint": .*is not a URL/);
    expect(lab.requests.last(), "requests reached the lab").toBe(before);
  });
});
