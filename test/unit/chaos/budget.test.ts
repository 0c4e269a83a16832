/** The disruption budget's chaos invariants (test/chaos/budget.ts), over hand-written slurmctld transition logs. */
import { describe, expect, it } from "vitest";
import type { SlurmTransition } from "../../../src/lab/index.js";
import { budgetOverruns, leaseIn, leftReservations, overlongLeases, peakOut } from "../../chaos/budget.js";

type Line = [at: number, node: string, out: boolean, cause: SlurmTransition["cause"], comment?: string];

/** A log from [ms, node, out, cause, comment] lines; every node in partition gpu. */
function logOf(lines: readonly Line[]): SlurmTransition[] {
  return lines.map(([at, node, out, cause, comment], seq) => ({
    seq,
    at,
    node,
    partitions: ["gpu"],
    state: out ? ["IDLE", "DRAIN"] : ["IDLE"],
    out,
    reason: out ? "rackform: reimage" : "",
    comment: comment ?? "",
    cause,
  }));
}

const NODES = new Set(["a", "b", "c", "d"]);
const lease = (owner: string, until: number) =>
  `[rackform-budget: reserved by ${owner} until ${new Date(until).toISOString()}]`;

describe("budget overrun (never more than max_unavailable of a partition out at once)", () => {
  it("holds when drains take turns, however short the gap between one node's return and the next drain", () => {
    const log = logOf([
      [0, "a", true, "update"],
      [5_000, "a", false, "update"],
      [5_001, "b", true, "update"],
      [9_000, "b", false, "update"],
    ]);
    expect(budgetOverruns(log, { max: 1, nodes: NODES })).toEqual([]);
    expect(peakOut(log, NODES).count).toBe(1);
  });

  it("catches two drains overlapping for a moment, which a poller could miss", () => {
    const log = logOf([
      [0, "a", true, "update"],
      [4_000, "b", true, "update"],
      [4_010, "a", false, "update"],
    ]);
    const v = budgetOverruns(log, { max: 1, nodes: NODES });
    expect(v).toHaveLength(1);
    expect(v[0]).toMatch(
      /^budget overrun: b drained at \+4\.0 s while 1 of partition gpu were already out \(a since \+0\.0 s\): 2 out, max_unavailable 1$/,
    );
    expect(peakOut(log, NODES)).toEqual({ count: 2, names: ["a", "b"] });
  });

  it("allows max_unavailable drains at once and counts a drained node that is then lost (reimaged) as one outage", () => {
    const log = logOf([
      [0, "a", true, "update"],
      [100, "b", true, "update"],
      [2_000, "a", true, "lost"],
      [6_000, "a", false, "update"],
      [6_100, "c", true, "update"],
    ]);
    expect(budgetOverruns(log, { max: 2, nodes: NODES })).toEqual([]);
    expect(budgetOverruns(log, { max: 1, nodes: NODES })).toHaveLength(2);
  });

  it("counts a node out for another cause (a lost slurmd) only once it has been out longer than the grace", () => {
    const raced = logOf([
      [0, "a", true, "lost"],
      [500, "b", true, "update"],
    ]);
    expect(budgetOverruns(raced, { max: 1, nodes: NODES, graceMs: 2_000 })).toEqual([]);
    const ignored = logOf([
      [0, "a", true, "lost"],
      [5_000, "b", true, "update"],
    ]);
    expect(budgetOverruns(ignored, { max: 1, nodes: NODES, graceMs: 2_000 })).toHaveLength(1);
  });

  it("judges only drains from sinceSeq on, replaying the state before it, and ignores other nodes and partitions", () => {
    const log = logOf([
      [0, "a", true, "update"],
      [10, "b", true, "update"],
      [20, "x", true, "update"],
      [30, "a", false, "update"],
      [40, "c", true, "update"],
    ]);
    expect(budgetOverruns(log, { max: 1, nodes: NODES, sinceSeq: 3 })).toHaveLength(1);
    expect(budgetOverruns(log, { max: 1, nodes: NODES, sinceSeq: 2 })[0]).toContain("c drained at +0.0 s");
    const other = log.map((t) => (t.node === "b" ? { ...t, partitions: ["cpu"] } : t));
    expect(budgetOverruns(other, { max: 1, nodes: NODES })).toEqual([]);
  });
});

describe("reservation leases", () => {
  it("reads the mark rackform writes in a node's Comment, beside an operator's comment", () => {
    expect(leaseIn(`rack 3 ${lease("rf-1a2b", Date.UTC(2026, 0, 1))}`)).toEqual({
      owner: "rf-1a2b",
      until: Date.UTC(2026, 0, 1),
    });
    expect(leaseIn("rack 3")).toBeUndefined();
  });

  it("flags a reservation written to run beyond the lease (it would block the next apply longer)", () => {
    const log = logOf([
      [1_000, "a", false, "update", lease("rf-1", 121_000)],
      [2_000, "b", false, "update", lease("rf-2", 600_000)],
    ]);
    expect(overlongLeases(log, 120_000)).toEqual([
      "reservation on b by rf-2 runs 598 s from its write, beyond the 120 s lease",
    ]);
  });

  it("flags a reservation left on a node at the end (live or lapsed), not one removed when its node rejoined", () => {
    const log = logOf([
      [0, "a", false, "update", lease("rf-1", 120_000)],
      [10, "a", true, "update", lease("rf-1", 120_000)],
      [5_000, "a", false, "update", ""],
      [6_000, "b", false, "update", lease("rf-2", 126_000)],
    ]);
    const left = leftReservations(log, NODES);
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(/^reservation left on b at the end: by rf-2 until .* \(still live when last written\)$/);
  });
});
