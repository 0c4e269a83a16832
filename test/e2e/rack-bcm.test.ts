/**
 * The rack-level job through NVIDIA Base Command Manager under the real engine: 8 nodes from outlets off to joined
 * in Slurm with the same resource chain as MAAS and Ironic (outlet → bmc → machine → deployment → acceptance →
 * member), the machines being devices of the lab's BCM head node; one device a killed run left behind is adopted
 * (find-before-create), never added twice; and the next plan is empty.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BcmClient } from "../../src/clients/bcm/index.js";
import { HttpCore } from "../../src/clients/http/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { expectIdle, GOLDEN_IMAGE, joinedIn, rackConfig, shownState, slurmNodes } from "../support/rack.js";
import { builtProvider, freshInstall, outletOn, testLab } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

/** The demo's rack configuration with BCM as the backend (its provider block and password variable). */
function bcmRackConfig(lab: Lab, nodes: readonly string[]): string {
  const bcm = lab.info.bcm;
  if (!bcm || !lab.info.maas) throw new Error("the lab started without BCM");
  const hcl = rackConfig(lab, "maas", nodes)
    .replaceAll('backend      = "maas"', 'backend      = "bcm"')
    .replace(
      /variable "maas_api_key" \{[^}]*\}\n/,
      'variable "bcm_password" {\n  type      = string\n  sensitive = true\n}\n',
    )
    .replace(
      / {2}maas \{\n[^}]*\}/,
      `  bcm {\n    url      = ${JSON.stringify(bcm.url)}\n    username = ${JSON.stringify(bcm.username)}\n    password = var.bcm_password\n  }`,
    );
  if (hcl.includes("maas")) throw new Error(`the rewritten configuration still names MAAS:\n${hcl}`);
  return hcl;
}

describe.each(ENGINES)("an 8-node rack through BCM under %s", (name) => {
  let lab: Lab;
  let core: HttpCore;
  let client: BcmClient;
  beforeAll(async () => {
    lab = await testLab(8);
    // The operator made the software image on the head node (cm-create-image), named <image>-<version>.
    lab.backends?.bcm.addSoftwareImage(`${GOLDEN_IMAGE.name}-${GOLDEN_IMAGE.version}`);
    const b = lab.info.bcm;
    if (!b) throw new Error("no bcm in the lab file");
    core = new HttpCore();
    client = new BcmClient({ url: b.url, username: b.username, password: b.password, core });
  });
  afterAll(async () => {
    await core?.close();
    await lab?.close();
  });

  it("converges from all outlets off to 8 nodes joined in Slurm, adopting a device a killed run left behind", async () => {
    const nodes = lab.info.nodes.map((n) => n.name);
    expect(nodes.filter((n) => outletOn(lab, n))).toEqual([]);
    // GIVEN a previous run was killed right after it enrolled the first node
    const first = lab.info.nodes[0];
    const node = lab.world.node(first.name);
    const cat = (await client.categories()).find((c) => c.name === "default");
    const left = await client.addDevice({
      hostname: first.name,
      mac: node?.ports[0].mac.toLowerCase() ?? "",
      category: cat?.uuid ?? "",
      bmcIp: new URL(first.bmc.url).hostname,
      bmcUsername: first.bmc.username,
      bmcPassword: first.bmc.password,
    });
    const w = await Workdir.create(
      engine(name),
      cliConfig,
      { "main.tf": bcmRackConfig(lab, nodes) },
      {
        TF_VAR_redfish_password: first.bmc.password,
        TF_VAR_slurm_token: lab.info.slurm?.token ?? "",
        TF_VAR_bcm_password: lab.info.bcm?.password ?? "",
      },
    );
    await w.ok(["init", "-no-color"]);

    // WHEN apply
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);

    // THEN 48 resources, the 8 machines are BCM devices (the left-over one adopted, not added again), all joined
    expect(apply.stdout).toContain("Apply complete! Resources: 48 added, 0 changed, 0 destroyed.");
    expect(nodes.filter((n) => !outletOn(lab, n))).toEqual([]);
    const state = await shownState(w);
    const machines = state.filter((r) => r.type === "rackform_machine");
    expect(machines.map((m) => String(m.values.id).split(":")[0])).toEqual(nodes.map(() => "bcm"));
    expect(machines.find((m) => m.values.name === first.name)?.values.id).toBe(`bcm:${left.uuid}`);
    expect((await client.listDevices()).map((d) => d.hostname).sort()).toEqual([...nodes].sort());
    const statuses = await client.statuses((await client.listDevices()).map((d) => d.uuid));
    expect(statuses.map((s) => s.status)).toEqual(nodes.map(() => "UP"));
    expect(joinedIn(state)).toEqual([...nodes].sort());
    await expectIdle(lab, nodes);

    // AND the next plan is empty
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("a node failing the gate is closed in BCM with measured-vs-expected evidence while seven join; healed, it rejoins", async () => {
    const fresh = await testLab(8);
    try {
      fresh.backends?.bcm.addSoftwareImage(`${GOLDEN_IMAGE.name}-${GOLDEN_IMAGE.version}`);
      const nodes = fresh.info.nodes.map((n) => n.name);
      const bad = nodes[2];
      fresh.world.faults.add({ kind: "marginal-nccl", node: bad, value: 300 });
      const w = await Workdir.create(
        engine(name),
        cliConfig,
        { "main.tf": bcmRackConfig(fresh, nodes) },
        {
          TF_VAR_redfish_password: fresh.info.nodes[0].bmc.password,
          TF_VAR_slurm_token: fresh.info.slurm?.token ?? "",
          TF_VAR_bcm_password: fresh.info.bcm?.password ?? "",
        },
      );
      await w.ok(["init", "-no-color"]);
      const failed = await w.run(["apply", "-auto-approve", "-no-color"]);
      expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
      const err = failed.stderr.replace(/\s+/g, " ");
      expect(err).toContain("Error: Acceptance gate failed");
      expect(err).toContain(`(${bad}) failed the gate: - nccl_min_busbw_gbps: measured all_reduce busbw 300 GB/s`);
      expect(err).toContain("closed in BCM");
      const b = fresh.info.bcm;
      const core2 = new HttpCore();
      try {
        const c2 = new BcmClient({
          url: b?.url ?? "",
          username: b?.username ?? "",
          password: b?.password ?? "",
          core: core2,
        });
        const byName = new Map((await c2.listDevices()).map((d) => [d.hostname, d.uuid]));
        const st = (await c2.statuses([byName.get(bad) ?? ""]))[0];
        expect(st).toMatchObject({ status: "CLOSED", closed: true });
        expect(st.userMessage).toMatch(/^rackform acceptance failed: /);
        const slurm = await slurmNodes(fresh);
        const joined = nodes.filter((n) => slurm.get(n)?.state === "IDLE");
        expect(joined).toEqual(nodes.filter((n) => n !== bad));

        // WHEN the node is repaired and applied again THEN the gate re-runs, BCM opens the device, all eight join
        fresh.world.faults.clear();
        await w.ok(["apply", "-auto-approve", "-no-color"]);
        expect((await c2.statuses([byName.get(bad) ?? ""]))[0]).toMatchObject({ status: "UP", closed: false });
        const after = await slurmNodes(fresh);
        expect(nodes.map((n) => [n, after.get(n)?.state])).toEqual(nodes.map((n) => [n, "IDLE"]));
      } finally {
        await core2.close();
      }
    } finally {
      await fresh.close();
    }
  });
});
