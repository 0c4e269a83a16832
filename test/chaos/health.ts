/**
 * The health remediation ladder's chaos invariants, as pure checks over what was observed after each apply: the rung
 * each node's rackform_deployment records (`remediation`: "", "power_cycle:N", "reimage:N", "repair"), what the
 * backend was asked to do to each node (observe.ts backendActions: power cycles, reimages, gate runs), which nodes the
 * lab holds a health fault on, and what the backend and the scheduler show at the end. One line per violation.
 */
import type { BackendAction, NodeAction } from "./observe.js";

/** A rung as its position on the ladder: 0 none, 1 power cycle, 2 reimage, 3 repair; with its attempt. */
export function rungRank(v: string): { readonly rank: number; readonly attempt: number } {
  if (v === "repair") return { rank: 3, attempt: 1 };
  const m = /^(power_cycle|reimage):(\d+)$/.exec(v);
  if (!m) return { rank: 0, attempt: 0 };
  return { rank: m[1] === "power_cycle" ? 1 : 2, attempt: Number(m[2]) };
}

/** The backend action that carries out a rung, if it has one (repair's quarantine is read from the backend). */
const actionOf = (v: string): BackendAction | undefined =>
  rungRank(v).rank === 1 ? "power-cycle" : rungRank(v).rank === 2 ? "reimage" : undefined;

/** The actions a rung's step may show: a power cycle of a host found off is its power-on; a reimage, its deploy. */
const partsOf = (step: BackendAction | undefined): readonly BackendAction[] =>
  step === "power-cycle" ? ["power-cycle", "power-on"] : step === "reimage" ? ["reimage", "deploy"] : [];

/** The remediation values one node's resources hold in state after an apply. */
export interface NodeRungs {
  readonly deployment: string;
  readonly gate: string;
  readonly member: string;
}

/** What the "no healthy node is remediated" check looks at after one apply. */
export interface HealthyInput {
  /** Nodes given a fault that shows in the BMC's health so far (a health fault, or the lab's gpu-health). */
  readonly eligible: ReadonlySet<string>;
  readonly rungs: ReadonlyMap<string, NodeRungs>;
  readonly actions: readonly NodeAction[];
  /** Backend quarantine reasons by node. */
  readonly quarantined: ReadonlyMap<string, string>;
  /** Nodes a "Remediation held back by max_unhealthy" warning named. */
  readonly heldBack: readonly string[];
}

/**
 * A node without a health fault never has a power cycle, reimage or repair planned or carried out for health: no
 * remediation value in state, no backend power cycle, no hold for repair, no max_unhealthy warning. (A release is no
 * evidence by itself: a failed deploy is recovered with one too; the rung in state covers the reimage step.)
 */
export function healthyRemediated(i: HealthyInput): string[] {
  const out = new Map<string, string>();
  const note = (node: string, why: string) => {
    if (!i.eligible.has(node) && !out.has(node)) out.set(node, why);
  };
  for (const [node, r] of i.rungs)
    for (const [res, v] of Object.entries(r))
      if (v !== "")
        note(
          node,
          `its rackform_${res === "gate" ? "acceptance" : res === "member" ? "cluster_member" : res}.remediation is "${v}"`,
        );
  for (const a of i.actions) {
    if (a.action === "power-cycle") note(a.node, "the backend was asked to power cycle it");
  }
  for (const [node, reason] of i.quarantined)
    if (/quarantined for repair/.test(reason)) note(node, `the backend holds it for repair: "${reason}"`);
  for (const node of i.heldBack) note(node, "a max_unhealthy warning names it as needing remediation");
  return [...out].map(([node, why]) => `healthy ${node} (no health fault) was remediated: ${why}`);
}

/** Nodes that took a health step in one apply: a power cycle, a reimage on the reimage rung, a new hold for repair. */
export function healthSteps(
  actions: readonly NodeAction[],
  before: ReadonlyMap<string, string>,
  after: ReadonlyMap<string, string>,
  quarantined: ReadonlyMap<string, string>,
  heldBack: readonly string[],
): string[] {
  const out = new Set<string>();
  for (const a of actions) {
    if (a.action === "power-cycle") out.add(a.node);
    if (a.action === "reimage" && rungRank(after.get(a.node) ?? "").rank === 2) out.add(a.node);
  }
  for (const [node, v] of after)
    if (v === "repair" && before.get(node) !== "repair" && quarantined.has(node) && !heldBack.includes(node))
      out.add(node);
  return [...out].sort();
}

/** One apply's health steps against max_unhealthy. */
export function unhealthyOverrun(steps: readonly string[], maxUnhealthy: number): string[] {
  return steps.length <= maxUnhealthy
    ? []
    : [`${steps.length} nodes took a health step in one apply (${steps.join(", ")}), max_unhealthy ${maxUnhealthy}`];
}

/** One node's ladder as seen after an apply. */
export interface LadderSight {
  readonly rung: string;
  /** The backend actions on this node during the apply, in order. */
  readonly actions: readonly BackendAction[];
  /** The lab still holds a health fault on the node. */
  readonly faultActive: boolean;
}

/**
 * Per node, across applies: the rung only moves forward (power_cycle → reimage → repair) while the fault stays, starts
 * at the first step, resets only once the fault is gone; an attempt number grows only when the step it replaces never
 * ran (its action then a gate run in the apply that planned it — deployment-remediation.ts's "ran"); no step moves on
 * past one that never ran; a rung is carried out at most once.
 */
export class LadderTrack {
  private readonly last = new Map<string, { rung: string; ran: boolean }>();

  observe(node: string, s: LadderSight): string[] {
    const prev = this.last.get(node) ?? { rung: "", ran: false };
    const out: string[] = [];
    const step = actionOf(s.rung);
    const done = step ? s.actions.filter((a) => a === step).length : 0;
    const first = s.actions.findIndex((a) => partsOf(step).includes(a));
    const gateAfter = first >= 0 && s.actions.indexOf("gate", first) >= 0;
    const ran = s.rung === prev.rung ? prev.ran || gateAfter : gateAfter;
    const [p, c] = [rungRank(prev.rung), rungRank(s.rung)];
    const trail = `${prev.rung || '""'} → ${s.rung || '""'}`;
    if (done > 1) out.push(`${node}: rung ${s.rung} carried out ${done} times in one apply`);
    if (s.rung === prev.rung && prev.ran && done > 0)
      out.push(`${node}: rung ${s.rung} carried out again though it ran before, without a new finding`);
    if (p.rank === 0 && c.rank > 0 && !(c.rank === 1 && c.attempt === 1))
      out.push(`${node}: the ladder started at ${s.rung} instead of power_cycle:1`);
    if (p.rank > 0 && c.rank > 0 && c.rank < p.rank) out.push(`${node}: the ladder moved back (${trail})`);
    if (p.rank > 0 && c.rank === p.rank && c.attempt > p.attempt && prev.ran)
      out.push(`${node}: ${trail}: the attempt grew though the step had run (its action, then a gate run)`);
    if (p.rank > 0 && p.rank < 3 && c.rank > p.rank && !prev.ran)
      out.push(`${node}: ${trail}: the ladder moved on past a step that never ran`);
    if (p.rank > 0 && c.rank === 0 && s.faultActive)
      out.push(`${node}: ${trail}: the ladder reset while the lab still holds its health fault`);
    this.last.set(node, { rung: s.rung, ran });
    return out;
  }
}

/** A health node at the end of a run. */
export interface HealthEnd {
  readonly node: string;
  readonly kind: string;
  readonly cure: string;
  /** Its rung was ever other than "". */
  readonly laddered: boolean;
  /** The lab no longer held its fault before the final clear (a power cycle or reimage cured it). */
  readonly cured: boolean;
  /** Its fault is still held (a "none" cure whose node is held for repair: kept through the final clear). */
  readonly kept: boolean;
  readonly rung: string;
  readonly joined: boolean;
  readonly quarantined?: string;
  /** slurmctld's state of the node, and whether it takes jobs. */
  readonly scheduler: { readonly state: string; readonly schedulable: boolean } | undefined;
}

/**
 * At the end: a node the ladder cured is joined again with its ladder reset; a node whose fault nothing cures is held
 * for repair (rung repair, quarantined in the backend, out of the scheduler, not joined); a node of a kind every BMC
 * calls Critical was laddered; every other health node is joined.
 */
export function healthEnd(nodes: readonly HealthEnd[], ladderKinds: readonly string[]): string[] {
  const out: string[] = [];
  for (const n of nodes) {
    const what = `${n.node} (${n.kind}, cure ${n.cure})`;
    const seen = `rung "${n.rung}", joined ${n.joined}, backend ${n.quarantined ?? "in service"}, slurm ${n.scheduler?.state ?? "unknown"}`;
    if (ladderKinds.includes(n.kind) && !n.laddered) out.push(`${what}: the ladder never started (${seen})`);
    if (n.kept) {
      if (n.rung !== "repair" || n.joined || !n.quarantined || n.scheduler?.schedulable !== false)
        out.push(`${what}: not held for repair at the end (${seen})`);
      continue;
    }
    if (n.cure === "none" && n.laddered && ladderKinds.includes(n.kind))
      out.push(`${what}: its fault nothing cures did not end held for repair (${seen})`);
    if (n.cure !== "none" && n.laddered && !n.cured) out.push(`${what}: the ladder did not cure it (${seen})`);
    if (!n.joined || n.rung !== "") out.push(`${what}: not back in service at the end (${seen})`);
  }
  return out;
}
