/**
 * The cells of a node's in-service steps: its acceptance gate and its cluster member, including the rolling updates
 * a member carries out inside its disruption budget (a new image_ref: reimage; a new firmware_ref: firmware reset).
 */
import { coveredPolicy, uncoveredPolicy } from "./acceptance-policy.js";
import { changedAttrs, kindOf, refMoves, tainted, updated } from "./change-kind.js";
import type { NodeEvent } from "./effects.js";
import type { ResourceChange } from "./plan-json.js";
import { gateRung, memberRung, recheckMoves } from "./remediation.js";
import { attestNote, lastAttestation } from "./trust.js";
import { attr, current, knownText } from "./values.js";

/** The failures the last gate recorded in its evidence (rackform-acceptance/v1), as a reviewer reads them. */
function failures(c: ResourceChange): string {
  const evidence = knownText(attr(c.change, "before", "evidence"));
  if (!evidence) return "";
  try {
    const parsed = JSON.parse(evidence) as { failures?: unknown };
    const list = Array.isArray(parsed.failures) ? parsed.failures.filter((f) => typeof f === "string") : [];
    return list.length > 0 ? `: ${list.slice(0, 2).join("; ")}${list.length > 2 ? "; …" : ""}` : "";
  } catch {
    return "";
  }
}

/** A gate whose run a rolling reimage carries out: a new image_ref over a recorded one, or a run still to come. */
function rollingGate(c: ResourceChange): boolean {
  const before = attr(c.change, "before", "image_ref");
  if (before.kind !== "known") return false;
  return changedAttrs(c).includes("image_ref") || attr(c.change, "before", "passed").kind === "absent";
}

export function acceptance(c: ResourceChange, ev: Set<NodeEvent>): string {
  switch (kindOf(c)) {
    case "create":
      ev.add("acceptance");
      return `run${attestNote(c)}`;
    case "replace": {
      ev.add("acceptance");
      const rerun = `re-run${attestNote(c)}`;
      if (tainted(c)) return `${rerun} (failed last apply${failures(c)}${lastAttestation(c)})`;
      if (knownText(attr(c.change, "before", "passed")) === "false")
        return `${rerun} (no longer passing${failures(c)})`;
      return uncoveredPolicy(c) ? `${rerun} (evidence does not cover ${uncoveredPolicy(c)})` : rerun;
    }
    case "update": {
      const health = gateRung(c, ev);
      if (health) return health;
      if (recheckMoves(c)) {
        ev.add("acceptance");
        return "re-check (evidence expired; on an idle node)";
      }
      if (rollingGate(c)) {
        ev.add("acceptance");
        return "re-run after the rolling reimage";
      }
      if (refMoves(c, "firmware_ref")) {
        ev.add("acceptance");
        return "re-run after the firmware update";
      }
      // An edited policy the evidence covers runs nothing: the gate only records it.
      const covered = coveredPolicy(c);
      if (covered) return covered;
      ev.add("acceptance");
      return `re-check: ${updated(c)}`;
    }
    case "delete":
      return "drop the record";
    default:
      return "";
  }
}

/** A member's rolling update (a new image_ref and/or firmware_ref), as the one step it runs; undefined when neither moves. */
function rollingMember(c: ResourceChange, where: string): string | undefined {
  const image = refMoves(c, "image_ref");
  const firmware = refMoves(c, "firmware_ref");
  if (!image && !firmware) return undefined;
  const work = image ? (firmware ? "reimage (firmware applied at its boot)" : "reimage") : "firmware update and reset";
  return `drain, ${work}, gate, rejoin${where} (one step, within the budget)`;
}

export function cluster(c: ResourceChange, ev: Set<NodeEvent>): string {
  const scheduler = knownText(current(c.change, "scheduler"));
  const where = scheduler ? ` ${scheduler}` : "";
  switch (kindOf(c)) {
    case "create":
      ev.add("join");
      return `join${where}`;
    case "replace": {
      ev.add("rejoin");
      // Onto another node name (a rename): the old node leaves its scheduler for good, the new one joins.
      const [from, to] = (["before", "after"] as const).map((side) => knownText(attr(c.change, side, "node")));
      if (from !== undefined && to !== undefined && from !== to)
        return `drain, leave as ${from}, join${where} as ${to}`;
      return `drain, rejoin${where}`;
    }
    case "delete": {
      ev.add("leave");
      const drain = knownText(attr(c.change, "before", "drain_on_destroy"));
      return drain === "false" ? `leave${where}` : `drain, leave${where}`;
    }
    case "update": {
      const health = memberRung(c, ev, where);
      if (health) return health;
      if (recheckMoves(c)) {
        ev.add("rejoin");
        return `if idle: drain, gate, rejoin${where} (within the budget)`;
      }
      const rolling = rollingMember(c, where);
      if (rolling) {
        ev.add("rejoin");
        return rolling;
      }
      return knownText(attr(c.change, "before", "joined")) === "false" ? "rejoin (not joined now)" : updated(c);
    }
    default:
      return "";
  }
}
