/**
 * rackform_cluster_member's disruption budget through the provider server against the lab's slurmrestd: a rolling
 * reimage's drains wait for max_unavailable, a rejoin hands the slot on, a limit set in the same change as the new gate
 * applies (through the plan's private data), a drain left waiting with nothing else in flight fails with the fix
 * instead of hanging, the node still joined, and a node removed from the rack by the same apply takes a slot while it
 * drains even though its own state sets no limit.
 */
import { describe, expect, it } from "vitest";
import { SlurmClient } from "../../../src/clients/slurm/index.js";
import { type ObjectValue, UNKNOWN, type Value } from "../../../src/framework/index.js";
import { clusterMemberSchema } from "../../../src/provider/resources/cluster-member-schema.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { proposedNew } from "../../support/kitchen-sink/engine-sim.js";
import { apply, destroy, lines, member, rigPerTest, SLURM_TOKEN, T } from "./cluster-member-support.js";

const rig = rigPerTest();

const NODES = ["gpu-01", "gpu-02", "gpu-03"];
const config = (node: string, set: Record<string, Value> = {}) =>
  member({ node, scheduler: "slurm", features: ["h100"], gate_id: `maas:${node}`, ...set });

/** Three nodes joined on their first gate, without a limit. */
async function joinedRack(): Promise<ObjectValue[]> {
  const out: ObjectValue[] = [];
  for (const n of NODES) {
    rig.slurm.hooks.registerNode(n, { state: "DOWN", reason: "Not responding" });
    const r = await apply(rig.srv, config(n));
    expect(lines(r.diagnostics)).toBe("");
    out.push(r.newState as ObjectValue);
  }
  return out;
}

/** The destroy half of a replacement onto a new gate with max_unavailable = 1, as the engine runs it. */
async function drainForReimage(prior: ObjectValue) {
  const cfg = config(String(prior.node), { gate_id: UNKNOWN, max_unavailable: 1 });
  const p = await rig.srv.planResourceChange({
    typeName: T,
    priorState: prior,
    proposedNewState: proposedNew(clusterMemberSchema, cfg, prior),
    config: cfg,
    priorPrivate: new Uint8Array(0),
  });
  expect(p.requiresReplace).toContainEqual([{ attr: "gate_id" }]);
  const drain = rig.srv.applyResourceChange({
    typeName: T,
    priorState: prior,
    plannedState: null,
    config: null,
    plannedPrivate: p.plannedPrivate,
  });
  const seen: { done?: Awaited<ReturnType<ProviderServer["applyResourceChange"]>> } = {};
  void drain.then((r) => {
    seen.done = r;
  });
  return { drain, seen };
}

const drained = (n: string) => rig.slurm.hooks.node(n)?.drain === true;
const settle = () => new Promise((r) => setTimeout(r, 100));

describe("rackform_cluster_member disruption budget (slurm)", () => {
  it("drains one node at a time with max_unavailable = 1 set in the same change; each rejoin lets the next drain", async () => {
    const [s1, s2, s3] = await joinedRack();
    // WHEN the three drains start together, as the engine starts them
    const d1 = await drainForReimage(s1);
    const d2 = await drainForReimage(s2);
    const d3 = await drainForReimage(s3);
    expect(lines((await d1.drain).diagnostics)).toBe("");
    await settle();
    // THEN only the first node drained; the others wait, untouched and joined
    expect(NODES.map(drained)).toEqual([true, false, false]);
    expect([d2.seen.done, d3.seen.done]).toEqual([undefined, undefined]);

    // WHEN the first node rejoins on its new gate
    const back = await apply(rig.srv, config("gpu-01", { gate_id: "maas:gpu-01", max_unavailable: 1 }));
    expect(lines(back.diagnostics)).toBe("");
    // THEN the second drains, the third still waits
    expect(lines((await d2.drain).diagnostics)).toBe("");
    await settle();
    expect(NODES.map(drained)).toEqual([false, true, false]);
    expect(d3.seen.done).toBeUndefined();

    // WHEN the second rejoins too THEN the third drains
    const back2 = await apply(rig.srv, config("gpu-02", { gate_id: "maas:gpu-02", max_unavailable: 1 }));
    expect(lines(back2.diagnostics)).toBe("");
    expect(lines((await d3.drain).diagnostics)).toBe("");
    expect(drained("gpu-03")).toBe(true);
  });

  it("fails a drain left waiting with nothing else in flight, naming the fix; the node stays joined", async () => {
    const [s1, s2] = await joinedRack();
    // GIVEN gpu-01 holds the only slot and its chain is not running (as when the engine's slots are all taken)
    expect(lines((await (await drainForReimage(s1)).drain).diagnostics)).toBe("");
    // WHEN gpu-02's drain waits, alone in flight, for the guard's few seconds
    const r = await (await drainForReimage(s2)).drain;
    // THEN it fails with the reason and the fix, and gpu-02 was never drained and stays in state
    const text = lines(r.diagnostics);
    expect(text).toContain("error Drain gave up waiting for the disruption budget @ max_unavailable");
    expect(text).toContain("the nodes being recycled (gpu-01) cannot take their next step");
    expect(text).toContain(
      "Raise the engine's parallelism above the number of nodes minus max_unavailable (1) " +
        "(terraform apply -parallelism=N, cdktf deploy --terraform-parallelism=N), or re-apply to continue the rollout.",
    );
    expect(text).toContain("The node stays joined; nothing was changed.");
    expect(drained("gpu-02")).toBe(false);
    expect(r.newState).toEqual(s2);
  }, 30_000);

  it("counts a node being removed by the same apply (no limit of its own) against the others' max_unavailable", async () => {
    const [s1, s2, s3] = await joinedRack();
    // GIVEN gpu-03 is removed from the rack (its state has no max_unavailable) and still runs a job
    const job = rig.slurm.hooks.startJob("gpu-03");
    const removal = destroy(rig.srv, s3);
    for (let i = 0; i < 100 && !drained("gpu-03"); i++) await settle();
    expect(drained("gpu-03")).toBe(true);
    // WHEN gpu-01 is to be recycled with max_unavailable = 1 and at most 2 s to leave
    const slow = { ...s1, timeouts: { create: null, read: null, update: null, delete: "2s" } };
    const cfg = config("gpu-01", { gate_id: UNKNOWN, max_unavailable: 1 });
    const p = await rig.srv.planResourceChange({
      typeName: T,
      priorState: slow,
      proposedNewState: proposedNew(clusterMemberSchema, cfg, slow),
      config: cfg,
      priorPrivate: new Uint8Array(0),
    });
    const r = await rig.srv.applyResourceChange({
      typeName: T,
      priorState: slow,
      plannedState: null,
      config: null,
      plannedPrivate: p.plannedPrivate,
    });
    // THEN it never drained: the removal held the only slot, as a drain of this run
    const text = lines(r.diagnostics);
    expect(text).toContain("Drain waited too long for the disruption budget");
    expect(text).toContain("gpu-03 (draining in this run)");
    expect(drained("gpu-01")).toBe(false);
    // WHEN the job ends THEN gpu-03 leaves the rack (a slurm.conf node: left DOWN, said in a warning) and gives the
    // slot back; a node left behind that way no longer counts, so gpu-02's drain goes ahead at once
    rig.slurm.hooks.endJob(job);
    const gone = await removal;
    expect(gone.diagnostics.map((d) => d.summary)).toEqual(["Node stays listed in Slurm: gpu-03"]);
    const d2 = await drainForReimage(s2);
    expect(lines((await d2.drain).diagnostics)).toBe("");
    expect(drained("gpu-02")).toBe(true);
  }, 30_000);

  it("counts a node drained by hand in the partition: the drain waits, then fails at timeouts.delete naming it", async () => {
    const [s1] = await joinedRack();
    // GIVEN gpu-03 drained by hand with scontrol (out of service in slurmctld; this run did not drain it)
    const op = new SlurmClient({ url: rig.slurmUrl, user: "rackform", token: SLURM_TOKEN });
    await op.drain("gpu-03", "bad DIMM?").finally(() => op.close());
    // WHEN gpu-01 is to be recycled with max_unavailable = 1 and at most 2 s to leave
    const cfg = config("gpu-01", { gate_id: UNKNOWN, max_unavailable: 1 });
    const p = await rig.srv.planResourceChange({
      typeName: T,
      priorState: { ...s1, timeouts: { create: null, read: null, update: null, delete: "2s" } },
      proposedNewState: proposedNew(clusterMemberSchema, cfg, s1),
      config: cfg,
      priorPrivate: new Uint8Array(0),
    });
    const r = await rig.srv.applyResourceChange({
      typeName: T,
      priorState: { ...s1, timeouts: { create: null, read: null, update: null, delete: "2s" } },
      plannedState: null,
      config: null,
      plannedPrivate: p.plannedPrivate,
    });
    // THEN it never drained: 1 of 1 was already out, and the diagnostic names that node
    const text = lines(r.diagnostics);
    expect(text).toContain("Drain waited too long for the disruption budget");
    expect(text).toContain("gpu-03 (already out in the scheduler)");
    expect(drained("gpu-01")).toBe(false);
  }, 30_000);
});
