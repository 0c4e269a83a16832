/**
 * The health remediation ladder in a plan (src/provider/shared/remediation.ts): each node's rung as its deployment,
 * gate and member carry it — the step the apply takes, a node held for repair, a ladder reset once the node recovered.
 */
import { REPAIR, rungLabel, rungOf } from "../../provider/shared/remediation.js";
import { kindOf } from "./change-kind.js";
import type { NodeEvent } from "./effects.js";
import type { ResourceChange } from "./plan-json.js";
import { attr, knownText } from "./values.js";

/** The rung a change moves to ("" = reset), when its remediation is known on both sides and moves. */
export function rungMove(c: ResourceChange): { readonly from: string; readonly to: string } | undefined {
  if (kindOf(c) !== "update") return undefined;
  const from = knownText(attr(c.change, "before", "remediation"));
  const to = knownText(attr(c.change, "after", "remediation"));
  return from !== undefined && to !== undefined && from !== to ? { from, to } : undefined;
}

/** The event a rung counts as. */
function eventOf(to: string): NodeEvent | undefined {
  const step = rungOf(to).step;
  if (step === "power_cycle") return "power-cycle";
  if (step === "reimage") return "reimage";
  return step === REPAIR ? "repair" : undefined;
}

/** Whether a change moves its recheck (the gate's evidence expired): known on both sides and new. */
export function recheckMoves(c: ResourceChange): boolean {
  if (kindOf(c) !== "update") return false;
  const to = knownText(attr(c.change, "after", "recheck"));
  return to !== undefined && to !== "" && to !== knownText(attr(c.change, "before", "recheck"));
}

/** The deployment's cell of a ladder move: "health step: power cycle", "health: ladder reset (recovered)". */
export function deploymentRung(c: ResourceChange, ev: Set<NodeEvent>): string | undefined {
  const m = rungMove(c);
  if (!m) return undefined;
  const e = eventOf(m.to);
  if (e) ev.add(e);
  if (m.to === "") return "health: ladder reset (recovered)";
  return m.to === REPAIR ? "health: quarantine for repair (every step tried)" : `health step: ${rungLabel(m.to)}`;
}

/** The gate's cell of a ladder move. */
export function gateRung(c: ResourceChange, ev: Set<NodeEvent>): string | undefined {
  const m = rungMove(c);
  if (!m) return undefined;
  if (m.to === "") return "record the ladder reset";
  if (m.to === REPAIR) return "keep the failed verdict (held for repair)";
  ev.add("acceptance");
  return `re-run after the ${rungLabel(m.to)}`;
}

/** The member's cell of a ladder move. */
export function memberRung(c: ResourceChange, ev: Set<NodeEvent>, where: string): string | undefined {
  const m = rungMove(c);
  if (!m) return undefined;
  if (m.to === "") {
    return knownText(attr(c.change, "before", "joined")) === "false"
      ? `rejoin${where} (recovered)`
      : "record the ladder reset";
  }
  if (m.to === REPAIR) return `drain, hold out of${where} for repair (within the budget)`;
  ev.add("rejoin");
  return `drain, ${rungLabel(m.to)}, gate, rejoin${where} (one step, within the budget)`;
}

/** Chain types whose health steps and re-checks `--only-health` lets through. */
const HEALTH_TYPES = new Set(["rackform_deployment", "rackform_acceptance", "rackform_cluster_member"]);

/**
 * The planned changes that are not health steps (a rung moving, a re-check), as "address actions": what a scheduled
 * pipeline must not apply unattended. Empty when the plan holds only health steps (or nothing).
 */
export function notHealthSteps(changes: readonly ResourceChange[]): string[] {
  return changes
    .filter((c) => !c.change.actions.every((a) => a === "no-op" || a === "read"))
    .filter((c) => !(HEALTH_TYPES.has(c.type) && (rungMove(c) !== undefined || recheckMoves(c))))
    .map((c) => `${c.address} ${c.change.actions.join(",")}`);
}
