/**
 * The rack job through Warewulf under the real engines: 8 nodes from outlets off to joined in Slurm, with the same
 * resource chain as MAAS and Ironic (outlet → bmc → machine → deployment → acceptance → member; the gate runs as
 * rackform's runtime overlay on the node, its result read back from the node's tags), on the instant profile; and a
 * node with a marginal NCCL fault quarantined (tagged) with measured-vs-expected evidence while seven join. The
 * operator imported the golden image into Warewulf first (as an image is uploaded to MAAS), the configuration is the
 * demo's with the provider's warewulf block.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WarewulfClient } from "../../src/clients/warewulf/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { expectIdle, GOLDEN_IMAGE, joinedIn, rackConfig, shownState, slurmNodes } from "../support/rack.js";
import { builtProvider, freshInstall, outletOn, testLab } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

/** The demo rack's HCL turned to Warewulf: its provider block and backend = "warewulf", the chain unchanged. */
function warewulfRack(lab: Lab, nodes: readonly string[]): string {
  const w = lab.info.warewulf!;
  const hcl = rackConfig(lab, "maas", nodes)
    .replace(/variable "maas_api_key" \{/, 'variable "warewulf_password" {')
    .replace(
      / {2}maas \{\n[^}]*\}/,
      `  warewulf {\n    url      = ${JSON.stringify(w.url)}\n    username = ${JSON.stringify(w.username)}\n` +
        "    password = var.warewulf_password\n  }",
    )
    .replaceAll(/backend(\s+)= "maas"/g, 'backend$1= "warewulf"');
  expect(hcl).toContain('resource "rackform_acceptance"');
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

    // THEN 48 resources; every node is a Warewulf node at runtime, passed the gate and joined; the next plan is empty
    expect(apply.stdout).toContain("Apply complete! Resources: 48 added, 0 changed, 0 destroyed.");
    expect(apply.stdout + apply.stderr).not.toContain(lab.info.warewulf!.password);
    const state = await shownState(w);
    const machines = state.filter((r) => r.type === "rackform_machine");
    expect(machines.map((m) => String(m.values.id)).sort()).toEqual(nodes.map((n) => `warewulf:${n}`).sort());
    const gates = state.filter((r) => r.type === "rackform_acceptance");
    expect(gates.map((g) => g.values.passed)).toEqual(nodes.map(() => true));
    expect(joinedIn(state)).toEqual([...nodes].sort());
    const w2 = lab.info.warewulf!;
    const ww = new WarewulfClient({ url: w2.url, username: w2.username, password: w2.password });
    const status = await ww.status();
    await ww.close();
    expect(nodes.map((n) => [n, status.nodes.get(n)?.stage])).toEqual(nodes.map((n) => [n, "runtime"]));
    await expectIdle(lab, nodes);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });
  it("a node failing the gate is tagged rackform_quarantine with measured-vs-expected evidence while seven join; healed, it joins", async () => {
    const fresh = await testLab(8);
    try {
      const fw = fresh.info.warewulf!;
      const ww = new WarewulfClient({ url: fw.url, username: fw.username, password: fw.password });
      const image = `${GOLDEN_IMAGE.name}-${GOLDEN_IMAGE.version}`;
      await ww.importImage(image, `docker://registry.lab/${GOLDEN_IMAGE.name}:${GOLDEN_IMAGE.version}`);
      await ww.buildImage(image);
      const nodes = fresh.info.nodes.map((n) => n.name);
      const bad = nodes[2];
      fresh.world.faults.add({ kind: "marginal-nccl", node: bad, value: 300 });
      const w = await Workdir.create(
        engine(name),
        cliConfig,
        { "main.tf": warewulfRack(fresh, nodes) },
        {
          TF_VAR_redfish_password: fresh.info.nodes[0].bmc.password,
          TF_VAR_slurm_token: fresh.info.slurm!.token,
          TF_VAR_warewulf_password: fw.password,
        },
      );
      await w.ok(["init", "-no-color"]);

      // WHEN apply with the fault present
      const failed = await w.run(["apply", "-auto-approve", "-no-color"]);

      // THEN the gate fails naming measured vs expected, the node is tagged, the seven others join
      expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
      const err = failed.stderr.replace(/\s+/g, " ");
      expect(err).toContain("Error: Acceptance gate failed");
      expect(err).toContain(`(${bad}) failed the gate: - nccl_min_busbw_gbps: measured all_reduce busbw 300 GB/s`);
      expect(err).toContain("tagged rackform_quarantine in Warewulf");
      const tags = (await ww.getNode(bad, { raw: true }))?.fields.tags ?? {};
      expect(tags.rackform_quarantine).toMatch(/^rackform acceptance failed: nccl_min_busbw_gbps: /);
      const slurm = await slurmNodes(fresh);
      expect(nodes.filter((n) => slurm.get(n)?.state === "IDLE")).toEqual(nodes.filter((n) => n !== bad));

      // WHEN the node is repaired and applied again THEN the gate re-runs, the tag is lifted, all eight join
      fresh.world.faults.clear();
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      expect((await ww.getNode(bad, { raw: true }))?.fields.tags?.rackform_quarantine).toBeUndefined();
      await ww.close();
      const after = await slurmNodes(fresh);
      expect(nodes.map((n) => [n, after.get(n)?.state])).toEqual(nodes.map((n) => [n, "IDLE"]));
    } finally {
      await fresh.close();
    }
  });
});
