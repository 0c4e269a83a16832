/** What kind of change a planned resource change is, and which of its attributes move: shared by the cells. */
import type { ResourceChange } from "./plan-json.js";
import { attr } from "./values.js";

/** A change as a reviewer names it. */
export type Kind = "create" | "delete" | "replace" | "update" | "none";

export function kindOf(c: ResourceChange): Kind {
  const a = c.change.actions;
  if (a.includes("create") && a.includes("delete")) return "replace";
  if (a.includes("create")) return "create";
  if (a.includes("delete")) return "delete";
  if (a.includes("update")) return "update";
  return "none";
}

/** The engine re-runs the step because the last apply failed there. */
export const tainted = (c: ResourceChange) => c.action_reason === "replace_because_tainted";

/** Top-level attributes whose value differs between before and after (for "update (features)"). */
export function changedAttrs(c: ResourceChange): string[] {
  const before = (c.change.before ?? {}) as Record<string, unknown>;
  const after = (c.change.after ?? {}) as Record<string, unknown>;
  const unknown = (c.change.after_unknown ?? {}) as Record<string, unknown>;
  const keys = new Set([...Object.keys(after), ...Object.keys(unknown)]);
  return [...keys]
    .filter((k) => k !== "id" && k !== "timeouts")
    .filter((k) => unknown[k] === true || JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .filter((k) => k in after || before[k] !== undefined)
    .sort();
}

/** "update (a, b)", or "update" when no attribute reads as changed. */
export const updated = (c: ResourceChange) => {
  const attrs = changedAttrs(c);
  return attrs.length > 0 ? `update (${attrs.join(", ")})` : "update";
};

/**
 * A rolling ref that moves on a recorded member or gate (`image_ref`, `firmware_ref`): its before is known and its
 * after differs (or is unknown). A ref first recorded rolls nothing.
 */
export function refMoves(c: ResourceChange, name: "image_ref" | "firmware_ref"): boolean {
  if (!c.change.actions.includes("update")) return false;
  const before = attr(c.change, "before", name);
  return before.kind === "known" && JSON.stringify(before) !== JSON.stringify(attr(c.change, "after", name));
}
