/**
 * The cluster members' disruption budget: at most max_unavailable drains of a key at once, slots handed on first come
 * first served, aborts (timeout, StopProvider) leave the queue, and the deadlock guard fails waiting drains when
 * nothing but them is in flight — driven by vitest's fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger, formatPath, type LogFields, type Value } from "../../../src/framework/index.js";
import type { SharedBudget } from "../../../src/provider/budget/budget-shared.js";
import {
  BudgetDeadlockError,
  BudgetHaltError,
  DisruptionBudget,
} from "../../../src/provider/budget/disruption-budget.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { budgetKey, maxUnavailableOf } from "../../../src/provider/resources/cluster-member-budget.js";
import { clusterMemberSchema } from "../../../src/provider/resources/cluster-member-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";

const lines: string[] = [];
const log = createLogger({ write: (l) => lines.push((JSON.parse(l) as LogFields)["@message"] as string) });

/** A drain's request for a slot of "slurm:gpu" with at most 2 held. */
function ask(
  b: DisruptionBudget,
  node: string,
  opts: { inFlight?: () => number; signal?: AbortSignal; shared?: SharedBudget; max?: number } = {},
) {
  const p = b.acquire({
    key: "slurm:gpu",
    node,
    aliases: [`maas:${node}`],
    max: opts.max ?? 2,
    signal: opts.signal ?? new AbortController().signal,
    inFlight: opts.inFlight,
    ...(opts.shared ? { shared: opts.shared } : {}),
    log,
  });
  const seen = { done: false, error: undefined as unknown };
  p.then(
    () => {
      seen.done = true;
    },
    (e) => {
      seen.error = e;
    },
  );
  return seen;
}

/** A scheduler's nodes as every provider process sees them: out of service or not, and their reservations. */
class FakeScheduler {
  readonly nodes = new Map<string, { out: boolean; reservation?: { owner: string; until: number } }>();
  /** Most nodes drained at once (out or reserved-and-out), sampled at every write. */
  writes = 0;
  constructor(names: readonly string[]) {
    for (const n of names) this.nodes.set(n, { out: false });
  }
  set(name: string, v: { out: boolean }): void {
    this.nodes.set(name, { ...this.nodes.get(name), ...v });
  }
  get shared(): SharedBudget {
    return {
      survey: async () =>
        [...this.nodes].map(([name, n]) => ({
          name,
          out: n.out,
          why: n.out ? "IDLE+DRAIN (reason: bad DIMM)" : "IDLE",
          ...(n.reservation ? { reservation: n.reservation } : {}),
        })),
      reserve: async (node, r) => {
        this.writes++;
        this.nodes.set(node, { out: false, ...this.nodes.get(node), reservation: r });
      },
      unreserve: async (node) => {
        const n = this.nodes.get(node);
        if (n) this.nodes.set(node, { out: n.out });
      },
    };
  }
}

beforeEach(() => {
  lines.length = 0;
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("DisruptionBudget", () => {
  it("lets max_unavailable drains of a key through and queues the next, logging who holds the slots", async () => {
    const b = new DisruptionBudget();
    const [n01, n02, n03] = [ask(b, "n01"), ask(b, "n02"), ask(b, "n03")];
    await vi.advanceTimersByTimeAsync(0);
    expect([n01.done, n02.done, n03.done]).toEqual([true, true, false]);
    expect(b.inUse("slurm:gpu")).toEqual(["n01", "n02"]);
    expect(lines).toContain("drain of n03 waits for the disruption budget (2 of 2 out of service: n01, n02)");
  });

  it("counts nodes already out in the scheduler against the limit, and lets a drain go once they are back", async () => {
    const b = new DisruptionBudget();
    // GIVEN n09 drained by hand in the same partition (the scheduler reports it out; this run holds no slot for it)
    const sched = new FakeScheduler(["n01", "n02", "n09"]);
    sched.set("n09", { out: true });
    const shared = sched.shared;
    const n01 = ask(b, "n01", { shared });
    const n02 = ask(b, "n02", { shared });
    await vi.advanceTimersByTimeAsync(0);
    // THEN one drain goes (1 + n09 = 2 of 2), the next waits, and the log says who is out
    expect([n01.done, n02.done]).toEqual([true, false]);
    expect(lines).toContain("drain of n02 waits for the disruption budget (2 of 2 out of service: n01, n09)");
    // WHEN n09 is back in service THEN the next look lets n02 drain (before the halt: n09 was out only 300 ms)
    sched.set("n09", { out: false });
    await vi.advanceTimersByTimeAsync(300);
    expect(n02.done).toBe(true);
    expect(b.inUse("slurm:gpu")).toEqual(["n01", "n02"]);
  });

  it("does not count a node of this run twice when the scheduler also reports it out", async () => {
    const b = new DisruptionBudget();
    const sched = new FakeScheduler(["n01", "maas:n02"]);
    sched.set("n01", { out: true });
    sched.set("maas:n02", { out: true });
    const shared = sched.shared;
    const [n01, n02] = [ask(b, "n01", { shared }), ask(b, "n02", { shared })];
    await vi.advanceTimersByTimeAsync(0);
    expect([n01.done, n02.done]).toEqual([true, true]);
  });

  it("hands a slot to the first waiting drain when a node rejoins, by node name or by machine id", async () => {
    const b = new DisruptionBudget();
    ask(b, "n01");
    ask(b, "n02");
    const [n03, n04] = [ask(b, "n03"), ask(b, "n04")];
    expect(b.release(["n01"], "rejoined", log)).toBe("n01");
    // (a drain that had to wait resolves true: its wait counts against timeouts.delete)
    await vi.advanceTimersByTimeAsync(0);
    expect([n03.done, n04.done]).toEqual([true, false]);
    // the deployment and acceptance know the node by its machine id only
    expect(b.release(["maas:n02"], "failed to deploy", log)).toBe("n02");
    await vi.advanceTimersByTimeAsync(0);
    expect(n04.done).toBe(true);
    expect(b.inUse("slurm:gpu")).toEqual(["n03", "n04"]);
    expect(lines).toContain("n02 failed to deploy: its disruption budget slot is free (1 in use: n03)");
  });

  it("ignores releases of nodes that hold no slot, and keeps keys apart", async () => {
    const b = new DisruptionBudget();
    ask(b, "n01");
    ask(b, "n02");
    expect(b.release(["n09", null, undefined, ""], "rejoined", log)).toBeUndefined();
    const other = b.acquire({ key: "slurm:debug", node: "d01", max: 1, signal: new AbortController().signal, log });
    await expect(other).resolves.toBe(false);
    expect(b.inUse("slurm:gpu")).toEqual(["n01", "n02"]);
  });

  it("a waiting drain that times out or is cancelled leaves the queue without taking a slot", async () => {
    const b = new DisruptionBudget();
    ask(b, "n01");
    ask(b, "n02");
    const ac = new AbortController();
    const n03 = ask(b, "n03", { signal: ac.signal });
    const n04 = ask(b, "n04");
    ac.abort(new Error("the run was cancelled (StopProvider)"));
    await vi.advanceTimersByTimeAsync(0);
    expect((n03.error as Error).message).toBe("the run was cancelled (StopProvider)");
    b.release(["n01"], "rejoined", log);
    await vi.advanceTimersByTimeAsync(0);
    expect(n04.done).toBe(true);
    expect(b.inUse("slurm:gpu")).toEqual(["n02", "n04"]);
  });

  it("fails every waiting drain when only waiting drains are in flight for quietMs while slots are held", async () => {
    // GIVEN -parallelism 4: two drains hold slots and are between steps, two wait and fill the engine
    const b = new DisruptionBudget({ quietMs: 5_000, tickMs: 250 });
    let inFlight = 4;
    ask(b, "n01");
    ask(b, "n02");
    const n03 = ask(b, "n03", { inFlight: () => inFlight });
    const n04 = ask(b, "n04", { inFlight: () => inFlight });
    // WHILE the holders' next steps are in flight, nothing happens however long the wait
    await vi.advanceTimersByTimeAsync(60_000);
    expect([n03.error, n04.error]).toEqual([undefined, undefined]);
    // WHEN only the two waiting drains are left in flight, briefly: a gap between two steps is no deadlock
    inFlight = 2;
    await vi.advanceTimersByTimeAsync(3_000);
    inFlight = 3;
    await vi.advanceTimersByTimeAsync(500);
    inFlight = 2;
    await vi.advanceTimersByTimeAsync(3_000);
    expect([n03.error, n04.error]).toEqual([undefined, undefined]);
    // THEN after quietMs on end both fail with the holders named, and hold no slot
    await vi.advanceTimersByTimeAsync(2_500);
    expect(n03.error).toBeInstanceOf(BudgetDeadlockError);
    expect(n04.error).toBeInstanceOf(BudgetDeadlockError);
    expect((n03.error as BudgetDeadlockError).holders).toEqual(["n01", "n02"]);
    expect(b.inUse("slurm:gpu")).toEqual(["n01", "n02"]);
  });

  it("never fires the guard without a server's in-flight count", async () => {
    const b = new DisruptionBudget({ quietMs: 100, tickMs: 10 });
    ask(b, "n01");
    ask(b, "n02");
    const n03 = ask(b, "n03");
    await vi.advanceTimersByTimeAsync(10_000);
    expect(n03.error).toBeUndefined();
  });
});

describe("one budget across processes (reservations in the scheduler)", () => {
  /** A drain of `node` in the budget `b` (one provider process) against the shared scheduler, max 1. */
  const drain = (b: DisruptionBudget, sched: FakeScheduler, node: string, signal?: AbortSignal) =>
    ask(b, node, { shared: sched.shared, max: 1, ...(signal ? { signal } : {}) });
  const held = (...bs: DisruptionBudget[]) => bs.flatMap((b) => b.inUse("slurm:gpu"));

  it("two processes draining one partition at once never hold more than max_unavailable between them", async () => {
    // GIVEN two provider processes (two stacks of one partition applied at once), each with two nodes to recycle
    const sched = new FakeScheduler(["a1", "a2", "b1", "b2"]);
    const [pa, pb] = [new DisruptionBudget({ owner: "pa" }), new DisruptionBudget({ owner: "pb" })];
    const asks = [drain(pa, sched, "a1"), drain(pb, sched, "b1"), drain(pa, sched, "a2"), drain(pb, sched, "b2")];
    // WHEN they contend (their reservations and reads interleave) and each releases its node some time after
    let most = 0;
    for (let t = 0; t < 400 && asks.some((a) => !a.done); t++) {
      await vi.advanceTimersByTimeAsync(50);
      most = Math.max(most, held(pa, pb).length);
      for (const [b, n] of [
        ...pa.inUse("slurm:gpu").map((n) => [pa, n] as const),
        ...pb.inUse("slurm:gpu").map((n) => [pb, n] as const),
      ]) {
        if (t % 7 === 0) b.release([n], "rejoined", log);
      }
    }
    // THEN every drain got its turn, one node at a time across both processes
    expect(asks.map((a) => a.done)).toEqual([true, true, true, true]);
    expect(most).toBe(1);
  });

  it("a node rejoined by a re-apply that did not drain it (a killed run did) loses that run's reservation at once", async () => {
    // GIVEN n01 drained and reserved by a run killed since (its lease runs another minute), n02 to recycle next
    const sched = new FakeScheduler(["n01", "n02"]);
    await sched.shared.reserve("n01", { owner: "dead", until: Date.now() + 60_000 });
    const b = new DisruptionBudget({ owner: "me" });
    const waiting = drain(b, sched, "n02");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(waiting.done, "the dead run's live reservation fills the budget").toBe(false);
    // WHEN the re-apply rejoins n01 (member create, no slot of its own) THEN the stale reservation goes at once
    await b.dropStale("n01", sched.shared, log);
    expect(sched.nodes.get("n01")?.reservation).toBeUndefined();
    await vi.advanceTimersByTimeAsync(2_000);
    expect(waiting.done).toBe(true);
    // AND a node this run holds keeps its own reservation (release() takes it back when the node rejoins)
    await b.dropStale("n02", sched.shared, log);
    expect(sched.nodes.get("n02")?.reservation?.owner).toBe("me");
  });

  it("a reservation of a killed run blocks only until its lease ends; a re-apply adopts one on its own node", async () => {
    const sched = new FakeScheduler(["n01", "n02"]);
    // GIVEN n02 reserved by a run that was killed (its lease ends in 10 s)
    await sched.shared.reserve("n02", { owner: "dead", until: Date.now() + 10_000 });
    const b = new DisruptionBudget({ owner: "me", leaseMs: 60_000 });
    // WHEN this run drains n02 THEN it adopts the reservation at once: it is its own node
    const n02 = drain(b, sched, "n02");
    await vi.advanceTimersByTimeAsync(0);
    expect(n02.done).toBe(true);
    b.release(["n02"], "rejoined", log);
    await vi.advanceTimersByTimeAsync(0);
    // GIVEN the dead run's reservation on n02 again; WHEN this run drains n01 THEN it waits until the lease ends
    await sched.shared.reserve("n02", { owner: "dead", until: Date.now() + 10_000 });
    const n01 = drain(b, sched, "n01");
    await vi.advanceTimersByTimeAsync(9_000);
    expect(n01.done).toBe(false);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(n01.done).toBe(true);
    expect(sched.nodes.get("n01")?.reservation?.owner).toBe("me");
  });

  it("a node a killed run left drained goes first, whatever its place in the queue (behind others it waits for itself)", async () => {
    const sched = new FakeScheduler(["n01", "n02"]);
    // GIVEN n02 drained and reserved by a run killed since
    sched.set("n02", { out: true });
    await sched.shared.reserve("n02", { owner: "dead", until: Date.now() + 60_000 });
    const b = new DisruptionBudget({ owner: "me" });
    // WHEN the re-apply's drains ask in the order n01, n02
    const n01 = drain(b, sched, "n01");
    const n02 = drain(b, sched, "n02");
    await vi.advanceTimersByTimeAsync(1_000);
    // THEN n02 is taken over at once and n01 waits for it (one out at a time)
    expect([n01.done, n02.done]).toEqual([false, true]);
    expect(sched.nodes.get("n02")?.reservation?.owner).toBe("me");
    b.release(["n02"], "rejoined", log);
    sched.set("n02", { out: false });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(n01.done).toBe(true);
  });

  it("a provider that closes (its engine done or killed) leaves no reservation: held ones go, waiting drains fail", async () => {
    // GIVEN this run holding n01 (drained, reserved) and n02 waiting behind it
    const sched = new FakeScheduler(["n01", "n02"]);
    const b = new DisruptionBudget({ owner: "me" });
    const n01 = drain(b, sched, "n01");
    await vi.advanceTimersByTimeAsync(0);
    sched.set("n01", { out: true });
    const n02 = drain(b, sched, "n02");
    await vi.advanceTimersByTimeAsync(500);
    expect([n01.done, n02.done, sched.nodes.get("n01")?.reservation?.owner]).toEqual([true, false, "me"]);
    // WHEN the provider closes
    await b.close(log);
    await vi.advanceTimersByTimeAsync(60_000);
    // THEN no reservation of it is left (n01 stays out, counted as such by the next run), and n02 did not drain
    expect([...sched.nodes].filter(([, n]) => n.reservation)).toEqual([]);
    expect([sched.nodes.get("n01")?.out, n02.done, String(n02.error)]).toEqual([
      true,
      false,
      "Error: the provider is closing",
    ]);
  });

  it("removes a reservation whose lease ended when it reads it, whoever wrote it", async () => {
    // GIVEN n02 reserved by a run killed long ago (its lease ended), back in service
    const sched = new FakeScheduler(["n01", "n02"]);
    await sched.shared.reserve("n02", { owner: "dead", until: Date.now() - 1_000 });
    // WHEN another run drains n01 THEN it goes at once (a lapsed reservation does not count) and removes n02's
    const b = new DisruptionBudget({ owner: "me" });
    const n01 = drain(b, sched, "n01");
    await vi.advanceTimersByTimeAsync(100);
    expect(n01.done).toBe(true);
    expect(sched.nodes.get("n02")?.reservation).toBeUndefined();
    expect(sched.nodes.get("n01")?.reservation?.owner).toBe("me");
  });

  it("halts at once, naming the evidence, when the budget is used up by nodes nothing brings back", async () => {
    const sched = new FakeScheduler(["n01", "n02", "n03"]);
    const b = new DisruptionBudget({ owner: "me", haltMs: 1_000 });
    // GIVEN n01 drained and recycled by this run, then failing its gate: it stays out (quarantined)
    const n01 = drain(b, sched, "n01");
    await vi.advanceTimersByTimeAsync(0);
    expect(n01.done).toBe(true);
    sched.set("n01", { out: true });
    const [n02, n03] = [drain(b, sched, "n02"), drain(b, sched, "n03")];
    await vi.advanceTimersByTimeAsync(500);
    expect([n02.error, n03.error]).toEqual([undefined, undefined]);
    b.release(["n01"], "failed its acceptance gate", log, "measured all_reduce busbw 350 GB/s; threshold ≥ 370 GB/s");
    // WHEN nothing brings it back THEN the waiting drains fail within haltMs, naming n01 and its evidence
    await vi.advanceTimersByTimeAsync(1_500);
    expect(n02.error).toBeInstanceOf(BudgetHaltError);
    expect(n03.error).toBeInstanceOf(BudgetHaltError);
    expect((n02.error as Error).message).toContain(
      "n01 (failed its acceptance gate: measured all_reduce busbw 350 GB/s; threshold ≥ 370 GB/s; IDLE+DRAIN (reason: bad DIMM))",
    );
    // AND neither took a slot or left a reservation behind
    expect(b.inUse("slurm:gpu")).toEqual([]);
    expect([...sched.nodes.values()].filter((n) => n.reservation)).toEqual([]);
  });

  it("does not halt while another operation of this run is in flight (a re-apply re-running a quarantined node's gate)", async () => {
    const sched = new FakeScheduler(["n01", "n02"]);
    sched.set("n01", { out: true });
    const b = new DisruptionBudget({ owner: "me", haltMs: 1_000 });
    let inFlight = 2; // the waiting drain, and n01's acceptance gate running again
    const n02 = b.acquire({
      key: "slurm:gpu",
      node: "n02",
      max: 1,
      signal: new AbortController().signal,
      inFlight: () => inFlight,
      shared: sched.shared,
      log,
    });
    let settled: unknown = "pending";
    n02.then(
      () => (settled = "granted"),
      (e) => (settled = e),
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(settled).toBe("pending");
    // WHEN the gate fails again (n01 stays out, nothing else in flight) THEN the drain halts
    inFlight = 1;
    await vi.advanceTimersByTimeAsync(1_500);
    expect(settled).toBeInstanceOf(BudgetHaltError);
  });

  it("does not halt while another run's live reservation fills the budget: that node comes back", async () => {
    const sched = new FakeScheduler(["n01", "n02"]);
    await sched.shared.reserve("n01", { owner: "other", until: Date.now() + 60_000 });
    sched.set("n01", { out: true });
    const b = new DisruptionBudget({ owner: "me", haltMs: 1_000 });
    const n02 = drain(b, sched, "n02");
    await vi.advanceTimersByTimeAsync(5_000);
    expect([n02.done, n02.error]).toEqual([false, undefined]);
    // WHEN the other run's node rejoins and its reservation goes THEN this drain goes
    await sched.shared.unreserve("n01");
    sched.set("n01", { out: false });
    await vi.advanceTimersByTimeAsync(300);
    expect(n02.done).toBe(true);
  });
});

describe("the member's budget", () => {
  it("is keyed by scheduler and partition set for Slurm, by scheduler for Kubernetes", () => {
    expect(budgetKey({ scheduler: "slurm", partitions: ["gpu", "all"] })).toBe("slurm:all,gpu");
    expect(budgetKey({ scheduler: "kubernetes", partitions: null })).toBe("kubernetes");
  });

  it("obeys the planned max_unavailable of a replacement over the prior state's, null meaning no limit", () => {
    expect(maxUnavailableOf({ max_unavailable: null }, { max_unavailable: 2 })).toBe(2);
    expect(maxUnavailableOf({ max_unavailable: 3 }, { max_unavailable: null })).toBeNull();
    expect(maxUnavailableOf({ max_unavailable: 3 }, {})).toBe(3);
    expect(maxUnavailableOf({ max_unavailable: null }, {})).toBeNull();
  });
});

describe("max_unavailable validation", () => {
  // An unconfigured provider: a clean validation proves no scheduler was asked.
  const srv = createServer(rackformProvider());
  const validate = async (max: Value) =>
    (
      await srv.validateResourceConfig({
        typeName: "rackform_cluster_member",
        config: configOf(clusterMemberSchema, { scheduler: "slurm", node: "n01", max_unavailable: max }),
      })
    ).diagnostics.map((d) => `${d.summary} @ ${formatPath(d.attribute)}`);

  it("accepts a whole number of nodes ≥ 1, or no limit", async () => {
    expect(await validate(2)).toEqual([]);
    expect(await validate(null)).toEqual([]);
  });

  it("fails 0 and fractions at max_unavailable", async () => {
    expect(await validate(0)).toEqual(["Invalid attribute value @ max_unavailable"]);
    expect(await validate(1.5)).toEqual(["Invalid max_unavailable @ max_unavailable"]);
  });
});
