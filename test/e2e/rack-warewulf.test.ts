/**
 * The rack job through Warewulf under the real engines: 8 nodes from outlets off to joined in Slurm, with the same
 * resource chain as MAAS and Ironic minus the acceptance gate (Warewulf has no in-band test runner: its adapter refuses
 * the gate, see ARCHITECTURE.md), on the instant profile. The operator imported the golden image into Warewulf first
 * (as an image is uploaded to MAAS), the configuration is the demo's with the provider's warewulf block.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WarewulfClient } from "../../src/clients/warewulf/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { GOLDEN_IMAGE, rackConfig, shownState, slurmNodes } from "../support/rack.js";
import { builtProvider, freshInstall, outletOn, testLab } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

/** The demo rack's HCL turned to Warewulf: its provider block, backend = "warewulf", no acceptance gate. */
function warewulfRack(lab: Lab, nodes: readonly string[]): string {
  const w = lab.info.warewulf!;
  const hcl = rackConfig(lab, "maas", nodes)
    .replace(/variable "maas_api_key" \{/, 'variable "warewulf_password" {')
    .replace(
      / {2}maas \{\n[^}]*\}/,
      `  warewulf {\n    url      = ${JSON.stringify(w.url)}\n    username = ${JSON.stringify(w.username)}\n` +
        "    password = var.warewulf_password\n  }",
    )
    .replaceAll(/backend(\s+)= "maas"/g, 'backend$1= "warewulf"')
    .replaceAll(/resource "rackform_acceptance" "\w+" \{[^}]*\}\n\n/g, "")
    .replaceAll(/ {2}gate_id .*\n/g, "");
  expect(hcl).not.toContain("rackform_acceptance");
  expect(hcl).not.toContain("maas");
  return hcl;
}

describe.each(ENGINES)("an 8-node rack through Warewulf under %s", (name) => {
  let lab: Lab;
  beforeAll(async () => {
    lab = await testLab(8);
    const w = lab.info.warewulf!;
    const ww = new WarewulfClient({ url: w.url, username: w.username, password: w.password });
    const image = `${GOLDEN_IMAGE.name}-${GOLDEN_IMAGE.version}`;
    await ww.importImage(image, `docker://registry.lab/${GOLDEN_IMAGE.name}:${GOLDEN_IMAGE.version}`);
    await ww.buildImage(image);
    await ww.close();
  });
  afterAll(async () => {
    await lab?.close();
  });

  it("converges from all outlets off to 8 nodes running their image from Warewulf and joined in Slurm", async () => {
    // GIVEN eight unpowered nodes
    const nodes = lab.info.nodes.map((n) => n.name);
    expect(nodes).toHaveLength(8);
    expect(nodes.filter((n) => outletOn(lab, n))).toEqual([]);
    const w = await Workdir.create(
      engine(name),
      cliConfig,
      { "main.tf": warewulfRack(lab, nodes) },
      {
        TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
        TF_VAR_slurm_token: lab.info.slurm!.token,
        TF_VAR_warewulf_password: lab.info.warewulf!.password,
      },
    );
    await w.ok(["init", "-no-color"]);

    // WHEN apply
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);

    // THEN 40 resources; every node is a Warewulf node at runtime and joined; the next plan is empty
    expect(apply.stdout).toContain("Apply complete! Resources: 40 added, 0 changed, 0 destroyed.");
    expect(apply.stdout + apply.stderr).not.toContain(lab.info.warewulf!.password);
    const state = await shownState(w);
    const machines = state.filter((r) => r.type === "rackform_machine");
    expect(machines.map((m) => String(m.values.id)).sort()).toEqual(nodes.map((n) => `warewulf:${n}`).sort());
    const members = state.filter((r) => r.type === "rackform_cluster_member" && r.values.joined === true);
    expect(members.map((r) => String(r.values.node)).sort()).toEqual([...nodes].sort());
    const w2 = lab.info.warewulf!;
    const ww = new WarewulfClient({ url: w2.url, username: w2.username, password: w2.password });
    const status = await ww.status();
    await ww.close();
    expect(nodes.map((n) => [n, status.nodes.get(n)?.stage])).toEqual(nodes.map((n) => [n, "runtime"]));
    const slurm = await slurmNodes(lab);
    expect(nodes.map((n) => [n, slurm.get(n)?.state])).toEqual(nodes.map((n) => [n, "IDLE"]));
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
});
