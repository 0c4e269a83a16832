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
import type { AcceptanceConfig, AcceptanceState, acceptanceSchema } from "./acceptance-schema.js";
import { failureLines } from "./acceptance-verdict.js";

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
 * The recheck the plan sets: a new expiry of the recorded evidence of a passing gate ("expired:<measured_at>") once
 * it is older than evidence_max_age, else the recorded value.
 */
export function plannedRecheck(st: AcceptanceState, plan: AcceptanceConfig, now = Date.now()): string | null {
  const max = plan.evidence_max_age;
  if (max === null || isUnknownValue(max) || st.passed !== true) return st.recheck;
  const measured = parseEvidence(st.evidence)?.measured_at;
  const at = typeof measured === "string" ? Date.parse(measured) : Number.NaN;
  if (!Number.isFinite(at) || now - at < parseDuration(max)) return st.recheck;
  return `expired:${measured}`;
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
  const { state: st, plan } = r;
  if (st === null || plan === null) return undefined;
  // A firmware_ref not known yet may turn out a rolling update's gate: its verdict is not known either.
  const maybe = isUnknownValue(plan.firmware_ref);
  // A rolling update's gate runs in it, also on a node out of service (a failed firmware update quarantined it):
  // replacing the gate would replace its member too, whose create takes no rolling step.
  if (rollingGatePending(st, plan) || (maybe && st.passed !== false)) return { plan: { ...plan, passed: UNKNOWN } };
  // Evidence older than evidence_max_age: the gate's active checks run again, in place, on an idle node.
  const recheck = plannedRecheck(st, plan);
  if (recheck !== st.recheck) return { plan: { ...plan, recheck, passed: UNKNOWN } };
  const held = heldForRepair(st, plan);
  if (held) return held;
  // A degraded node: re-run the gate. (A tainted failed run is replaced by the engine anyway.)
  if (st.passed === false) return { plan: { ...plan, passed: UNKNOWN }, requiresReplace: [path("passed")] };
  return planPolicyEdit(st, plan, r.diagnostics);
}
