/**
 * Day-2 drift under the real engines, the Ironic + Kubernetes half of issue 11's matrix (day2-drift.test.ts is the
 * MAAS + Slurm half): a converged 4-node rack written as the demo writes it (MACs taken from rackform_bmc), then one
 * hand-made change at a time. For each: the plan touches only the affected node, only with the minimal fix; one apply
 * converges; the next plan is empty; no test code calls a backend to help. The lab runs on its `instant` profile.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IronicNode } from "../../src/clients/ironic/index.js";
import { type Lab, startLab } from "../../src/lab/index.js";
import type { NicPort } from "../../src/lab/world/model.js";
import { ENGINES, engine, type Workdir } from "../support/engines.js";
import { kubeView as labKubeView, withIronic, withKube } from "../support/lab-clients.js";
import { rotatePassword } from "../support/lab-control.js";
import {
  appliesOnly,
  converged,
  plannedChanges,
  rackStack,
  resourceName,
  rotatedVars,
  shownState,
} from "../support/rack.js";
import { builtProvider, freshInstall, summarise } from "../support/rackform-e2e.js";
import { POLL_E2E as POLL, until } from "../support/until.js";

let lab: Lab;
let cliConfig: string;
/** The BMCs' and PDUs' password once a case rotated it (the lab keeps it for the rest of the file). */
let rotatedPassword: string | undefined;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
  lab = await startLab({ nodes: 4, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
});
afterAll(async () => {
  await lab?.close();
});

/** Every Ironic node as name → "provision_state/maintenance/uuid". */
const ironicView = () =>
  withIronic(
    lab,
    async (c) =>
      new Map(
        (await c.listNodes({ detail: true })).map((n) => [
          n.name ?? n.uuid,
          `${n.provisionState}/${n.maintenance ? "maintenance" : "in-service"}/${n.uuid}`,
        ]),
      ),
  );

/** Reads the lab's Ironic node `name` every 50 ms until `cond` holds (what its conductor has noticed so far). */
async function untilIronic(name: string, cond: (n: IronicNode) => boolean, what: string): Promise<void> {
  await withIronic(lab, (c) =>
    until(`Ironic to report ${name} ${what}`, async () => cond(await c.getNode(name)), POLL),
  );
}

/** Reads the lab's Kubernetes nodes every 50 ms until `name` is (or is not) Ready. */
async function untilReady(name: string, ready: boolean): Promise<void> {
  const what = `Kubernetes to report ${name} ${ready ? "Ready" : "NotReady"}`;
  await withKube(lab, (c) => until(what, async () => (await c.getNode(name, { fresh: true })).ready === ready, POLL));
}

/** Every Kubernetes node as name → whether it is Ready and schedulable. */
const kubeView = () => labKubeView(lab);

describe.each(ENGINES)("day-2 drift on a 4-node Ironic + Kubernetes rack under %s", (name) => {
  let w: Workdir;
  let nodes: string[];
  const node = (i: number) => lab.world.node(nodes[i])!;

  beforeAll(async () => {
    nodes = lab.info.nodes.map((n) => n.name);
    const rotated = rotatedPassword ? rotatedVars(rotatedPassword) : {};
    w = await converged(
      await rackStack(engine(name), cliConfig, lab, "ironic", nodes, { scheduler: "kubernetes" }),
      rotated,
    );
  });

  /**
   * Plans, checks that only `expected` (addresses of the affected node; in-place updates unless an action is given)
   * change; applies; plans again; every Ironic node (but `reenrolled`) keeps its uuid, is active and in service; every
   * node is Ready and schedulable in Kubernetes.
   */
  async function healsInOneApply(expected: readonly string[], reenrolled?: string): Promise<void> {
    const before = await ironicView();
    await appliesOnly(w, expected);
    // Nothing else was re-enrolled: every other node keeps its uuid; all are active and in service.
    const after = await ironicView();
    expect([...after.keys()].sort()).toEqual([...before.keys(), ...(reenrolled ? [reenrolled] : [])].sort());
    for (const [n, v] of before) if (n !== reenrolled) expect(after.get(n)?.split("/")[2], n).toBe(v.split("/")[2]);
    for (const [n, v] of after) expect(v, n).toMatch(/^active\/in-service\//);
    const kube = await kubeView();
    for (const n of nodes) expect(kube.get(n), n).toBe(true);
  }

  it("a PDU outlet switched off: the outlet, that node's BMC re-check and its host power are fixed in place", async () => {
    const n = lab.info.nodes[1];
    lab.world.setOutlet(n.pdu, n.outlet, "Off");
    // Ironic's power sync finds the BMC silent, retries, then records power None under its own maintenance.
    await untilIronic(nodes[1], (x) => x.fault === "power failure", "in power-failure maintenance");
    await untilReady(nodes[1], false); // the node monitor grace period passed

    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/power_state\s+= "Off" -> "On"/);
    expect(plan.stdout).toMatch(/power_state\s+= "unknown" -> "on"/);
    expect(plan.stdout).not.toContain("forces replacement");
    const r = resourceName(nodes[1]);
    await healsInOneApply([`rackform_pdu_outlet.${r}`, `rackform_bmc.${r}`, `rackform_deployment.${r}`]);
    expect(lab.world.powerState(node(1))).toBe("On");
  });

  it("a host powered off through its BMC: only its deployment plans a power-on, and apply powers it on", async () => {
    lab.world.setHostPower(node(1), false);
    await untilIronic(nodes[1], (x) => x.powerState === "power off", "powered off"); // its next power sync
    await untilReady(nodes[1], false);
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/power_state\s+= "off" -> "on"/);
    await healsInOneApply([`rackform_deployment.${resourceName(nodes[1])}`]);
    expect(lab.world.powerState(node(1))).toBe("On");
  });

  it("a node cordoned by hand in Kubernetes: only its member plans the uncordon", async () => {
    await withKube(lab, (c) => c.cordon(nodes[2]));
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/joined\s+= false -> true/);
    await healsInOneApply([`rackform_cluster_member.${resourceName(nodes[2])}`]);
  });

  it("a node deleted from Kubernetes by hand: its member alone re-creates the Node, which its kubelet fills in", async () => {
    await withKube(lab, (c) => c.deleteNode(nodes[2]));
    // A running kubelet never registers again (kubernetes/kubernetes#71398): the lab's keeps posting to nothing.
    await new Promise((r) => setTimeout(r, 300));
    expect((await kubeView()).has(nodes[2])).toBe(false);
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/joined\s+= false -> true/);
    expect((plan.stdout + plan.stderr).replace(/\s+/g, " ")).toContain(`Node gone from Kubernetes: ${nodes[2]}`);
    const bmcSince = lab.requests.last();
    const kubeSince = lab.backends!.kubernetes.requests.length;
    await healsInOneApply([`rackform_cluster_member.${resourceName(nodes[2])}`]);
    // No BMC or PDU was written to (logins aside), and the only Kubernetes writes were the new Node and its patches.
    const bmcWrites = lab.requests.since(bmcSince).filter((e) => e.method !== "GET" && !e.path.includes("/Sessions"));
    expect(bmcWrites).toEqual([]);
    const writes = lab.backends!.kubernetes.requests.slice(kubeSince).filter((e) => e.method !== "GET");
    expect(writes.map((e) => `${e.method} ${e.path}`)).toContain("POST /api/v1/nodes");
    for (const e of writes)
      expect(e.path === "/api/v1/nodes" || e.path.endsWith(`/nodes/${nodes[2]}`), e.path).toBe(true);
    // The kubelet's status update filled the object in: its GPUs are schedulable again.
    const n = await withKube(lab, (c) => c.getNode(nodes[2], { fresh: true }));
    expect(n.capacity["nvidia.com/gpu"]).toBe(String(node(2).spec.hardware.gpus?.count));
  });

  it("a machine put in maintenance by hand in Ironic: its gate re-runs (returning it to service) and it rejoins", async () => {
    const uuid = (await ironicView()).get(nodes[3])!.split("/")[2];
    await withIronic(lab, (c) => c.setMaintenance(uuid, true, "reseated a DIMM"));
    const r = resourceName(nodes[3]);
    await healsInOneApply([`rackform_acceptance.${r} delete,create`, `rackform_cluster_member.${r} delete,create`]);
  });

  it("a machine undeployed by hand in Ironic: that node alone is redeployed, re-accepted and rejoined", async () => {
    const uuid = (await ironicView()).get(nodes[0])!.split("/")[2];
    await withIronic(lab, async (c) => {
      await c.setProvisionState(uuid, "deleted");
      await c.waitForProvisionState(uuid, "available", { timeoutMs: 30_000, pollMs: 50 }); // cleaned: its OS and disks are gone
    });
    const r = resourceName(nodes[0]);
    await healsInOneApply([
      `rackform_deployment.${r} create`,
      `rackform_acceptance.${r} delete,create`,
      // Tear-down took the node's kubelet away and its Node with it: the member (absent) is replaced with its gate.
      `rackform_cluster_member.${r} delete,create`,
    ]);
  });

  it("a machine deleted from Ironic by hand: that node alone is re-enrolled, redeployed, re-accepted and rejoined", async () => {
    const uuid = (await ironicView()).get(nodes[2])!.split("/")[2];
    // Ironic deletes an active node only in maintenance (the host keeps running what it ran).
    await withIronic(lab, async (c) => {
      await c.setMaintenance(uuid, true, "decommissioned by mistake");
      await c.deleteNode(uuid);
    });
    const r = resourceName(nodes[2]);
    await healsInOneApply(
      [
        `rackform_machine.${r} create`,
        `rackform_deployment.${r} create`,
        `rackform_acceptance.${r} create`,
        `rackform_cluster_member.${r} delete,create`,
      ],
      nodes[2],
    );
    expect((await ironicView()).get(nodes[2])).not.toContain(uuid);
  });

  it("a NIC replaced (new MACs): the plan re-enrolls that node only, flagged ⚠ by plan-summary", async () => {
    // The NIC whose MAC the machine was enrolled with: its ports come back with new MACs.
    const host = node(1);
    const r = resourceName(nodes[1]);
    const machine = (await shownState(w)).find((x) => x.address === `rackform_machine.${r}`);
    const enrolled = String((machine?.values.macs as string[] | undefined)?.[0]).toLowerCase();
    const nic = host.ports.find((p) => p.mac.toLowerCase() === enrolled)!.nic;
    (host as unknown as { ports: NicPort[] }).ports = host.ports.map((p) =>
      p.nic === nic ? { ...p, mac: `02:aa:bb:${p.mac.slice(9)}` } : p,
    );
    const expected = ["rackform_machine", "rackform_deployment", "rackform_acceptance", "rackform_cluster_member"];
    const changes = (await plannedChanges(w)).filter((c) => !["no-op", "read"].includes(c.actions.join()));
    expect(changes.map((c) => `${c.address} ${c.actions.join()}`).sort()).toEqual(
      expected.map((t) => `${t}.${r} delete,create`).sort(),
    );
    const json = (await w.ok(["show", "-json", "-no-color", "rack.tfplan"])).stdout;
    const summary = await summarise(json);
    expect(summary.code, summary.stderr).toBe(0);
    expect(summary.stdout).toContain("⚠");
    expect(summary.stdout).toMatch(new RegExp(`${nodes[1]}\\b.*re-enroll`));
    // the cause beside the fix, and never a "reimage X → X" cell
    expect(summary.stdout).toMatch(
      new RegExp(`### Changed outside rackform[^#]*\\| ${nodes[1]} +\\| BMC macs changed`),
    );
    expect(summary.stdout).not.toMatch(/reimage (\S+) → \1\b/);
    await w.ok(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const after = await ironicView();
    for (const [n, v] of after) expect(v, n).toMatch(/^active\/in-service\//);
    expect((await kubeView()).get(nodes[1])).toBe(true);
  });

  it("the BMC and PDU password rotated, then the variable: every machine hands Ironic the new one in place, nothing else", async () => {
    const rotated = `Rotated-${Date.now().toString(36)}-Passw0rd`;
    for (const n of nodes) await rotatePassword(lab, `/nodes/${n}/bmc/password`, rotated);
    for (const p of lab.info.pdus) await rotatePassword(lab, `/pdus/${p.id}/password`, rotated);
    // Ironic's power sync fails with the old password and takes every node into power-failure maintenance.
    for (const n of nodes) await untilIronic(n, (x) => x.fault === "power failure", "in power-failure maintenance");
    await w.write(rotatedVars(rotated));
    rotatedPassword = rotated;
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/bmc_credentials_fingerprint\s+= \(sensitive value\)/);
    expect(plan.stdout + plan.stderr).not.toContain(rotated);
    // The conductor lifts its own maintenance once the BMC answers again; healsInOneApply checks all are in service.
    await healsInOneApply(nodes.map((n) => `rackform_machine.${resourceName(n)}`));
    expect(await readFile(join(w.dir, "terraform.tfstate"), "utf8")).not.toContain(rotated);
    for (const n of nodes) expect(lab.world.powerState(lab.world.node(n)!), n).toBe("On");
  });

  it("a firmware component changed version (the flavor pins none): the refresh records it and nothing is planned", async () => {
    const drift = lab.world.faults.add({ kind: "firmware-drift", node: nodes[3], component: "bios", version: "9.9.9" });
    try {
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
      const bmc = (await shownState(w)).find((x) => x.address === `rackform_bmc.${resourceName(nodes[3])}`);
      expect(bmc?.values.bios_version).toBe("9.9.9");
    } finally {
      lab.world.faults.remove(drift.id);
    }
  });

  it("a one-time boot override set by hand on a BMC: nothing rackform owns changed, the plan is empty", async () => {
    // The override is consumed by the next boot; rackform sets one only while it enrolls a machine, never reads it back.
    node(0).boot = { ...node(0).boot, target: "Cd", enabled: "Once" };
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(node(0).boot.enabled).toBe("Once"); // and nobody wrote to that BMC
  });

  it("a BMC rebooting (unreachable) during a plan: nothing is replaced, its re-check and host power are fixed in place", async () => {
    // The BMC stops answering (a firmware reboot) while the host runs on; Ironic's power sync notices it first.
    const reboot = lab.world.faults.add({ kind: "bmc-unreachable", node: nodes[2] });
    try {
      await untilIronic(nodes[2], (x) => x.fault === "power failure", "in power-failure maintenance");
      // The inventory stays known (MACs, GPUs): nothing built on it is replaced; only the BMC and the host power are
      // re-checked — on that node alone.
      const changes = (await plannedChanges(w)).filter((c) => !["no-op", "read"].includes(c.actions.join()));
      const shown = (await w.ok(["show", "-no-color", "rack.tfplan"])).stdout;
      expect(shown).not.toContain("forces replacement");
      expect(shown).toMatch(/power_state\s+= "unknown" -> "on"/);
      const r = resourceName(nodes[2]);
      expect(changes.map((c) => `${c.address} ${c.actions.join()}`).sort()).toEqual(
        [`rackform_bmc.${r} update`, `rackform_deployment.${r} update`].sort(),
      );
    } finally {
      lab.world.faults.remove(reboot.id); // the BMC is back
    }
    // One apply of that plan converges, the next plan is empty, and the node is back in service in Ironic.
    await w.ok(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const [n, v] of await ironicView()) expect(v, n).toMatch(/^active\/in-service\//);
    expect(lab.world.powerState(node(2))).toBe("On");
  });
});
