/**
 * The disruption budget's invariants, as pure checks over the lab slurmctld's log of node transitions (every change of
 * a node's state or comment, in the order slurmctld applied them — nothing a poller could miss):
 *
 * - never more than `max_unavailable` of a partition out at once by rackform's hand: when a write through slurmrestd
 *   takes a node out (a drain), the nodes of its partition out at that instant — those drained through slurmrestd,
 *   and those out for another cause (a lost slurmd: a reboot, a power cycle) since before the drain's look at the
 *   partition (`graceMs` earlier) — number at most `max`;
 * - a reservation lease (`[rackform-budget: reserved by <owner> until <time>]` in the node's Comment) never runs
 *   longer than the lease from when it was written, so one left by a killed engine blocks no apply beyond it;
 * - at the end no node carries a reservation (they do not pile up: each is removed when its node rejoins, or adopted
 *   and removed by the re-apply that recycles its node).
 */
import type { SlurmTransition } from "../../src/lab/index.js";

/** How long a reservation lasts unless its writer renews it (the provider's lease, src/provider/budget/disruption-budget.ts). */
export const LEASE_MS = 120_000;

/** What the overrun check watches. */
export interface BudgetWatch {
  /** Nodes out at once allowed per partition. */
  readonly max: number;
  /** The nodes whose members set `max` (other nodes of the log are ignored). */
  readonly nodes: ReadonlySet<string>;
  /** Only drains from this position of the log on are judged (the nodes' state before it is replayed). @default 0 */
  readonly sinceSeq?: number;
  /** How long before a drain a node must have been out for another cause to count against it. @default 2_000 */
  readonly graceMs?: number;
}

interface Outage {
  readonly since: number;
  /** Started by a write through slurmrestd (a drain or DOWN by rackform), not by slurmd going silent. */
  readonly byApi: boolean;
}

/** One line per drain that took a partition above its budget. */
export function budgetOverruns(log: readonly SlurmTransition[], w: BudgetWatch): string[] {
  const grace = w.graceMs ?? 2_000;
  const since = w.sinceSeq ?? 0;
  const out = new Map<string, Outage>();
  const partitions = new Map<string, readonly string[]>();
  const t0 = log.find((t) => t.seq >= since)?.at ?? 0;
  const rel = (at: number) => `+${((at - t0) / 1000).toFixed(1)} s`;
  const violations: string[] = [];
  for (const t of log) {
    if (!w.nodes.has(t.node)) continue;
    if (t.state.length > 0) partitions.set(t.node, t.partitions);
    const was = out.get(t.node);
    if (!t.out) {
      out.delete(t.node);
      continue;
    }
    if (was) continue;
    const drain = t.cause === "update";
    out.set(t.node, { since: t.at, byApi: drain });
    if (!drain || t.seq < since) continue;
    for (const p of t.partitions) {
      const counted = [...out].filter(
        ([n, o]) => (partitions.get(n) ?? []).includes(p) && (o.byApi || o.since <= t.at - grace),
      );
      if (counted.length <= w.max) continue;
      const others = counted.filter(([n]) => n !== t.node).map(([n, o]) => `${n} since ${rel(o.since)}`);
      violations.push(
        `budget overrun: ${t.node} drained at ${rel(t.at)} while ${others.length} of partition ${p} were already out ` +
          `(${others.join(", ")}): ${counted.length} out, max_unavailable ${w.max}`,
      );
    }
  }
  return violations;
}

/** The most nodes of `nodes` out at once (any cause) in the log from `sinceSeq` on, and when. */
export function peakOut(
  log: readonly SlurmTransition[],
  nodes: ReadonlySet<string>,
  sinceSeq = 0,
): { readonly count: number; readonly names: readonly string[] } {
  const out = new Set<string>();
  let peak: string[] = [];
  for (const t of log) {
    if (!nodes.has(t.node)) continue;
    if (t.out) out.add(t.node);
    else out.delete(t.node);
    if (t.seq >= sinceSeq && out.size > peak.length) peak = [...out];
  }
  return { count: peak.length, names: peak };
}

/** A reservation lease as a Comment carries it. */
export interface LeaseMark {
  readonly owner: string;
  readonly until: number;
}

const MARK = /\[rackform-budget: reserved by (\S+) until (\S+?)\]/;

/** The reservation in a node's Comment, if any. */
export function leaseIn(comment: string): LeaseMark | undefined {
  const m = MARK.exec(comment);
  if (!m) return undefined;
  const until = Date.parse(m[2]);
  return Number.isFinite(until) ? { owner: m[1], until } : undefined;
}

/**
 * Reservations written to run longer than `leaseMs` from their write (`slackMs` for clocks and rounding): such a
 * reservation, left by a killed engine, would block the next apply beyond its lease.
 */
export function overlongLeases(log: readonly SlurmTransition[], leaseMs: number, slackMs = 1_000): string[] {
  const out: string[] = [];
  for (const t of log) {
    const r = leaseIn(t.comment);
    if (r && r.until - t.at > leaseMs + slackMs)
      out.push(
        `reservation on ${t.node} by ${r.owner} runs ${Math.round((r.until - t.at) / 1000)} s from its write, ` +
          `beyond the ${leaseMs / 1000} s lease`,
      );
  }
  return out;
}

/** Nodes whose Comment still carries a reservation (the latest line of each node in the log). */
export function leftReservations(log: readonly SlurmTransition[], nodes: ReadonlySet<string>): string[] {
  const last = new Map<string, SlurmTransition>();
  for (const t of log) if (nodes.has(t.node)) last.set(t.node, t);
  const out: string[] = [];
  for (const [node, t] of last) {
    const r = leaseIn(t.comment);
    if (r)
      out.push(
        `reservation left on ${node} at the end: by ${r.owner} until ${new Date(r.until).toISOString()} ` +
          `(${r.until > t.at ? "still live when last written" : "expired"})`,
      );
  }
  return out;
}

/** The drains in the log: lines where a write through slurmrestd took one of `nodes` from in service to out. */
export function drainsIn(log: readonly SlurmTransition[], nodes: ReadonlySet<string>): SlurmTransition[] {
  const out = new Set<string>();
  const drains: SlurmTransition[] = [];
  for (const t of log) {
    if (!nodes.has(t.node)) continue;
    if (t.out && !out.has(t.node) && t.cause === "update") drains.push(t);
    if (t.out) out.add(t.node);
    else out.delete(t.node);
  }
  return drains;
}
