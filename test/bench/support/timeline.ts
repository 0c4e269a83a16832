/**
 * Where a MAAS rollout's wall went, node by node: the lab's MAAS reports every status change, and the time between
 * them splits each node's apply into the lab's own steps (commissioning with its tests, deployment, the acceptance
 * test: the critical path's terms) and the gaps between them (the provider noticing a step's end, the engine starting
 * the next resource). Printed by the fleet benchmark after an apply, to show what the apply's wall over the critical
 * path is made of.
 */
import type { Lab } from "../../../src/lab/index.js";
import { NodeStatus as S } from "../../../src/lab/maas/statuses.js";

interface Change {
  readonly to: number;
  readonly at: number;
}

/** Records the MAAS status changes of every machine from now on; `report` prints the split. */
export function recordTimeline(lab: Lab): { report(startMs: number, endMs: number): void } {
  const changes = new Map<string, Change[]>();
  lab.backends?.maas.onStatusChange((m, _from, to) => {
    const list = changes.get(m.systemId) ?? [];
    list.push({ to, at: Date.now() });
    changes.set(m.systemId, list);
  });
  return { report: (startMs, endMs) => report(changes, startMs, endMs) };
}

const SEGMENTS = [
  "before commissioning (outlets, BMC boot, enlistment)",
  "commissioning and its tests",
  "Ready → deployment started",
  "deployment",
  "Deployed → acceptance test started",
  "acceptance test",
  "after the test (the member's join, the apply's end)",
] as const;

/** One node's segments (seconds), or undefined when it did not go the whole way. */
function segments(list: readonly Change[], startMs: number, endMs: number): number[] | undefined {
  const first = (to: number, after = 0) => list.find((c) => c.to === to && c.at >= after)?.at;
  const c0 = first(S.COMMISSIONING);
  const ready = c0 && first(S.READY, c0);
  const d0 = ready && first(S.DEPLOYING, ready);
  const d1 = d0 && first(S.DEPLOYED, d0);
  const t0 = d1 && first(S.TESTING, d1);
  const t1 = t0 && first(S.DEPLOYED, t0);
  if (!c0 || !ready || !d0 || !d1 || !t0 || !t1) return undefined;
  return [c0 - startMs, ready - c0, d0 - ready, d1 - d0, t0 - d1, t1 - t0, endMs - t1].map((ms) => ms / 1000);
}

function report(changes: ReadonlyMap<string, Change[]>, startMs: number, endMs: number): void {
  const rows = [...changes.values()].flatMap((l) => segments(l, startMs, endMs) ?? []);
  if (rows.length === 0) return;
  const n = rows.length / SEGMENTS.length;
  const per = SEGMENTS.map((_, i) => rows.filter((_, j) => j % SEGMENTS.length === i).sort((a, b) => a - b));
  console.log(`    where each node's apply went (${n} nodes through every step; seconds, median / max):`);
  SEGMENTS.forEach((name, i) => {
    const xs = per[i];
    console.log(`      ${name}: ${xs[Math.floor(xs.length / 2)].toFixed(1)} / ${xs[xs.length - 1].toFixed(1)}`);
  });
}
