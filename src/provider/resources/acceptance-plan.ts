/**
 * rackform_acceptance at plan: a degraded node re-runs its gate, and an edited policy is re-judged against the evidence
 * in state (acceptance-policy.ts). Pure: no backend calls.
 */
import {
  type Diagnostics,
  isUnknownValue,
  type PlanChange,
  type PlanRequest,
  parseDuration,
  path,
  UNKNOWN,
  valuesEqual,
} from "../../framework/index.js";
import { parseEvidence } from "../backends/index.js";
import { isLadderRun, REPAIR } from "../shared/remediation.js";
import { rejudge } from "./acceptance-policy.js";
import {
  type AcceptanceConfig,
  type AcceptanceState,
  type acceptanceSchema,
  thresholdsOf,
} from "./acceptance-schema.js";
import { failureLines, judge } from "./acceptance-verdict.js";

type Schema = typeof acceptanceSchema;

/**
 * An edit of the policy (thresholds, burn-in, DCGM level, XID policy, GPU count, firmware) re-judges the evidence in
 * state: covered, the plan keeps the verdict, the figures and the evidence, so the update only records the new policy
 * and nothing built on the gate's id is touched; not covered, the gate re-runs (a replacement, whose member drains
 * within its disruption budget) and a warning names the node, what its evidence measured and the new threshold.
 */
function planPolicyEdit(
  st: AcceptanceState,
  plan: AcceptanceConfig,
  diags: Diagnostics,
): PlanChange<Schema> | undefined {
  // Another machine, or a changed GPU count from the BMC, re-runs the gate whatever the policy (attribute modifiers).
  const rerun = (["machine_id", "bmc_gpu_count"] as const).some(
    (a) => (st[a] ?? null) !== null && !valuesEqual(plan[a], st[a]),
  );
  if (rerun) return undefined;
  const r = rejudge(st, plan);
  if (!r) return undefined;
  if (r.uncovered.length === 0) {
    const { passed, gpu_count, busbw_gbps, evidence } = st;
    return { plan: { ...plan, passed, gpu_count, busbw_gbps, evidence } };
  }
  const lines = failureLines({ passed: false, checks: r.uncovered });
  diags.warning(
    // The node in the summary: the engines fold warnings of one summary into the first.
    `Acceptance gate re-runs: ${r.node}`,
    `The evidence recorded for ${r.node} (${st.machine_id}) does not cover the edited policy:\n` +
      `${lines.map((l) => `  - ${l}`).join("\n")}\nThe gate runs again on this node with the new policy: a cluster ` +
      "member whose gate_id is this gate drains first (within its disruption budget) and rejoins once it passes. " +
      "Nodes whose evidence covers the edit are updated in place.",
  );
  return { requiresReplace: r.changed.map((a) => path(a)) };
}

/**
 * A rolling update's gate: image_ref changed from a recorded one, firmware_ref changed, or a gate run of one still to
 * come (passed null).
 * The update records it in place and offers the run to the node's cluster member.
 */
export function rollingGatePending(
  st: AcceptanceState,
  plan: Pick<AcceptanceConfig, "image_ref" | "firmware_ref" | "remediation" | "recheck">,
): boolean {
  if (remediationPending(st, plan)) return true;
  const recheck = plan.recheck;
  if (typeof recheck === "string" && recheck !== "" && recheck !== st.recheck) return true;
  const ref = plan.image_ref;
  const fw = plan.firmware_ref;
  const image = st.image_ref !== null && ref !== null && !isUnknownValue(ref);
  const firmware = fw !== null && !isUnknownValue(fw);
  if (image && (ref !== st.image_ref || st.passed === null)) return true;
  return firmware && (fw !== st.firmware_ref || (st.passed === null && st.firmware_ref !== null));
}

/**
 * A remediation step's gate: the ladder plans a power cycle or a reimage this gate has not recorded yet, or the one it
 * recorded again after its run failed (the step is tried again, or the next one planned with it).
 */
function remediationPending(st: AcceptanceState, plan: Pick<AcceptanceConfig, "remediation">): boolean {
  const r = plan.remediation;
  if (r === null || isUnknownValue(r) || !isLadderRun(r)) return false;
  return r !== st.remediation || st.passed === false;
}

/** Whether a recorded gate follows a rolling update (its pending verdict is a run still to come). */
export const followsRollout = (
  st: Pick<AcceptanceState, "image_ref" | "firmware_ref" | "remediation" | "recheck">,
): boolean => st.image_ref !== null || st.firmware_ref !== null || isLadderRun(st.remediation) || st.recheck !== null;

/**
 * The recheck the plan sets once the recorded evidence of a gate that passed (or whose re-check is still to run) is
 * older than evidence_max_age: "expired:<measured_at>", and "expired:<measured_at>#<attempt>" when a re-check of that
 * evidence was planned before and never ran (its node busy, its apply stopped) — a new value, so the member plans it
 * again. Otherwise the recorded value.
 */
export function plannedRecheck(st: AcceptanceState, plan: AcceptanceConfig, now = Date.now()): string | null {
  const max = plan.evidence_max_age;
  if (max === null || isUnknownValue(max) || st.passed === false) return st.recheck;
  const measured = parseEvidence(st.evidence)?.measured_at;
  const at = typeof measured === "string" ? Date.parse(measured) : Number.NaN;
  if (!Number.isFinite(at) || now - at < parseDuration(max)) return st.recheck;
  const base = `expired:${measured}`;
  const m = st.recheck === null ? null : /^(.*?)(?:#(\d+))?$/.exec(st.recheck);
  if (!m || m[1] !== base) return st.passed === true ? base : st.recheck;
  // This evidence's re-check was planned already: again only while it has not run (its verdict still to come).
  return st.passed === null ? `${base}#${Number(m[2] ?? 1) + 1}` : st.recheck;
}

/**
 * A ladder step's gate run that never came (its member left it: max_unhealthy reached, its apply stopped) while the
 * ladder moved on: reset ("", the node recovered) or to repair. The verdict still to come is settled at plan, so no
 * gate waits for a member that will not take it: the recorded evidence judged again on a reset, failed for repair.
 */
export function abandonedStepVerdict(st: AcceptanceState, plan: AcceptanceConfig): boolean | undefined {
  const r = plan.remediation;
  if (st.passed !== null || !isLadderRun(st.remediation) || (r !== "" && r !== REPAIR)) return undefined;
  if (r === REPAIR) return false;
  const e = parseEvidence(st.evidence);
  return e ? judge(e, thresholdsOf(plan)).passed : false;
}

/**
 * A node the ladder holds for repair keeps its recorded (failed) verdict: no gate re-run until its findings clear and
 * the ladder resets, then the usual re-run of a failed gate brings it back.
 */
function heldForRepair(st: AcceptanceState, plan: AcceptanceConfig): PlanChange<Schema> | undefined {
  if (plan.remediation !== REPAIR || st.passed !== false) return undefined;
  const { passed, gpu_count, busbw_gbps, evidence } = st;
  return { plan: { ...plan, passed, gpu_count, busbw_gbps, evidence } };
}

/**
 * The plan of an update: a rolling reimage's gate is recorded in place (passed unknown); a node that no longer
 * passes re-runs its gate; a policy edit is re-judged.
 */
export function planAcceptance(r: PlanRequest<Schema>): PlanChange<Schema> | undefined {
  const st = r.state;
  if (st === null || r.plan === null) return undefined;
  // recheck is always planned known (a computed value with no prior one would otherwise read "known after apply").
  const plan = { ...r.plan, recheck: plannedRecheck(st, r.plan) };
  const { gpu_count, busbw_gbps, evidence } = st;
  const settled = abandonedStepVerdict(st, plan);
  if (settled !== undefined) return { plan: { ...plan, passed: settled, gpu_count, busbw_gbps, evidence } };
  // A firmware_ref not known yet may turn out a rolling update's gate: its verdict is not known either.
  const maybe = isUnknownValue(plan.firmware_ref);
  // A rolling update's gate runs in it, also on a node out of service (a failed firmware update quarantined it):
  // replacing the gate would replace its member too, whose create takes no rolling step.
  if (rollingGatePending(st, plan) || (maybe && st.passed !== false)) return { plan: { ...plan, passed: UNKNOWN } };
  // Evidence older than evidence_max_age: the gate's active checks run again, in place, on an idle node.
  if (plan.recheck !== st.recheck) return { plan: { ...plan, passed: UNKNOWN } };
  const held = heldForRepair(st, plan);
  if (held) return held;
  // A degraded node: re-run the gate. (A tainted failed run is replaced by the engine anyway.)
  if (st.passed === false) return { plan: { ...plan, passed: UNKNOWN }, requiresReplace: [path("passed")] };
  return planPolicyEdit(st, plan, r.diagnostics) ?? (isUnknownValue(r.plan.recheck) ? { plan } : undefined);
}
