/**
 * Reading one attribute of a planned change with its sensitivity and unknown-ness, so that the summary can print
 * "(sensitive)" or "(known after apply)" in its place and never the value itself.
 */
import type { PlanChange, ValueMask } from "./plan-json.js";

/** An attribute as the summary may show it. */
export type Shown =
  | { readonly kind: "known"; readonly value: unknown }
  | { readonly kind: "sensitive" }
  | { readonly kind: "unknown" }
  | { readonly kind: "absent" };

/** Printed in place of a sensitive value. */
export const SENSITIVE = "(sensitive)";
/** Printed in place of a value the engine learns only during apply. */
export const UNKNOWN = "(known after apply)";

type Path = readonly (string | number)[];

function masked(mask: ValueMask | undefined, path: Path): boolean {
  let m: unknown = mask;
  for (const step of path) {
    if (m === true) return true;
    if (typeof m !== "object" || m === null) return false;
    m = (m as Record<string | number, unknown>)[step];
  }
  if (m === true) return true;
  // A mask object with any true leaf below means part of the value is hidden: hide it whole.
  return typeof m === "object" && m !== null && JSON.stringify(m).includes("true");
}

function dig(value: unknown, path: Path): unknown {
  let v = value;
  for (const step of path) {
    if (typeof v !== "object" || v === null) return undefined;
    v = (v as Record<string | number, unknown>)[step];
  }
  return v;
}

/** The attribute at `path` of the `before` or `after` side of a change. */
export function attr(change: PlanChange, side: "before" | "after", ...path: Path): Shown {
  const sensitive = side === "before" ? change.before_sensitive : change.after_sensitive;
  if (masked(sensitive, path)) return { kind: "sensitive" };
  if (side === "after" && masked(change.after_unknown, path)) return { kind: "unknown" };
  const v = dig(side === "before" ? change.before : change.after, path);
  return v === undefined || v === null ? { kind: "absent" } : { kind: "known", value: v };
}

/** The known value as a string, when it is a plain string, number or boolean. */
export function knownText(s: Shown): string | undefined {
  if (s.kind !== "known") return undefined;
  const v = s.value;
  return typeof v === "string" || typeof v === "number" || typeof v === "boolean" ? String(v) : undefined;
}

/** What a table cell shows for an attribute: its value, or the placeholder that stands for it. */
export function display(s: Shown): string {
  switch (s.kind) {
    case "sensitive":
      return SENSITIVE;
    case "unknown":
      return UNKNOWN;
    case "absent":
      return "—";
    default:
      return knownText(s) ?? JSON.stringify(s.value);
  }
}

/** The attribute from `after` when the change has one, else from `before` (a delete has no after). */
export function current(change: PlanChange, ...path: Path): Shown {
  const after = change.after === null || change.after === undefined ? undefined : attr(change, "after", ...path);
  if (after && after.kind !== "absent") return after;
  return attr(change, "before", ...path);
}
