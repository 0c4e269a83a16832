/**
 * rackform_cluster_member with scheduler = "slurm", through the provider server against the lab's slurmrestd:
 * join (features + RESUME), waiting for registration, drift → re-join, in-place feature changes, drain on destroy with
 * a running job, the drain timeout, import.
 */
import { describe, expect, it } from "vitest";
import { SlurmClient } from "../../../src/clients/slurm/index.js";
import { isUnknown, type ObjectValue, UNKNOWN } from "../../../src/framework/index.js";
import { until } from "../../support/until.js";
import {
  apply,
  destroy,
  destroyForReplacement,
  expectNoSecrets,
  lines,
  member,
  plan,
  read,
  rigPerTest,
  SLURM_TOKEN,
  startRig,
  T,
  timeouts,
} from "./cluster-member-support.js";

const rig = rigPerTest();

const gpu01 = (set: Record<string, unknown> = {}) =>
  member({ node: "gpu-01", scheduler: "slurm", features: ["h100", "nvlink4"], ...(set as object) });

/** What an operator would do by hand with scontrol, through a client of the same slurmrestd. */
async function operator<T>(fn: (c: SlurmClient) => Promise<T>): Promise<T> {
  const url = rig.slurmUrl;
  const c = new SlurmClient({ url, user: "rackform", token: SLURM_TOKEN });
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}
describe("rackform_cluster_member (slurm)", () => {
  it("joins a registered DOWN node: sets its features and RESUMEs it", async () => {
    // GIVEN slurmd registered the node, DOWN until an operator admits it (ReturnToService=0)
    rig.slurm.hooks.registerNode("gpu-01", { state: "DOWN", reason: "Not responding", features: ["old"] });
    // WHEN
    const r = await apply(rig.srv, gpu01());
    // THEN
    expect(lines(r.diagnostics)).toBe("");
    const s = r.newState as ObjectValue;
    expect(s).toMatchObject({ id: "slurm:gpu-01", joined: true, state: "IDLE", partitions: ["gpu"] });
    expect([...(s.features as string[])].sort()).toEqual(["h100", "nvlink4"]);
    const n = rig.slurm.hooks.node("gpu-01")!;
    expect(n.down).toBe(false);
    expect([...n.features].sort()).toEqual(["h100", "nvlink4"]);
    expectNoSecrets(r);
  });

  it("plans a replacement (drain, then rejoin) when the gate it rests on is replaced, e.g. by a reimage", async () => {
    // GIVEN a node joined on gate A
    rig.slurm.hooks.registerNode("gpu-01", { state: "DOWN", reason: "Not responding" });
    const joined = await apply(rig.srv, gpu01({ gate_id: "maas:abc/gate-A" }));
    expect(lines(joined.diagnostics)).toBe("");
    // WHEN the gate is being replaced (its id is unknown until the new gate passes)
    const p = await plan(rig.srv, gpu01({ gate_id: UNKNOWN }), joined.newState);
    // THEN the member must be replaced: the engine destroys (drains) it before the deployment under it is replaced
    expect(lines(p.diagnostics)).toBe("");
    expect(p.requiresReplace).toContainEqual([{ attr: "gate_id" }]);
    // AND a first gate recorded after an import is taken in place
    const imported = { ...(joined.newState as ObjectValue), gate_id: null };
    const q = await plan(rig.srv, gpu01({ gate_id: "maas:abc/gate-A" }), imported);
    expect(q.requiresReplace).toEqual([]);
  });

  /** Makes slurmctld set the node DOWN again right after each of its first `times` RESUMEs (a slurmd missing pings). */
  function flapAfterResume(name: string, times: number): { readonly resumes: number } {
    const n = rig.slurm.hooks.node(name)!;
    const seen = { resumes: 0 };
    let down = n.down;
    Object.defineProperty(n, "down", {
      get: () => down,
      set: (v: boolean) => {
        if (!v) seen.resumes++;
        down = v || seen.resumes <= times;
      },
    });
    return seen;
  }

  it("retries a join that slurmctld answers with DOWN again, until the node stays up", async () => {
    rig.slurm.hooks.registerNode("gpu-01", { state: "DOWN", reason: "Not responding" });
    const seen = flapAfterResume("gpu-01", 2);
    const r = await apply(rig.srv, gpu01());
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toMatchObject({ joined: true, state: "IDLE" });
    expect(seen.resumes).toBe(3);
  });

  it("fails at the create timeout when every RESUME leaves the node DOWN, naming the node and its state", async () => {
    rig.slurm.hooks.registerNode("gpu-01", { state: "DOWN", reason: "Not responding" });
    const seen = flapAfterResume("gpu-01", Number.POSITIVE_INFINITY);
    const r = await apply(rig.srv, gpu01({ timeouts: timeouts({ create: "300ms" }) }));
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Failed to join Slurm"]);
    expect(r.diagnostics[0].detail).toContain("node gpu-01 is still DOWN after RESUME");
    expect(seen.resumes).toBeGreaterThan(1);
    expectNoSecrets(r);
  });

  it("waits for the node to register, then joins", async () => {
    const later = setTimeout(() => rig.slurm.hooks.registerNode("gpu-01", { state: "DOWN" }), 150);
    const r = await apply(rig.srv, gpu01());
    clearTimeout(later);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toMatchObject({ joined: true, state: "IDLE" });
  });

  it("fails naming the node and what slurmctld knows when the node never registers", async () => {
    rig.slurm.hooks.registerNode("gpu-02");
    const r = await apply(rig.srv, gpu01({ timeouts: timeouts({ create: "300ms" }) }));
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Node never registered with Slurm"]);
    const d = r.diagnostics[0];
    expect(d.detail).toContain("Slurm node gpu-01 did not register within 0.3s");
    expect(d.detail).toContain("slurmctld knows 1 node (gpu-02), none named gpu-01");
    expect(d.detail).toContain("slurmd");
    expect(d.attribute).toEqual([{ attr: "node" }]);
  });

  it("fails at once with wait_for_registration = false", async () => {
    const r = await apply(rig.srv, gpu01({ wait_for_registration: false }));
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Node never registered with Slurm"]);
    expect(r.diagnostics[0].detail).toContain("has not registered (wait_for_registration = false)");
    expect(r.diagnostics[0].detail).toContain("slurmctld knows no node at all");
  });

  it("leaves a person's drain alone and shows it; rackform's own drain left behind is re-joined", async () => {
    rig.slurm.hooks.registerNode("gpu-01");
    const created = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    // GIVEN an operator drained the node with a reason
    await operator((c) => c.drain("gpu-01", "bad DIMM?"));
    // WHEN refreshing
    const refreshed = await read(rig.srv, created);
    // THEN it reads not joined, with a warning naming the reason and the way back
    expect(refreshed.newState).toMatchObject({ joined: false, state: "IDLE+DRAIN" });
    expect(refreshed.diagnostics.map((d) => d.summary)).toEqual(["Node drained by a person: gpu-01"]);
    expect(refreshed.diagnostics[0].detail).toContain("bad DIMM?");
    expect(refreshed.diagnostics[0].detail).toContain("scontrol update nodename=gpu-01 state=resume");
    // AND the plan leaves it out: nothing to change
    const p = await plan(rig.srv, gpu01(), refreshed.newState, refreshed.private);
    expect(p.requiresReplace).toEqual([]);
    expect((p.plannedState as ObjectValue).joined).toBe(false);
    expect(rig.slurm.hooks.node("gpu-01")!.drain).toBe(true);
    // GIVEN instead a drain of rackform's own left behind (an apply killed between its drain and its rejoin)
    await operator((c) => c.drain("gpu-01", "rackform: leaving"));
    const ours = await read(rig.srv, created);
    expect(ours.diagnostics.map((d) => d.summary)).toEqual(["Node no longer accepts work in Slurm: gpu-01"]);
    // THEN the plan re-joins it in place
    const p2 = await plan(rig.srv, gpu01(), ours.newState, ours.private);
    const planned = p2.plannedState as ObjectValue;
    expect([planned.joined, isUnknown(planned.state)]).toEqual([true, true]);
    const a = await apply(rig.srv, gpu01(), ours.newState);
    expect(lines(a.diagnostics)).toBe("");
    expect(a.newState).toMatchObject({ joined: true, state: "IDLE" });
    expect(rig.slurm.hooks.node("gpu-01")!.drain).toBe(false);
  });

  it("changes features in place, and shows features changed by hand as drift", async () => {
    rig.slurm.hooks.registerNode("gpu-01");
    const s1 = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    const p = await plan(rig.srv, gpu01({ features: ["h100", "nvlink4", "ib400"] }), s1);
    expect(p.requiresReplace).toEqual([]);
    const s2 = (await apply(rig.srv, gpu01({ features: ["h100", "nvlink4", "ib400"] }), s1)).newState as ObjectValue;
    expect([...rig.slurm.hooks.node("gpu-01")!.features].sort()).toEqual(["h100", "ib400", "nvlink4"]);
    await operator((c) => c.setFeatures("gpu-01", ["h100"]));
    const r = await read(rig.srv, s2);
    expect(r.newState).toMatchObject({ features: ["h100"], joined: true });
  });

  it("drains on destroy: DRAINING while a job runs, done once it ends; nothing is killed", async () => {
    rig.slurm.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01({ gate_id: "maas:gpu-01" }))).newState as ObjectValue;
    const job = rig.slurm.hooks.startJob("gpu-01");
    let done = false;
    // The destroy half of a reimage: the node comes back, so it is only drained.
    const d = destroyForReplacement(rig.srv, s, gpu01({ gate_id: UNKNOWN })).then((r) => {
      done = true;
      return r;
    });
    await until("gpu-01 DRAIN-flagged", () => rig.slurm.hooks.node("gpu-01")!.drain, { everyMs: 10 });
    const n = rig.slurm.hooks.node("gpu-01")!;
    expect(n.reason).toBe("rackform: leaving");
    expect(n.jobs.has(job)).toBe(true);
    await new Promise((r) => setTimeout(r, 100));
    expect(done).toBe(false);
    rig.slurm.hooks.endJob(job);
    const r = await d;
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toBeNull();
    expect(rig.slurm.hooks.node("gpu-01")).toMatchObject({ drain: true, down: false });
    expect(rig.slurm.requests.filter((q) => q.method === "DELETE")).toEqual([]);
  });

  it("deletes a dynamic node (slurmd -Z) removed from the rack for good, after its drain", async () => {
    rig.slurm.hooks.registerNode("gpu-01", { dynamic: true });
    const s = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    // WHEN the member is destroyed for good (removed from the configuration, or terraform destroy)
    const r = await destroy(rig.srv, s);
    // THEN slurmctld no longer knows the node: drained first, then deleted
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toBeNull();
    expect(rig.slurm.hooks.node("gpu-01")).toBeUndefined();
    const writes = rig.slurm.requests.filter((q) => q.method !== "GET").map((q) => `${q.method} ${q.status}`);
    expect(writes.slice(-2)).toEqual(["POST 200", "DELETE 200"]);
  });

  it("fails fast naming the fix when a dynamic node was deleted by hand, and re-joins it once slurmd registers again", async () => {
    rig.slurm.hooks.registerNode("gpu-01", { dynamic: true });
    const s = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    // GIVEN an operator deleted the node (scontrol delete nodename=gpu-01); its slurmd runs on, unregistered
    await operator((c) => c.deleteNode("gpu-01"));
    const gone = await read(rig.srv, s);
    expect(gone.newState).toMatchObject({ joined: false, state: "absent" });
    expect(gone.diagnostics.map((d) => d.summary)).toEqual(["Node gone from Slurm: gpu-01"]);
    // WHEN applying the planned re-join: it fails at once (no create timeout), naming the node and the fix
    const failed = await apply(rig.srv, gpu01(), gone.newState);
    expect(failed.diagnostics.map((d) => d.summary)).toEqual(["Slurm node gpu-01 is gone"]);
    expect(failed.diagnostics[0].detail).toContain("Restart slurmd on gpu-01");
    expect(rig.slurm.requests.filter((q) => q.method === "POST")).toHaveLength(1); // the first join's RESUME only
    // THEN once slurmd restarted (registered again), the same plan re-joins it
    rig.slurm.hooks.registerNode("gpu-01", { dynamic: true });
    const a = await apply(rig.srv, gpu01(), gone.newState);
    expect(lines(a.diagnostics)).toBe("");
    expect(a.newState).toMatchObject({ joined: true, state: "IDLE+DYNAMIC_NORM" });
  });

  it("leaves a slurm.conf node removed for good DOWN with a reason that says so, and warns naming the fix", async () => {
    rig.slurm.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    const r = await destroy(rig.srv, s);
    // THEN the destroy succeeds; slurmctld refused the delete (a slurm.conf node), so the node stays, DOWN
    expect(r.newState).toBeNull();
    expect(r.diagnostics.map((d) => `${d.severity} ${d.summary}`)).toEqual([
      "warning Node stays listed in Slurm: gpu-01",
    ]);
    expect(r.diagnostics[0].detail).toContain("slurm.conf lists it (only dynamic nodes, started with slurmd -Z");
    expect(r.diagnostics[0].detail).toContain("Remove gpu-01 from slurm.conf");
    expect(rig.slurm.hooks.node("gpu-01")).toMatchObject({
      drain: true,
      down: true,
      reason: "rackform: removed from the rack; delete it from slurm.conf",
    });
    expect(rig.slurm.requests.filter((q) => q.method === "DELETE").map((q) => q.status)).toEqual([500]);
  });

  it("fails a destroy whose drain outlasts timeouts.delete, saying what still runs and that nothing was killed", async () => {
    rig.slurm.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01({ timeouts: timeouts({ delete: "200ms" }) }))).newState as ObjectValue;
    const job = rig.slurm.hooks.startJob("gpu-01");
    const r = await destroy(rig.srv, s);
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Node did not drain in time"]);
    const detail = r.diagnostics[0].detail;
    expect(detail).toContain("Slurm node gpu-01 did not drain within 0.2s");
    expect(detail).toContain("ALLOCATED+DRAIN");
    expect(detail).toContain("squeue -w gpu-01");
    expect(detail).toContain("Nothing was killed");
    expect(r.diagnostics[0].attribute).toEqual([{ attr: "timeouts" }, { attr: "delete" }]);
    // The job still runs, and the node takes no new one.
    expect(rig.slurm.hooks.node("gpu-01")!.jobs.has(job)).toBe(true);
    expect(rig.slurm.hooks.node("gpu-01")!.drain).toBe(true);
    expectNoSecrets(r);
  });

  it("only forgets the node with drain_on_destroy = false", async () => {
    rig.slurm.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01({ drain_on_destroy: false }))).newState as ObjectValue;
    const r = await destroy(rig.srv, s);
    expect(lines(r.diagnostics)).toBe("");
    expect(rig.slurm.hooks.node("gpu-01")).toMatchObject({ drain: false, down: false });
  });

  it("imports slurm:<node> with its features, then plans nothing for a matching config", async () => {
    rig.slurm.hooks.registerNode("gpu-01", { features: ["nvlink4", "h100"] });
    const imp = await rig.srv.importResourceState({ typeName: T, id: "slurm:gpu-01" });
    expect(lines(imp.diagnostics)).toBe("");
    const r = await read(rig.srv, imp.imported[0].state);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toMatchObject({
      id: "slurm:gpu-01",
      node: "gpu-01",
      joined: true,
      features: ["h100", "nvlink4"],
    });
    const p = await plan(rig.srv, gpu01(), r.newState);
    expect(p.plannedState).toEqual(r.newState);
  });
});

describe("rackform_cluster_member (slurm) at rack scale", () => {
  it("refreshes 60 nodes in waves of 10 with one node list", async () => {
    const big = await startRig({ nodeCacheMaxAgeMs: 2_000 });
    try {
      const names = Array.from({ length: 60 }, (_, i) => `gpu-${String(i).padStart(2, "0")}`);
      for (const n of names) big.slurm.hooks.registerNode(n);
      const states = names.map((n) => ({ ...gpu01({ node: n }), id: `slurm:${n}`, joined: true, state: "IDLE" }));
      for (let i = 0; i < states.length; i += 10) {
        const wave = await Promise.all(states.slice(i, i + 10).map((st) => read(big.srv, st)));
        for (const r of wave) expect(r.newState).toMatchObject({ joined: true });
      }
      const lists = big.slurm.requests.filter((q) => q.method === "GET" && q.path.endsWith("/nodes"));
      console.log(`60 reads in 6 waves: ${lists.length} GET /nodes`);
      expect(lists.length).toBeLessThanOrEqual(3);
    } finally {
      await big.close();
    }
  });
});
