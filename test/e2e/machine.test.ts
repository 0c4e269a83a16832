/**
 * rackform_machine under the real engines: one MAAS machine and one Ironic node per engine, enrolled and commissioned
 * in the lab's backends (powered through the lab's BMCs), then a no-op plan, then destroy leaving the backends without
 * them — for Terraform and for OpenTofu. Secrets never reach the state file.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock, testLab } from "../support/rackform-e2e.js";

let lab: Lab;
let cliConfig: string;
let maas: MaasClient;
let ironic: IronicClient;

beforeAll(async () => {
  lab = await testLab(4);
  if (!lab.info.maas || !lab.info.ironic) throw new Error("the lab started without MAAS and Ironic");
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  maas = new MaasClient({ url: lab.info.maas.url, apiKey: lab.info.maas.apiKey });
  ironic = new IronicClient({ url: lab.info.ironic.url });
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await maas?.close();
  await ironic?.close();
  await lab?.close();
});

function mainTf(nodes: { readonly maas: string; readonly ironic: string }): string {
  const machine = (name: string, backend: string) => {
    const n = lab.info.nodes.find((x) => x.name === name)!;
    const mac = lab.world.node(name)!.ports[0].mac.toLowerCase();
    return `resource "rackform_machine" ${JSON.stringify(name)} {
  name         = ${JSON.stringify(name)}
  backend      = ${JSON.stringify(backend)}
  bmc_endpoint = ${JSON.stringify(n.bmc.url)}
  macs         = [${JSON.stringify(mac)}]
  timeouts {
    create = "5m"
  }
}
`;
  };
  return `${providerBlock(lab, { backends: ["maas", "ironic"] })}${machine(nodes.maas, "maas")}
${machine(nodes.ironic, "ironic")}`;
}

describe.each(ENGINES.map((n, i) => [n, i] as const))("rackform_machine under %s", (name, i) => {
  const nodes = { maas: `r01-n0${1 + i * 2}`, ironic: `r01-n0${2 + i * 2}` };
  let w: Workdir;

  beforeAll(async () => {
    w = await Workdir.create(engine(name), cliConfig, { "main.tf": mainTf(nodes) });
    await w.ok(["init", "-no-color"]);
  });

  it("GIVEN powered nodes WHEN apply THEN MAAS has a Ready machine, Ironic an available node, and the next plan is empty", async () => {
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("2 added, 0 changed, 0 destroyed");
    const m = (await maas.listMachines()).filter((x) => x.hostname === nodes.maas);
    expect(m.map((x) => x.statusName)).toEqual(["Ready"]);
    const n = (await ironic.listNodes({ detail: true })).filter((x) => x.name === nodes.ironic);
    expect(n.map((x) => x.provisionState)).toEqual(["available"]);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const state = await readFile(join(w.dir, "terraform.tfstate"), "utf8");
    expect(state).toContain(`"machine_id": "${m[0].systemId}"`);
    expect(state).toContain(`"machine_id": "${n[0].uuid}"`);
    expect(state).not.toContain(lab.info.nodes[0].bmc.password);
    expect(state).not.toContain(lab.info.maas!.apiKey);
  });

  it("GIVEN commissioning fails WHEN apply THEN the machine is kept as tainted, the plan replaces it, and the next apply converges", async () => {
    const addr = `rackform_machine.${nodes.maas}`;
    lab.world.faults.add({ kind: "commission-failure", node: nodes.maas, count: 1 });
    const failed = await w.run(["apply", "-auto-approve", "-no-color", `-replace=${addr}`]);
    expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
    expect(failed.stderr.replace(/\s+/g, " ")).toContain("Commissioning failed");
    const kept = (await maas.listMachines()).filter((x) => x.hostname === nodes.maas);
    expect(kept.map((x) => x.statusName)).toEqual(["Failed commissioning"]);

    const plan = await w.run(["plan", "-no-color"]);
    // Terraform: "is tainted, so must be replaced"; OpenTofu: "is tainted, so it must be replaced".
    expect(plan.stdout).toMatch(new RegExp(`${addr.replaceAll(".", "\\.")} is tainted, so (it )?must be replaced`));
    expect(plan.stdout).toContain("1 to add, 0 to change, 1 to destroy");

    const fixed = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(fixed.stdout).toContain("1 added, 0 changed, 1 destroyed");
    const now = (await maas.listMachines()).filter((x) => x.hostname === nodes.maas);
    expect(now.map((x) => x.statusName)).toEqual(["Ready"]);
    expect(now[0].systemId).not.toBe(kept[0].systemId);
  });

  it("WHEN destroy THEN neither backend has the machines any more", async () => {
    const r = await w.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(r.stdout).toContain("2 destroyed");
    expect((await maas.listMachines()).filter((x) => x.hostname === nodes.maas)).toEqual([]);
    expect((await ironic.listNodes()).filter((x) => x.name === nodes.ironic)).toEqual([]);
  });
});
