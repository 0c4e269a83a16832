/**
 * The health remediation ladder, as rackform_deployment plans it and rackform_acceptance and rackform_cluster_member
 * follow it: a node whose BMC reports a component Critical is (1) power cycled and gated again, then (2) reimaged with
 * its pinned image and gated again, then (3) quarantined for repair — one step per apply (one reboot per node per
 * apply), carried out by the node's cluster member inside its disruption budget, like a rolling reimage.
 *
 * The ladder's position is one string all three resources see at plan: "" (healthy, or the ladder reset once the
 * findings cleared), "<step>:<attempt>" for a step planned (a step that never ran — its apply killed, its drain halted,
 * the unhealthy budget full — is planned again with the next attempt number, so the plan changes and the chain offers
 * it again), or "repair" once every allowed step was tried and the component is still not OK.
 */

/** The steps a ladder may take before repair, in order. */
export const LADDER_STEPS = ["power_cycle", "reimage"] as const;
/** One of them. */
export type LadderStep = (typeof LADDER_STEPS)[number];
/** The ladder's last rung: the node stays out of service for a person to repair. */
export const REPAIR = "repair";

/** A remediation value read: the step (or repair, or none) and its attempt. */
export interface Rung {
  readonly step: LadderStep | typeof REPAIR | null;
  readonly attempt: number;
}

/** Reads a remediation value ("" and null are none). */
export function rungOf(v: unknown): Rung {
  if (v === REPAIR) return { step: REPAIR, attempt: 1 };
  const m = typeof v === "string" ? /^(power_cycle|reimage):(\d+)$/.exec(v) : null;
  return m ? { step: m[1] as LadderStep, attempt: Number(m[2]) } : { step: null, attempt: 0 };
}

/** Whether a remediation value plans a step that reboots the node and runs its gate again. */
export const isLadderRun = (v: unknown): boolean => {
  const s = rungOf(v).step;
  return s !== null && s !== REPAIR;
};

/** Whether a remediation value has the ladder act on the node: a step (power cycle, reimage) or repair. */
export const ladderActs = (v: unknown): boolean => rungOf(v).step !== null;

/** The text of a rung, e.g. "power_cycle:1". */
export const rungText = (step: LadderStep, attempt: number): string => `${step}:${attempt}`;

/** A finding of the BMC as rackform_bmc.health lists it (entries not known yet are left out). */
export interface Finding {
  readonly component: string;
  readonly health: string;
  readonly kind?: string;
  readonly since?: string;
}

/** The kind prefix of a finding the scheduler made by itself (data rackform_scheduler_health), e.g. "scheduler:down". */
export const SCHEDULER_KIND_PREFIX = "scheduler:";

/** The findings of a health list (bmc_health), entries not known yet left out. */
export function findingsIn(list: unknown): Finding[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((f) => {
    const o = (f ?? {}) as Record<string, unknown>;
    if (typeof o.component !== "string" || typeof o.health !== "string") return [];
    return [{ component: o.component, health: o.health, ...(typeof o.kind === "string" ? { kind: o.kind } : {}) }];
  });
}

/** The findings of a health list that count for remediation: components the BMC calls Critical. */
export const criticalFindings = (list: unknown): Finding[] => findingsIn(list).filter((f) => f.health === "Critical");

/** What the next rung depends on. */
export interface LadderInput {
  /** Critical findings now (the plan's bmc_health). */
  readonly sick: boolean;
  /** The recorded rung. */
  readonly current: unknown;
  /** The recorded step was planned but has not run yet (no gate run since it was offered). */
  readonly pending: boolean;
  /** The steps allowed, in order (the policy's remediation_steps). */
  readonly steps: readonly LadderStep[];
}

/** The rung the plan moves to. */
export function nextRung(i: LadderInput): string {
  if (!i.sick) return "";
  const cur = rungOf(i.current);
  if (cur.step === REPAIR) return REPAIR;
  if (cur.step === null) return i.steps[0] ? rungText(i.steps[0], 1) : REPAIR;
  if (i.pending) return rungText(cur.step, cur.attempt + 1);
  const after = i.steps.slice(i.steps.indexOf(cur.step) + 1)[0];
  return after ? rungText(after, 1) : REPAIR;
}

/** "power cycle", "reimage", "quarantine for repair" — the rung as plan-summary and diagnostics name it. */
export function rungLabel(v: unknown): string {
  const r = rungOf(v);
  if (r.step === REPAIR) return "quarantine for repair";
  if (r.step === null) return "none";
  const what = r.step === "power_cycle" ? "power cycle" : "reimage with the pinned image";
  return r.attempt > 1 ? `${what} (attempt ${r.attempt})` : what;
}
