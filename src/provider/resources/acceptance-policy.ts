/**
 * An edited acceptance policy re-judged against the evidence in state, at plan: a gate whose recorded evidence still
 * passes the new thresholds is updated in place (nothing re-runs, the cluster member keeps its gate); one the evidence
 * no longer covers re-runs the gate, and the plan says why, for that node. Pure: no backend calls.
 */
import { containsUnknown, parseDuration, type Value, valuesEqual } from "../../framework/index.js";
import { type AcceptanceEvidence, parseEvidence } from "../backends/index.js";
import { type AcceptanceConfig, type AcceptanceState, burnInOf, thresholdsOf } from "./acceptance-schema.js";
import { type Check, judge } from "./acceptance-verdict.js";

/** The attributes of the policy: an edit of one is re-judged, never a re-run by itself. */
export const POLICY_ATTRIBUTES = [
  "dcgm_level",
  "nccl_min_busbw_gbps",
  "burn_in",
  "expected_gpu_count",
  "allow_xid",
  "firmware",
] as const;

/** One of the policy attributes. */
export type PolicyAttribute = (typeof POLICY_ATTRIBUTES)[number];

/** The outcome of re-judging an edited policy. */
export interface Rejudged {
  /** The policy attributes whose recorded value changes (first recordings, state null, are not among them). */
  readonly changed: readonly string[];
  /** The checks the recorded evidence fails under the new policy; empty when it covers the new policy. */
  readonly uncovered: readonly Check[];
  /** The node as the evidence names it, else the machine id. */
  readonly node: string;
}

type Obj = Readonly<Record<string, unknown>>;
const obj = (v: unknown): Obj => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);

/** "72h" for 259200 s; seconds when not a whole number of hours or minutes. */
function duration(s: number): string {
  if (s % 3600 === 0) return `${s / 3600}h`;
  if (s % 60 === 0) return `${s / 60}m`;
  return `${s}s`;
}

/**
 * The burn-in length check: the evidence covers a burn-in as long as the one it ran. Evidence that does not record
 * the length it ran (`burn_in.requested_s`) covers no changed burn-in: the gate re-runs.
 */
function burnInCheck(e: AcceptanceEvidence, burnIn: string): Check {
  const ran = num(obj(e.burn_in).requested_s);
  const wanted = parseDuration(burnIn) / 1000;
  return {
    attribute: "burn_in",
    measured: ran === undefined ? "burn-in length not recorded" : `burn-in of ${duration(ran)} passed`,
    threshold: `${burnIn} without failure`,
    passed: ran !== undefined && ran >= wanted,
  };
}

/** The policy attributes `plan` changes from a recorded (non-null) value in `state`. */
function changedPolicy(state: AcceptanceState, plan: AcceptanceConfig): PolicyAttribute[] {
  return POLICY_ATTRIBUTES.filter((a) => {
    const was: Value = state[a] ?? null;
    return was !== null && !valuesEqual(plan[a] ?? null, was);
  });
}

/**
 * Re-judges the evidence recorded in `state` against the policy of `plan`; undefined when no recorded policy value
 * changes. A value first recorded (state null: right after an import, or an attribute new to the gate) is not
 * re-judged here, so an import re-runs nothing; the update's refresh judges it.
 */
export function rejudge(state: AcceptanceState, plan: AcceptanceConfig): Rejudged | undefined {
  const changed = changedPolicy(state, plan);
  if (changed.length === 0) return undefined;
  const e = parseEvidence(state.evidence);
  const node = (e && typeof e.node === "string" && e.node) || state.machine_id || "?";
  const unknown = changed.filter((a) => containsUnknown(plan[a] ?? null));
  if (unknown.length > 0) {
    const uncovered = unknown.map((a) => ({
      attribute: a,
      measured: "the recorded evidence",
      threshold: "a value known only at apply",
      passed: false,
    }));
    return { changed, uncovered, node };
  }
  if (!e) {
    const uncovered = [{ attribute: "evidence", measured: "none recorded", threshold: "evidence", passed: false }];
    return { changed, uncovered, node };
  }
  const checks = [...judge(e, thresholdsOf(plan)).checks];
  const burnIn = burnInOf(plan);
  if (changed.includes("burn_in") && burnIn !== null) checks.push(burnInCheck(e, burnIn));
  return { changed, uncovered: checks.filter((c) => !c.passed), node };
}
