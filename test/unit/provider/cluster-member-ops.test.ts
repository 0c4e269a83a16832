/**
 * rackform_cluster_member's handlers called directly with fake deps: a scheduler seam in memory, the real
 * DisruptionBudget (or a fake one for the wait's failures). No lab, no server.
 */

import { describe, expect, it } from "vitest";
import { HttpConnectError, RackformClientError } from "../../../src/clients/errors.js";
import { isUnknownValue, UNKNOWN } from "../../../src/framework/index.js";
import {
  BudgetDeadlockError,
  BudgetHaltError,
  DisruptionBudget,
} from "../../../src/provider/budget/disruption-budget.js";
import type { MemberBudget } from "../../../src/provider/resources/cluster-member-budget.js";
import {
  createMember,
  deleteMember,
  importMember,
  planMember,
  readMember,
  updateMember,
  validateMember,
} from "../../../src/provider/resources/cluster-member-ops.js";
import { DrainTimeoutError } from "../../../src/provider/resources/cluster-member-scheduler.js";
import type { ClusterMemberConfig, ClusterMemberState } from "../../../src/provider/resources/cluster-member-schema.js";
import type { RolloutHandovers } from "../../../src/provider/shared/rollout-handover.js";
import { fakeDeps, memberPlan, memberState } from "../../support/member-fakes.js";
import { diagnosticLines, typedRequest } from "../../support/typed-request.js";

/** A private slot over `initial`, as the framework hands it. */

const req = typedRequest;
const summaries = diagnosticLines;

const plan = memberPlan;

const joined: ClusterMemberState = memberState();

describe("rackform_cluster_member create and update with fake deps", () => {
  it("create waits for the registration, joins with the planned features and drops the successor key", async () => {
    const f = fakeDeps();
    f.behaviour.registerAfter = 2;
    const r = req({ successor: "slurm:n1", max_unavailable: null });
    const s = await createMember({ ...r, plan: plan() }, f.deps);
    expect(summaries(r.diagnostics)).toEqual([]);
    expect(s).toEqual(joined);
    expect(f.calls).toEqual(["lookup n1", "lookup n1", "lookup n1", "join n1"]);
    expect(r.private.value).toEqual({ max_unavailable: null });
  });

  it("create fails at once naming the node when it has not registered and wait_for_registration = false", async () => {
    const f = fakeDeps();
    const r = req();
    expect(await createMember({ ...r, plan: plan({ wait_for_registration: false }) }, f.deps)).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error Node never registered with Slurm @ node"]);
    expect(r.diagnostics.items[0].detail).toContain("has not registered (wait_for_registration = false)");
  });

  it("create names the missing provider block when the scheduler is not configured", async () => {
    const f = fakeDeps("kubernetes");
    const r = req();
    expect(await createMember({ ...r, plan: plan() }, f.deps)).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error Slurm is not configured @ scheduler"]);
  });

  it("create gives the node's budget slot back when it rejoins, so the next waiting drain goes", async () => {
    const budget = new DisruptionBudget({ tickMs: 5 });
    const f = fakeDeps("slurm", budget);
    const limited = { ...joined, max_unavailable: 1 };
    // Both drains are the destroy halves of a reimage: the nodes come back.
    await deleteMember({ ...req({ successor: "slurm:n1" }), state: limited }, f.deps);
    expect(budget.inUse("slurm:gpu")).toEqual(["n1"]);
    // A second node of the same partition waits for the slot.
    let second = false;
    const n2 = { ...limited, id: "slurm:n2", node: "n2", gate_id: "maas:n2" };
    const d2 = deleteMember({ ...req({ successor: "slurm:n2" }), state: n2 }, f.deps);
    void d2.then(() => {
      second = true;
    });
    await new Promise((res) => setTimeout(res, 30));
    expect(second).toBe(false);
    f.nodes.set("n1", { registered: true, state: "IDLE+DRAIN", joined: false, partitions: ["gpu"] });
    await createMember({ ...req(), plan: plan({ max_unavailable: 1 }) }, f.deps);
    await d2;
    expect(budget.inUse("slurm:gpu")).toEqual(["n2"]);
    expect(f.calls.filter((c) => c.startsWith("drain"))).toEqual(["drain n1", "drain n2"]);
  });

  it("create without a slot of this run drops the reservation a killed run left, and settles before answering", async () => {
    const seen: string[] = [];
    const budget: MemberBudget = {
      ...fakeBudget(async () => false),
      release: (names, why) => void seen.push(`release ${names.join(",")} ${why}`),
      dropStale: async (node) => void seen.push(`dropStale ${node}`),
      settle: async () => void seen.push("settle"),
    };
    const f = fakeDeps("slurm", budget);
    f.nodes.set("n1", { registered: true, state: "DOWN", joined: false, partitions: ["gpu"] });
    await createMember({ ...req(), plan: plan({ max_unavailable: 1 }) }, f.deps);
    expect(seen).toEqual(["release n1,maas:n1 rejoined", "dropStale n1", "settle"]);
    // Without a limit the member never reserved: nothing to drop.
    seen.length = 0;
    await createMember({ ...req(), plan: plan() }, f.deps);
    expect(seen).toEqual(["release n1,maas:n1 rejoined", "settle"]);
  });

  it("update of a Kubernetes node deleted by hand creates its Node again, then uncordons it with its labels", async () => {
    const f = fakeDeps("kubernetes");
    const prior: ClusterMemberState = {
      ...joined,
      id: "kubernetes:n1",
      scheduler: "kubernetes",
      features: null,
      partitions: null,
      labels: { zone: "a" },
      taints: [],
      joined: false,
      state: "absent",
    };
    const p = plan({ scheduler: "kubernetes", features: null, labels: { zone: "a" }, taints: [] });
    const r = req({ successor: "kubernetes:n1" });
    const s = await updateMember({ ...r, plan: p, state: prior }, f.deps);
    expect(summaries(r.diagnostics)).toEqual([]);
    expect(f.calls).toEqual(["lookup n1", "recreate n1", "lookup n1", "join n1"]);
    expect(s).toMatchObject({ joined: true, state: "Ready", labels: { zone: "a" }, taints: [], partitions: null });
    expect(r.private.value).toEqual({});
  });

  it("update of a Slurm node deleted by hand fails at once naming the slurmd restart", async () => {
    const f = fakeDeps();
    const r = req();
    const s = await updateMember({ ...r, plan: plan(), state: { ...joined, joined: false, state: "absent" } }, f.deps);
    expect(s).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error Slurm node n1 is gone @ node"]);
    expect(r.diagnostics.items[0].detail).toContain("Restart slurmd.");
  });
});

describe("rackform_cluster_member read with fake deps", () => {
  it("reads a joined node as it is", async () => {
    const f = fakeDeps();
    f.nodes.set("n1", { registered: true, state: "ALLOCATED", joined: true, features: ["h100"], partitions: ["gpu"] });
    const r = req();
    expect(await readMember({ ...r, state: joined }, f.deps)).toEqual({ ...joined, state: "ALLOCATED" });
    expect(r.diagnostics.items).toEqual([]);
  });

  it("reads a node drained by hand as not joined, with a warning naming it", async () => {
    const f = fakeDeps();
    f.nodes.set("n1", {
      registered: true,
      state: "IDLE+DRAIN",
      reason: "bad gpu",
      joined: false,
      features: ["h100"],
      partitions: ["gpu"],
    });
    const r = req();
    const s = await readMember({ ...r, state: joined }, f.deps);
    expect(s).toMatchObject({ joined: false, state: "IDLE+DRAIN" });
    expect(summaries(r.diagnostics)).toEqual(["warning Node no longer accepts work in Slurm: n1 @ joined"]);
    expect(r.diagnostics.items[0].detail).toContain("(reason: bad gpu)");
  });

  it("keeps a node deleted by hand as absent (never gone), and errors on an import of an unknown node", async () => {
    const f = fakeDeps();
    const r = req();
    expect(await readMember({ ...r, state: joined }, f.deps)).toEqual({ ...joined, joined: false, state: "absent" });
    expect(summaries(r.diagnostics)).toEqual(["warning Node gone from Slurm: n1 @ joined"]);
    const imported = { ...joined, joined: null, state: null, partitions: null };
    const r2 = req();
    expect(await readMember({ ...r2, state: imported }, f.deps)).toBe(imported);
    expect(summaries(r2.diagnostics)).toEqual(["error No such Slurm node @ node"]);
  });

  it("keeps the recorded state: a warning when the scheduler does not answer, an error when it refuses", async () => {
    const f = fakeDeps();
    f.behaviour.readFails = new HttpConnectError("connect ECONNREFUSED", {});
    const r = req();
    expect(await readMember({ ...r, state: joined }, f.deps)).toBe(joined);
    expect(summaries(r.diagnostics)).toEqual(["warning Could not read; the recorded state stands: n1 @ "]);
    f.behaviour.readFails = new RackformClientError("RACKFORM_ERR_SLURM_AUTH", "401 from slurmrestd");
    const r2 = req();
    expect(await readMember({ ...r2, state: joined }, f.deps)).toBe(joined);
    expect(r2.diagnostics.items.map((d) => d.severity)).toEqual(["error"]);
  });
});

describe("rackform_cluster_member delete with fake deps", () => {
  it("the destroy half of a replacement only drains; a member destroyed for good leaves its scheduler", async () => {
    const f = fakeDeps();
    const r = req({ successor: "slurm:n1" });
    await deleteMember({ ...r, state: joined }, f.deps);
    expect(summaries(r.diagnostics)).toEqual([]);
    expect(f.calls).toEqual(["drain n1"]);
    expect(f.teardowns()).toBe(1);
    const f2 = fakeDeps();
    const r2 = req();
    await deleteMember({ ...r2, state: joined }, f2.deps);
    expect(f2.calls).toEqual(["drain n1", "remove n1"]);
    // A replacement onto another node removes this one for good too.
    const f3 = fakeDeps();
    await deleteMember({ ...req({ successor: "slurm:n9" }), state: joined }, f3.deps);
    expect(f3.calls).toEqual(["drain n1", "remove n1"]);
  });

  it("drain_on_destroy = false forgets the node without a call", async () => {
    const f = fakeDeps();
    await deleteMember({ ...req(), state: { ...joined, drain_on_destroy: false } }, f.deps);
    expect(f.calls).toEqual([]);
  });

  it("a drain out of time fails naming what runs, and gives the slot back", async () => {
    const budget = new DisruptionBudget({ tickMs: 5 });
    const f = fakeDeps("slurm", budget);
    f.behaviour.drainFails = new DrainTimeoutError("n1", "it is still ALLOCATED+DRAIN: jobs are running on it", null);
    const r = req();
    await deleteMember({ ...r, state: { ...joined, max_unavailable: 1 } }, f.deps);
    expect(summaries(r.diagnostics)).toEqual(["error Node did not drain in time @ timeouts.delete"]);
    expect(r.diagnostics.items[0].detail).toContain("jobs are running on it");
    expect(r.diagnostics.items[0].detail).toContain("stays DRAIN-flagged");
    expect(budget.inUse("slurm:gpu")).toEqual([]);
  });

  it("obeys the planned max_unavailable carried in private data over the state's", async () => {
    const asked: number[] = [];
    const budget = fakeBudget(async (req) => {
      asked.push(req.max);
      return false;
    });
    const f = fakeDeps("slurm", budget);
    await deleteMember({ ...req({ max_unavailable: 2, successor: "slurm:n1" }), state: joined }, f.deps);
    expect(asked).toEqual([2]);
    expect(f.calls).toEqual(["drain n1"]);
  });

  it("a halted or deadlocked budget fails the drain before touching the node, with the fix", async () => {
    for (const [err, summary] of [
      [new BudgetHaltError("n1", 1, [{ node: "n2", why: "DOWN (reason: bad psu)", live: false }]), "Rollout halted"],
      [new BudgetDeadlockError("n1", ["n3"]), "Drain gave up waiting for the disruption budget"],
    ] as const) {
      const f = fakeDeps(
        "slurm",
        fakeBudget(() => Promise.reject(err)),
      );
      const r = req();
      await deleteMember({ ...r, state: { ...joined, max_unavailable: 1 } }, f.deps);
      expect(summaries(r.diagnostics)[0]).toMatch(new RegExp(`^error ${summary}.* @ max_unavailable$`));
      expect(r.diagnostics.items[0].detail).toContain("The node stays joined; nothing was changed.");
      expect(f.calls).toEqual([]);
    }
  });
});

/** A budget whose acquire is `acquire`; the rest does nothing. */
function fakeBudget(acquire: MemberBudget["acquire"]): MemberBudget {
  return {
    acquire,
    hold: () => undefined,
    release: () => undefined,
    releaseFailed: async () => undefined,
    dropStale: async () => undefined,
    settle: async () => undefined,
    inUse: () => [],
    outOfService: () => [],
  };
}

const configOf = (o: Partial<ClusterMemberConfig> = {}): ClusterMemberConfig => ({ ...plan(), ...o });

describe("rackform_cluster_member plan rules, import and validation", () => {
  it("carries the planned limit and the successor in private data and names the id", () => {
    const change = planMember({
      ...req(),
      config: configOf({ max_unavailable: 2 }),
      plan: configOf({ max_unavailable: 2 }),
      state: null,
      private: { other: "kept" },
    });
    expect(change?.private).toEqual({ other: "kept", max_unavailable: 2, successor: "slurm:n1" });
    expect(change?.plan?.id).toBe("slurm:n1");
  });

  it("an unknown limit or node leaves the limit out and the successor null", () => {
    const change = planMember({
      ...req(),
      config: null,
      plan: configOf({ max_unavailable: UNKNOWN, node: UNKNOWN }),
      state: null,
      private: {},
    });
    expect(change).toEqual({ private: { successor: null } });
  });

  it("plans the re-join of a node read back as not joined; a destroy plan changes nothing", () => {
    const change = planMember({
      ...req(),
      config: null,
      plan: configOf({ id: "slurm:n1", joined: false, state: "IDLE+DRAIN" }),
      state: { ...joined, joined: false, state: "IDLE+DRAIN" },
      private: {},
    });
    expect(change?.plan?.joined).toBe(true);
    expect(isUnknownValue(change?.plan?.state ?? null)).toBe(true);
    expect(planMember({ ...req(), config: null, plan: null, state: joined, private: {} })).toBeUndefined();
  });

  it("imports scheduler:node, and refuses anything else", () => {
    const r = req();
    expect(importMember({ ...r, id: " kubernetes:r01-n01 " })).toEqual({
      id: "kubernetes:r01-n01",
      scheduler: "kubernetes",
      node: "r01-n01",
      drain_on_destroy: true,
      wait_for_registration: true,
    });
    expect(importMember({ ...r, id: "pbs:n1" })).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error Invalid import id for rackform_cluster_member @ "]);
  });

  it("validates the decoded config per scheduler, skipping unknown values", () => {
    const r = req();
    validateMember({ ...r, config: configOf({ labels: { zone: "a" }, features: ["bad feature"], node: UNKNOWN }) });
    expect(summaries(r.diagnostics)).toEqual([
      "error labels is Kubernetes-only @ labels",
      "error Invalid Slurm feature @ features",
    ]);
  });
});

describe("rackform_cluster_member rolling reimage", () => {
  const OLD = "ubuntu-gpu@1 sha256:aa";
  const NEW = "ubuntu-gpu@2 sha256:bb";
  const member = (n: string): ClusterMemberState => ({
    ...joined,
    id: `slurm:${n}`,
    node: n,
    gate_id: `maas:${n}`,
    max_unavailable: 1,
    image_ref: OLD,
  });
  const rolled = (n: string) => ({ ...plan({ node: n, gate_id: `maas:${n}`, max_unavailable: 1 }), image_ref: NEW });

  /** Offers of a reimage and a gate for `n` that log as they run; the gate fails when `failGate`. */
  function offer(f: ReturnType<typeof fakeDeps>, rollouts: RolloutHandovers, n: string, failGate = false) {
    rollouts.offerReimage(`maas:${n}`, {
      what: `reimage ${n}`,
      failure: "failed to deploy",
      run: async () => {
        f.calls.push(`reimage ${n}`);
        // The reimaged node registers anew, drained until it rejoins.
        f.nodes.set(n, { registered: true, state: "IDLE+DRAIN", joined: false, partitions: ["gpu"] });
        await new Promise((res) => setTimeout(res, 10));
        return "done";
      },
    });
    rollouts.offerGate(`maas:${n}`, {
      what: `gate ${n}`,
      failure: "failed its acceptance gate",
      run: async (step) => {
        f.calls.push(`gate ${n}`);
        if (!failGate) return "done";
        step.diagnostics.error("Acceptance gate failed", `${n} failed`);
        return "failed";
      },
    });
  }

  it("plans an in-place update for a new image_ref; a first one records only", () => {
    const p = rolled("n1");
    const out = planMember({ ...req(), config: p, plan: p, state: member("n1"), private: {} });
    expect([out?.plan?.joined, isUnknownValue(out?.plan?.state), out?.requiresReplace]).toEqual([
      true,
      true,
      undefined,
    ]);
    const first = planMember({
      ...req(),
      config: p,
      plan: p,
      state: { ...member("n1"), image_ref: null },
      private: {},
    });
    expect(first?.plan?.joined).not.toBe(true);
  });

  it("rolls each node whole — drain, reimage, gate, rejoin — one at a time within max_unavailable", async () => {
    const budget = new DisruptionBudget({ tickMs: 5 });
    const f = fakeDeps("slurm", budget);
    const rollouts = f.deps.rollouts as RolloutHandovers;
    for (const n of ["n1", "n2"]) {
      f.nodes.set(n, { registered: true, state: "IDLE", joined: true, partitions: ["gpu"] });
      offer(f, rollouts, n);
    }
    const [r1, r2] = [req(), req()];
    const [s1, s2] = await Promise.all([
      updateMember({ ...r1, plan: rolled("n1"), state: member("n1") }, f.deps),
      updateMember({ ...r2, plan: rolled("n2"), state: member("n2") }, f.deps),
    ]);
    expect([r1.diagnostics.items, r2.diagnostics.items]).toEqual([[], []]);
    expect([s1?.image_ref, s1?.joined, s2?.image_ref, s2?.joined]).toEqual([NEW, true, NEW, true]);
    // One node at a time: the second drain starts only after the first node rejoined.
    const steps = f.calls.filter((c) => /^(drain|reimage|gate|join) /.test(c));
    const first = steps[0].split(" ")[1];
    const second = first === "n1" ? "n2" : "n1";
    expect(steps).toEqual([first, second].flatMap((n) => [`drain ${n}`, `reimage ${n}`, `gate ${n}`, `join ${n}`]));
    expect(budget.inUse("slurm:gpu")).toEqual([]);
  });

  it("a new firmware_ref rolls the node through its firmware step, told whether a reimage already booted it", async () => {
    const budget = new DisruptionBudget({ tickMs: 5 });
    const f = fakeDeps("slurm", budget);
    const rollouts = f.deps.rollouts as RolloutHandovers;
    const seen: boolean[] = [];
    const firmware = (n: string) => ({
      what: `firmware ${n}`,
      failure: "failed its firmware update",
      run: async (step: { rebooted: boolean; machineId: string }) => {
        f.calls.push(`firmware ${n} ${step.machineId}`);
        seen.push(step.rebooted);
        return "done" as const;
      },
    });
    f.nodes.set("n1", { registered: true, state: "IDLE", joined: true, partitions: ["gpu"] });
    f.nodes.set("n2", { registered: true, state: "IDLE", joined: true, partitions: ["gpu"] });
    // n1: firmware only (its image unchanged); n2: a reimage and firmware in the same apply.
    rollouts.offerFirmware("fw-n1/2", firmware("n1"));
    offer(f, rollouts, "n2");
    rollouts.offerFirmware("fw-n2/2", firmware("n2"));
    const p1 = { ...rolled("n1"), image_ref: OLD, firmware_ref: "fw-n1/2" };
    const planned = planMember({
      ...req(),
      config: p1,
      plan: p1,
      state: { ...member("n1"), firmware_ref: "fw-n1/1" },
      private: {},
    });
    expect(planned?.plan?.joined).toBe(true);
    const r1 = req();
    const s1 = await updateMember({ ...r1, plan: p1, state: { ...member("n1"), firmware_ref: "fw-n1/1" } }, f.deps);
    const r2 = req();
    const p2 = { ...rolled("n2"), firmware_ref: "fw-n2/2" };
    const s2 = await updateMember({ ...r2, plan: p2, state: { ...member("n2"), firmware_ref: "fw-n2/1" } }, f.deps);
    expect([r1.diagnostics.items, r2.diagnostics.items]).toEqual([[], []]);
    expect([s1?.firmware_ref, s2?.firmware_ref, s2?.image_ref]).toEqual(["fw-n1/2", "fw-n2/2", NEW]);
    const steps = f.calls.filter((c) => /^(drain|reimage|firmware|gate|join) /.test(c));
    expect(steps).toEqual([
      "drain n1",
      "firmware n1 maas:n1",
      "join n1",
      "drain n2",
      "reimage n2",
      "firmware n2 maas:n2",
      "gate n2",
      "join n2",
    ]);
    expect(seen).toEqual([false, true]);
  });

  it("a node failing its gate keeps the old image_ref, stays out, and frees its slot for the next", async () => {
    const budget = new DisruptionBudget({ tickMs: 5 });
    const f = fakeDeps("slurm", budget);
    const rollouts = f.deps.rollouts as RolloutHandovers;
    f.nodes.set("n1", { registered: true, state: "IDLE", joined: true, partitions: ["gpu"] });
    offer(f, rollouts, "n1", true);
    const r = req();
    const s = await updateMember({ ...r, plan: rolled("n1"), state: member("n1") }, f.deps);
    expect(s).toEqual(member("n1"));
    expect(diagnosticLines(r.diagnostics)).toEqual(["error Acceptance gate failed @ "]);
    expect(f.calls.filter((c) => c.startsWith("join"))).toEqual([]);
    expect(budget.inUse("slurm:gpu")).toEqual([]);
  });

  it("with nothing offered (the image already deployed and judged) the update only records the image", async () => {
    const f = fakeDeps("slurm");
    f.nodes.set("n1", { registered: true, state: "IDLE", joined: true, partitions: ["gpu"] });
    const s = await updateMember({ ...req(), plan: rolled("n1"), state: member("n1") }, f.deps);
    expect([s?.image_ref, s?.joined]).toEqual([NEW, true]);
    expect(f.calls.filter((c) => c.startsWith("drain"))).toEqual([]);
  });
});
