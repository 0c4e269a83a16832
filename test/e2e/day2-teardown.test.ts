/**
 * Issue 11's principle 3 under the real engines: teardown never deadlocks. A node removed from a converged 4-node
 * Ironic + Kubernetes rack while its BMC does not answer, whose outlet the same change switches off, or which its gate
 * quarantined: the apply either succeeds or fails fast naming the node and the fix; Ironic is left in no `error` state
 * and under no maintenance rackform set; once the BMC answers again, the next apply converges with no hand call and the
 * plan after it is empty. Then the same silent-BMC removal on a MAAS + Slurm rack. The lab runs on its `instant`
 * profile, one lab per rack.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IronicNode } from "../../src/clients/ironic/index.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import { type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, folded, type Workdir } from "../support/engines.js";
import { kubeView, withIronic } from "../support/lab-clients.js";
import { rackConfig, rackStack, slurmNodes, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";
import { POLL_E2E as POLL, until } from "../support/until.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

describe.each(ENGINES)("teardown on a 4-node Ironic + Kubernetes rack under %s", (name) => {
  let lab: Lab;
  let w: Workdir;
  let nodes: string[];
  const opts = { scheduler: "kubernetes" } as const;
  /** The outlet block the second case leaves in the configuration, switched off. */
  let offOutlet = "";

  beforeAll(async () => {
    lab = await startLab({ nodes: 4, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
    nodes = lab.info.nodes.map((n) => n.name);
    w = await rackStack(engine(name), cliConfig, lab, "ironic", nodes, opts);
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
  });
  afterAll(async () => {
    await lab?.close();
  });

  /** Ironic's node by name, or undefined once it is deleted. */
  const ironicNode = (n: string) =>
    withIronic(lab, async (c) => (await c.listNodes({ detail: true })).find((x) => x.name === n));

  async function untilIronic(n: string, cond: (x: IronicNode | undefined) => boolean, what: string): Promise<void> {
    await until(`Ironic to report ${n} ${what}`, async () => cond(await ironicNode(n)), POLL);
  }

  /** What rackform must never leave behind on a node it tore down or failed to. */
  function expectNoStuckState(n: IronicNode | undefined, who: string): void {
    if (!n) return;
    expect(n.provisionState, who).not.toBe("error");
    expect(n.maintenanceReason ?? "", who).not.toMatch(/rackform/i);
  }

  /** The next plan is empty, every remaining node is active, in service, Ready and schedulable. */
  async function converged(kept: readonly string[]): Promise<void> {
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const n of kept) {
      const x = await ironicNode(n);
      expect(`${x?.provisionState}/${x?.maintenance}`, n).toBe("active/false");
    }
    const kube = await kubeView(lab);
    for (const n of kept) expect(kube.get(n), n).toBe(true);
  }

  it("a node removed while its BMC does not answer: the undeploy fails fast naming it and the fix; once the BMC is back one apply finishes", async () => {
    const gone = nodes[3];
    const kept = nodes.slice(0, 3);
    const fault = lab.world.faults.add({ kind: "bmc-unreachable", node: gone });
    let restored = false;
    try {
      // Ironic's power sync notices first: power failure, under its own maintenance.
      await untilIronic(gone, (x) => x?.fault === "power failure", "in power-failure maintenance");
      await w.write({ "main.tf": rackConfig(lab, "ironic", kept, opts) });
      const since = lab.requests.last();
      const first = await w.run(["apply", "-auto-approve", "-no-color"]);
      // It fails at the undeploy, before asking Ironic for anything, naming the node and the fix.
      expect(first.code, first.stdout).toBe(1);
      expect(folded(first)).toContain(`Error: Undeploy failed: ${gone}`);
      expect(folded(first)).toContain(`the BMC of ${gone} does not answer`);
      expect(folded(first)).toContain(`bring ${gone}'s BMC back`);
      // Its member left Kubernetes already (drained, then deleted): nothing else was touched, no BMC written to.
      expect((await kubeView(lab)).has(gone)).toBe(false);
      const writes = lab.requests.since(since).filter((e) => e.method !== "GET" && !e.path.includes("/Sessions"));
      expect(writes).toEqual([]);
      expectNoStuckState(await ironicNode(gone), gone);
      expect((await ironicNode(gone))?.provisionState).toBe("active");
      lab.world.faults.remove(fault.id);
      restored = true;
      // The conductor lifts its own maintenance once the BMC answers again (no hand call).
      await untilIronic(gone, (x) => !x?.maintenance, "back in service");
      await w.ok(["apply", "-auto-approve", "-no-color"]);
    } finally {
      if (!restored) lab.world.faults.remove(fault.id);
    }
    expect(await ironicNode(gone)).toBeUndefined();
    expect((await kubeView(lab)).has(gone)).toBe(false);
    await converged(kept);
  });

  it("a node removed in the same change that switches its outlet off: its teardown still reaches the BMC", async () => {
    const gone = nodes[2];
    const kept = nodes.slice(0, 2);
    // Only the outlet stays in the configuration, now switched off.
    const all = rackConfig(lab, "ironic", [gone], opts);
    const outlet = /resource "rackform_pdu_outlet"[^}]*\}/
      .exec(all)![0]
      .replace('power_state = "On"', 'power_state = "Off"');
    offOutlet = outlet;
    await w.write({ "main.tf": `${rackConfig(lab, "ironic", kept, opts)}\n${outlet}\n` });
    // The engine destroys the node's chain (its teardown needs the BMC) before it updates the outlet it rests on.
    const r = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(r.stdout).toContain("Apply complete! Resources: 0 added, 1 changed, 5 destroyed.");
    expect(await ironicNode(gone)).toBeUndefined();
    const n = lab.info.nodes[2];
    expect(lab.world.outlet(n.pdu, n.outlet).on).toBe(false);
    await converged(kept);
  });

  it("a quarantined node removed from the rack: destroying its gate lifts rackform's quarantine, so its undeploy runs", async () => {
    const sick = nodes[1];
    const kept = [nodes[0]];
    // A GPU lost: the gate re-runs, fails, and rackform puts the node in maintenance (its quarantine).
    const fault = lab.world.faults.add({ kind: "missing-gpu", node: sick, gpus: 1 });
    const failed = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(failed.code, failed.stdout).toBe(1);
    expect((await ironicNode(sick))?.maintenanceReason).toMatch(/^rackform acceptance failed/);
    lab.world.faults.remove(fault.id);
    // WHEN the node is removed from the rack
    await w.write({ "main.tf": `${rackConfig(lab, "ironic", kept, opts)}\n${offOutlet}\n` });
    const r = await w.run(["apply", "-auto-approve", "-no-color"]);
    // THEN one apply tears it down: no "in maintenance" refusal, no hand call to Ironic
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(await ironicNode(sick)).toBeUndefined();
    await converged(kept);
  });
});

describe.each(ENGINES)("teardown on a 4-node MAAS + Slurm rack under %s", (name) => {
  let lab: Lab;
  let w: Workdir;
  let nodes: string[];

  beforeAll(async () => {
    lab = await startLab({ nodes: 4, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
    await uploadGoldenImage(lab);
    nodes = lab.info.nodes.map((n) => n.name);
    w = await rackStack(engine(name), cliConfig, lab, "maas", nodes);
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
  });
  afterAll(async () => {
    await lab?.close();
  });

  /** Every MAAS machine as hostname → status name. */
  async function maasView(): Promise<Map<string, string>> {
    const c = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    try {
      return new Map((await c.listMachines()).map((m) => [m.hostname, m.statusName]));
    } finally {
      await c.close();
    }
  }

  it("a node removed while its BMC does not answer: the release fails naming it and the fix; once the BMC is back one apply finishes", async () => {
    const gone = nodes[3];
    const kept = nodes.slice(0, 3);
    const fault = lab.world.faults.add({ kind: "bmc-unreachable", node: gone });
    try {
      await w.write({ "main.tf": rackConfig(lab, "maas", kept) });
      const first = await w.run(["apply", "-auto-approve", "-no-color"]);
      expect(first.code, first.stdout).toBe(1);
      expect(folded(first)).toContain(`Error: Release failed: ${gone}`);
      // The demo releases with erase: MAAS must power the machine on to boot its erase environment.
      expect(folded(first)).toContain(`check ${gone}'s BMC (MAAS could not power it on to erase its disks`);
      // MAAS's own state, which it releases from again; nothing rackform set (no Broken).
      expect((await maasView()).get(gone)).toBe("Failed disk erasing");
    } finally {
      lab.world.faults.remove(fault.id);
    }
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect((await maasView()).has(gone)).toBe(false);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const n of kept) expect((await maasView()).get(n), n).toBe("Deployed");
    const slurm = await slurmNodes(lab);
    for (const n of kept) expect(slurm.get(n)?.schedulable, n).toBe(true);
  });
});
