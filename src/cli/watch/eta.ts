/**
 * How long is left, from what the watch itself saw: each time a node moves along the path (off → … → joined) the time
 * it spent in the stages it left is recorded (split evenly over stages it passed between two refreshes), and a node's
 * remaining time is the mean of its current stage minus what it has spent there, plus the means of the stages after
 * it. A rack's ETA is its slowest node's (nodes converge side by side); unknown until every stage left has a mean,
 * and unknown again while a node stays in its stage well past what that stage took others (twice the mean and 15 s
 * more): then nothing is progressing — a drain waiting on a budget, a hung step — and any figure would be wrong.
 */
import { PATH, SETTLED, type Stage } from "../stages.js";

/** A node is overdue in its stage after this multiple of the stage's mean… */
const OVERDUE_FACTOR = 2;
/** …and at least this much longer than the mean (refreshes are seconds apart, so short means are coarse). */
const OVERDUE_SLACK_MS = 15_000;

/** Per-node stage history and per-stage observed durations. */
export class EtaTracker {
  private readonly entered = new Map<string, { stage: Stage; atMs: number; seenEntry: boolean }>();
  private readonly spent = new Map<Stage, { totalMs: number; count: number }>();

  /** Records a node's stage at `nowMs` (call once per refresh per node). */
  observe(node: string, stage: Stage, nowMs: number): void {
    const last = this.entered.get(node);
    if (!last) {
      // Every node starts off: an off node first seen is as good as seen entering (its wait is part of the rollout).
      this.entered.set(node, { stage, atMs: nowMs, seenEntry: stage === "off" });
      return;
    }
    if (last.stage === stage) return;
    const from = PATH.indexOf(last.stage);
    const to = PATH.indexOf(stage);
    // Only a move forward along the path, out of a stage whose start was seen, is a duration worth learning from.
    if (last.seenEntry && from >= 0 && to > from) {
      const share = (nowMs - last.atMs) / (to - from);
      for (const s of PATH.slice(from, to)) {
        const d = this.spent.get(s) ?? { totalMs: 0, count: 0 };
        this.spent.set(s, { totalMs: d.totalMs + share, count: d.count + 1 });
      }
    }
    this.entered.set(node, { stage, atMs: nowMs, seenEntry: true });
  }

  /** The mean time observed in a stage, or undefined before any node left it. */
  meanMs(stage: Stage): number | undefined {
    const d = this.spent.get(stage);
    return d ? d.totalMs / d.count : undefined;
  }

  /** Time left for these nodes: 0 when every one is settled, undefined while a stage left has no mean yet or a node is overdue. */
  remainingMs(nodes: readonly string[], nowMs: number): number | undefined {
    let worst = 0;
    for (const n of nodes) {
      const at = this.entered.get(n);
      if (!at || SETTLED.has(at.stage)) continue;
      const i = PATH.indexOf(at.stage);
      if (i < 0) return undefined;
      let left = 0;
      for (const [k, s] of PATH.slice(i, PATH.length - 1).entries()) {
        const mean = this.meanMs(s);
        if (mean === undefined) return undefined;
        const spent = nowMs - at.atMs;
        if (k === 0 && spent > Math.max(OVERDUE_FACTOR * mean, mean + OVERDUE_SLACK_MS)) return undefined;
        left += k === 0 ? Math.max(0, mean - spent) : mean;
      }
      worst = Math.max(worst, left);
    }
    return worst;
  }
}

/** "1m05s", "42s". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}
