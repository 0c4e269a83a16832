/**
 * Day-2 drift under the real engines (issue 11's matrix, first part): a converged 4-node MAAS + Slurm rack written as
 * the demo writes it (MACs taken from rackform_bmc), then one hand-made change at a time. For each: the plan touches
 * only the affected node, only with in-place updates (nothing replaced, nothing destroyed); one apply converges; the
 * next plan is empty; no test code calls a backend to help. The lab runs on its `instant` profile.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MaasClient } from "../../src/clients/maas/index.js";
import { SlurmClient } from "../../src/clients/slurm/index.js";
import { type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, folded, type Workdir } from "../support/engines.js";
import { maasView } from "../support/lab-clients.js";
import { rotatePassword } from "../support/lab-control.js";
import {
  appliesOnly,
  converged,
  GOLDEN_IMAGE,
  plannedChanges,
  rackStack,
  resourceName,
  rotatedVars,
  shownState,
  slurmNodes,
  uploadGoldenImage,
} from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";
import { POLL_E2E as POLL, until } from "../support/until.js";

let lab: Lab;
let cliConfig: string;
/** The BMCs' and PDUs' password once a case rotated it (the lab keeps it for the rest of the file). */
let rotatedPassword: string | undefined;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
  lab = await startLab({ nodes: 4, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
  await uploadGoldenImage(lab);
});
afterAll(async () => {
  await lab?.close();
});

/** Reads slurmctld every 50 ms until `node`'s state includes `state` (what it has noticed so far). */
async function untilSlurm(node: string, state: string): Promise<void> {
  await until(
    `slurmctld to report ${node} ${state}`,
    async () => (await slurmNodes(lab)).get(node)?.state.split("+").includes(state),
    POLL,
  );
}

describe.each(ENGINES)("day-2 drift on a 4-node MAAS + Slurm rack under %s", (name) => {
  let w: Workdir;
  let nodes: string[];
  const node = () => lab.world.node(nodes[1])!;

  beforeAll(async () => {
    nodes = lab.info.nodes.map((n) => n.name);
    const rotated = rotatedPassword ? rotatedVars(rotatedPassword) : {};
    w = await converged(await rackStack(engine(name), cliConfig, lab, "maas", nodes), rotated);
  });

  /**
   * Plans, checks that only `expected` (addresses of the affected node; in-place updates unless an action is given)
   * change; applies; plans again; every machine (but `reenrolled`) keeps its id and is Deployed, every node accepts work.
   */
  async function healsInOneApply(expected: readonly string[], reenrolled?: string): Promise<void> {
    const before = await maasView(lab);
    await appliesOnly(w, expected);
    // Nothing was re-enrolled or reimaged: every machine keeps its id and is Deployed.
    const after = await maasView(lab);
    expect([...after.keys()].sort()).toEqual([...before.keys(), ...(reenrolled ? [reenrolled] : [])].sort());
    for (const [n, v] of before) expect(after.get(n)?.split("/")[1], n).toBe(v.split("/")[1]);
    for (const v of after.values()) expect(v).toMatch(/^Deployed\//);
    const slurm = await slurmNodes(lab);
    for (const n of nodes) expect(slurm.get(n)?.schedulable, n).toBe(true);
  }

  it("a PDU outlet switched off: the outlet, that node's BMC re-check and its host power are fixed in place", async () => {
    const n = lab.info.nodes[1];
    lab.world.setOutlet(n.pdu, n.outlet, "Off");
    await untilSlurm(nodes[1], "DOWN"); // SlurmdTimeout passed: "Not responding"
    const plan = await w.run(["plan", "-no-color"]);
    // The plan says why: the outlet is off, the BMC did not answer, the host's power is unknown.
    expect(plan.stdout).toMatch(/power_state\s+= "Off" -> "On"/);
    expect(plan.stdout).toMatch(/power_state\s+= "unknown" -> "on"/);
    expect(plan.stdout).not.toContain("forces replacement");
    const r = resourceName(nodes[1]);
    await healsInOneApply([
      `rackform_pdu_outlet.${r}`,
      `rackform_bmc.${r}`,
      `rackform_deployment.${r}`,
      `rackform_cluster_member.${r}`, // RESUMEs the node once its slurmd is back (ReturnToService=0)
    ]);
    expect(lab.world.powerState(node())).toBe("On");
  });

  it("a host powered off through its BMC: its deployment plans a power-on and its member the re-join", async () => {
    lab.world.setHostPower(node(), false);
    await untilSlurm(nodes[1], "DOWN");
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/power_state\s+= "off" -> "on"/);
    const r = resourceName(nodes[1]);
    await healsInOneApply([`rackform_deployment.${r}`, `rackform_cluster_member.${r}`]);
    expect(lab.world.powerState(node())).toBe("On");
  });

  it("a node a person drained with a reason is left alone and shown; resumed by hand, the plan is empty", async () => {
    const s = lab.info.slurm!;
    const c = new SlurmClient({ url: s.url, user: s.user, token: s.token });
    try {
      await c.drain(nodes[2], "maintenance by hand");
      // WHEN the next plan runs: it warns, naming the reason and the way back, and changes nothing
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      expect(folded(plan)).toContain(`Node drained by a person: ${nodes[2]}`);
      expect(folded(plan)).toContain("maintenance by hand");
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      expect((await slurmNodes(lab)).get(nodes[2])?.schedulable).toBe(false);
      // WHEN the person resumes it: nothing is left to do
      await c.resume(nodes[2]);
    } finally {
      await c.close();
    }
    await healsInOneApply([]);
  });

  it("a node deleted from Slurm by hand: slurmctld refuses (slurm.conf lists it), so nothing changed and the plan is empty", async () => {
    // The rack's nodes are slurm.conf nodes (ReturnToService=0); only dynamic ones (slurmd -Z) can be deleted, and the
    // integration tests cover rackform's answer to those (a re-join that fails fast naming the slurmd restart).
    const s = lab.info.slurm!;
    const c = new SlurmClient({ url: s.url, user: s.user, token: s.token });
    try {
      await expect(c.deleteNode(nodes[2])).rejects.toThrow(/Can't delete non-dynamic node|2028/);
    } finally {
      await c.close();
    }
    expect((await slurmNodes(lab)).get(nodes[2])?.schedulable).toBe(true);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("a machine marked Broken by hand in MAAS: its gate re-runs (returning it to service) and it rejoins", async () => {
    const id = (await maasView(lab)).get(nodes[3])!.split("/")[1];
    const c = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    try {
      await c.markBroken(id, "reseated a DIMM");
    } finally {
      await c.close();
    }
    const r = resourceName(nodes[3]);
    await healsInOneApply([`rackform_acceptance.${r} delete,create`, `rackform_cluster_member.${r} delete,create`]);
  });

  it("a machine released by hand in MAAS: that node alone is redeployed, re-accepted and rejoined", async () => {
    const id = (await maasView(lab)).get(nodes[0])!.split("/")[1];
    const c = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    try {
      await c.release(id, {});
      await c.waitForStatus(id, [4], { timeoutMs: 30_000 }); // Ready: its OS and disks are gone
    } finally {
      await c.close();
    }
    const r = resourceName(nodes[0]);
    await healsInOneApply([
      `rackform_deployment.${r} create`,
      `rackform_acceptance.${r} delete,create`,
      `rackform_cluster_member.${r} delete,create`,
    ]);
  });

  it("a machine deleted from MAAS by hand: that node alone is re-enrolled, redeployed, re-accepted and rejoined", async () => {
    const id = (await maasView(lab)).get(nodes[2])!.split("/")[1];
    const c = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    try {
      await c.deleteMachine(id);
    } finally {
      await c.close();
    }
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
    expect((await maasView(lab)).get(nodes[2])).not.toContain(id);
  });

  it("a GPU lost: that node's gate re-runs, fails naming the missing GPU, quarantines it and drains it; repaired, one apply returns it", async () => {
    const r = resourceName(nodes[1]);
    const before = await maasView(lab);
    const from = lab.backends!.maas.requests.length;
    const fault = lab.world.faults.add({ kind: "missing-gpu", node: nodes[1], gpus: 1 });
    try {
      // The refresh names the GPU no longer reported (the same plan, shown as the user runs it).
      const planned = await w.ok(["plan", "-out=rack.tfplan", "-no-color"]);
      expect(folded(planned)).toContain(`Node no longer conforms to its expected baseline`);
      expect(folded(planned)).toContain("gpu_count: found 7, expected 8");
      expect(folded(planned)).toMatch(/No longer reported since the last read: GPU serial \S+/);
      const json = JSON.parse((await w.ok(["show", "-json", "-no-color", "rack.tfplan"])).stdout) as {
        resource_changes: { address: string; change: { actions: string[] } }[];
      };
      const changes = json.resource_changes.filter((c) => !["no-op", "read"].includes(c.change.actions.join()));
      expect(changes.map((c) => `${c.address} ${c.change.actions.join()}`).sort()).toEqual(
        [
          `rackform_bmc.${r} update`, // the re-check records conformant = false
          `rackform_acceptance.${r} delete,create`, // bmc_gpu_count 8 -> 7: the gate runs again
          `rackform_cluster_member.${r} delete,create`, // a new gate drains the node first
        ].sort(),
      );
      const shown = await w.ok(["show", "-no-color", "rack.tfplan"]);
      expect(shown.stdout).toMatch(/bmc_gpu_count\s+= 8 -> 7 # forces replacement/);
      expect(shown.stdout).not.toMatch(/macs\s+= .*# forces replacement/);
      const apply = await w.run(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
      expect(apply.code).not.toBe(0);
      expect(folded(apply)).toContain(`(${nodes[1]}) failed the gate`);
      expect(folded(apply)).toContain("expected_gpu_count: measured 7 GPUs visible; threshold 8 GPUs");
      expect(folded(apply)).toContain("Its BMC reports 7 of 8 GPUs (bmc_gpu_count;");
      // Quarantined in MAAS, out of Slurm; nothing else touched.
      const after = await maasView(lab);
      expect(after.get(nodes[1])).toMatch(/^(Failed testing|Broken)\//);
      for (const n of nodes.filter((x) => x !== nodes[1])) expect(after.get(n), n).toBe(before.get(n));
      const others = nodes.filter((x) => x !== nodes[1]).map((n) => before.get(n)!.split("/")[1]);
      const writes = lab.backends!.maas.requests.slice(from).filter((q) => q.method !== "GET");
      expect(writes.filter((q) => others.some((id) => q.path.includes(id)))).toEqual([]);
      const slurm = await slurmNodes(lab);
      expect(slurm.get(nodes[1])?.schedulable).toBe(false);
      for (const n of nodes.filter((x) => x !== nodes[1])) expect(slurm.get(n)?.schedulable, n).toBe(true);
    } finally {
      lab.world.faults.remove(fault.id);
    }
    // The GPU back: the gate re-runs, lifts rackform's quarantine, passes, and the node rejoins.
    await healsInOneApply([`rackform_acceptance.${r} delete,create`, `rackform_cluster_member.${r} create`]);
  });

  it("the golden image's boot resource deleted from MAAS by hand: the plan changes nothing and warns for every node", async () => {
    const label = `custom/${GOLDEN_IMAGE.name}-${GOLDEN_IMAGE.version}`;
    const c = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    try {
      const res = await c.catalog.listBootResources();
      const hit = res.find((b) => `custom/${b.name.replace(/^custom\//, "")}` === label);
      await c.catalog.deleteBootResource(hit!.id);
    } finally {
      await c.close();
    }
    const from = lab.backends!.maas.requests.length;
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    for (const n of nodes) expect(folded(plan)).toContain(`Warning: Image gone from MAAS: ${n}`);
    // One boot-resource list served the whole plan, not one request per node.
    const lists = lab
      .backends!.maas.requests.slice(from)
      .filter((q) => q.method === "GET" && /\/boot-resources\/$/.test(q.path));
    expect(lists).toHaveLength(1);
    expect(folded(plan)).toContain(`runs ${label}, which MAAS no longer lists among its boot resources`);
    expect(folded(plan)).toContain("Upload the image to MAAS again");
    // Uploaded again, as the warning says: the warnings go.
    await uploadGoldenImage(lab);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout + again.stderr).not.toContain("Image gone");
  });

  it("the BMC and PDU password rotated, then the variable: every machine hands MAAS the new one in place, nothing else", async () => {
    const rotated = `Rotated-${Date.now().toString(36)}-Passw0rd`;
    for (const n of nodes) await rotatePassword(lab, `/nodes/${n}/bmc/password`, rotated);
    for (const p of lab.info.pdus) await rotatePassword(lab, `/pdus/${p.id}/password`, rotated);
    await w.write(rotatedVars(rotated));
    rotatedPassword = rotated;
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/bmc_credentials_fingerprint\s+= \(sensitive value\)/);
    expect(plan.stdout).not.toContain("forces replacement");
    expect(plan.stdout + plan.stderr).not.toContain(rotated);
    await healsInOneApply(nodes.map((n) => `rackform_machine.${resourceName(n)}`));
    expect(await readFile(join(w.dir, "terraform.tfstate"), "utf8")).not.toContain(rotated);
    // MAAS powers the nodes with the new password again.
    const c = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
    try {
      for (const [n, v] of await maasView(lab)) expect(await c.queryPowerState(v.split("/")[1]), n).toBe("on");
    } finally {
      await c.close();
    }
  });

  it("the flavor baseline edited in code (GPU count): the plan re-checks every BMC and changes nothing else", async () => {
    const tf = await readFile(join(w.dir, "main.tf"), "utf8");
    await w.write({ "main.tf": tf.replace("gpu_count = 8", "gpu_count = 4") });
    try {
      const changes = (await plannedChanges(w)).filter((c) => !["no-op", "read"].includes(c.actions.join()));
      expect(changes.map((c) => `${c.address} ${c.actions.join()}`).sort()).toEqual(
        nodes.map((n) => `rackform_bmc.${resourceName(n)} update`).sort(),
      );
    } finally {
      await w.write({ "main.tf": tf });
    }
    const back = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(back.code, back.stdout + back.stderr).toBe(0);
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
    const host = lab.world.node(nodes[0])!;
    host.boot = { ...host.boot, target: "Pxe", enabled: "Once" };
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(host.boot.enabled).toBe("Once"); // and nobody wrote to that BMC
  });

  it("a BMC rebooting (unreachable) during a plan: nothing is replaced, its re-check and host power are fixed in place", async () => {
    // The BMC stops answering (a firmware reboot) while the host runs on: MAAS cannot query its power either.
    const reboot = lab.world.faults.add({ kind: "bmc-unreachable", node: nodes[2] });
    const r = resourceName(nodes[2]);
    try {
      const changes = (await plannedChanges(w)).filter((c) => !["no-op", "read"].includes(c.actions.join()));
      const shown = (await w.ok(["show", "-no-color", "rack.tfplan"])).stdout;
      expect(shown).not.toContain("forces replacement");
      expect(shown).toMatch(/power_state\s+= "unknown" -> "on"/);
      expect(changes.map((c) => `${c.address} ${c.actions.join()}`).sort()).toEqual(
        [`rackform_bmc.${r} update`, `rackform_deployment.${r} update`].sort(),
      );
    } finally {
      lab.world.faults.remove(reboot.id); // the BMC is back
    }
    const since = lab.requests.last();
    await w.ok(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const v of (await maasView(lab)).values()) expect(v).toMatch(/^Deployed\//);
    // No other node's BMC or outlet was written to (logins aside).
    const writes = lab.requests.since(since).filter((e) => e.method !== "GET" && !e.path.includes("/Sessions"));
    expect(writes.filter((e) => e.target !== nodes[2])).toEqual([]);
  });
});
