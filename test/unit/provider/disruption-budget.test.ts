/**
 * The cluster members' disruption budget: at most max_unavailable drains of a key at once, slots handed on first come
 * first served, aborts (timeout, StopProvider) leave the queue, and the deadlock guard fails waiting drains when
 * nothing but them is in flight — driven by vitest's fake clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger, formatPath, type LogFields, type Value } from "../../../src/framework/index.js";
import { BudgetDeadlockError, DisruptionBudget } from "../../../src/provider/disruption-budget.js";
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
  opts: { inFlight?: () => number; signal?: AbortSignal; outOfService?: () => Promise<readonly string[]> } = {},
) {
  const p = b.acquire({
    key: "slurm:gpu",
    node,
    aliases: [`maas:${node}`],
    max: 2,
    signal: opts.signal ?? new AbortController().signal,
    inFlight: opts.inFlight,
    ...(opts.outOfService ? { outOfService: opts.outOfService } : {}),
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
    let outside: string[] = ["n09"];
    const outOfService = async () => outside;
    const n01 = ask(b, "n01", { outOfService });
    const n02 = ask(b, "n02", { outOfService });
    await vi.advanceTimersByTimeAsync(0);
    // THEN one drain goes (1 + n09 = 2 of 2), the next waits, and the log says who is out
    expect([n01.done, n02.done]).toEqual([true, false]);
    expect(lines).toContain("drain of n02 waits for the disruption budget (2 of 2 out of service: n01, n09)");
    // WHEN n09 is back in service THEN the next look lets n02 drain
    outside = [];
    await vi.advanceTimersByTimeAsync(300);
    expect(n02.done).toBe(true);
    expect(b.inUse("slurm:gpu")).toEqual(["n01", "n02"]);
  });

  it("does not count a node of this run twice when the scheduler also reports it out", async () => {
    const b = new DisruptionBudget();
    const outOfService = async () => ["n01", "maas:n02"];
    const [n01, n02] = [ask(b, "n01", { outOfService }), ask(b, "n02", { outOfService })];
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
