/**
 * Parsing of slurmrestd node payloads. data_parser v0.0.41 (and v0.0.39+) sends `state` as an array of flags and
 * features as arrays; v0.0.38 (Slurm 22.05) sent `state` as a lower-case string plus `state_flags`, and features as
 * comma-separated strings. Both are accepted so that an older slurmrestd is read correctly.
 */
import type { SlurmRestError } from "./errors.js";
import type { SlurmNode } from "./types.js";

const BUSY = new Set(["ALLOCATED", "MIXED", "COMPLETING"]);
const NOT_SCHEDULABLE = new Set([
  "DOWN",
  "DRAIN",
  "FAIL",
  "FUTURE",
  "UNKNOWN",
  "INVALID",
  "INVALID_REG",
  "POWERED_DOWN",
]);

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function list(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String).filter((s) => s.length > 0);
  if (typeof v === "string")
    return v
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s.length > 0 && s !== "(null)");
  return [];
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

/** A time in seconds (v0.0.38: a number; v0.0.39+: {set, infinite, number}) as ms; undefined when unset or zero. */
function epochMs(v: unknown): number | undefined {
  const n = isObj(v) ? (v.set === true && v.infinite !== true ? v.number : undefined) : v;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n * 1000 : undefined;
}

/** The upper-case state array of a node object, from either encoding; undefined when there is none. */
export function stateArray(node: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(node.state)) return node.state.map((s) => String(s).toUpperCase());
  if (typeof node.state === "string") {
    // v0.0.38: "idle" or "idle+drain" style base, flags apart.
    const parts = node.state.toUpperCase().split("+");
    return [...new Set([...parts, ...list(node.state_flags).map((s) => s.toUpperCase())])];
  }
  return undefined;
}

/** A node object, or a message naming what is missing. */
export function parseNode(raw: unknown): SlurmNode | string {
  if (!isObj(raw)) return "a node entry is not an object";
  if (typeof raw.name !== "string" || !raw.name) return "a node entry has no name";
  const state = stateArray(raw);
  if (!state || state.length === 0) return `node ${raw.name} has no state`;
  const drain = state.includes("DRAIN");
  const busy = state.some((s) => BUSY.has(s));
  return {
    name: raw.name,
    state,
    baseState: state[0],
    drain,
    drained: drain && !busy,
    draining: drain && busy,
    down: state.includes("DOWN") || state.includes("FAIL"),
    schedulable: !state.some((s) => NOT_SCHEDULABLE.has(s)),
    reason: str(raw.reason),
    reasonSetByUser: str(raw.reason_set_by_user),
    reasonChangedAt: epochMs(raw.reason_changed_at),
    features: list(raw.features),
    activeFeatures: list(raw.active_features),
    partitions: list(raw.partitions),
    gres: str(raw.gres),
    comment: str(raw.comment),
    slurmdStartedAt: epochMs(raw.slurmd_start_time),
  };
}

/** `errors[]` of a slurmrestd body (empty when absent or not JSON). */
export function restErrors(body: unknown): SlurmRestError[] {
  if (!isObj(body) || !Array.isArray(body.errors)) return [];
  return body.errors.filter(isObj).map((e) => ({
    error: typeof e.error === "string" ? e.error : undefined,
    // v0.0.38 and older named the number `errno`.
    error_number:
      typeof e.error_number === "number" ? e.error_number : typeof e.errno === "number" ? e.errno : undefined,
    description: typeof e.description === "string" ? e.description : undefined,
    source: typeof e.source === "string" ? e.source : undefined,
  }));
}

/** One line for a message: "Invalid node state specified (2028): Failure to update node n1". */
export function describeErrors(errors: readonly SlurmRestError[]): string {
  return errors
    .map((e) => {
      const head = e.error ?? "error";
      const num = e.error_number !== undefined ? ` (${e.error_number})` : "";
      return `${head}${num}${e.description && e.description !== head ? `: ${e.description}` : ""}`;
    })
    .join("; ");
}
