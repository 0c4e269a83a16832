/** Small value helpers the RPCs share. */
import { type AttributePath, formatPath } from "../framework/diagnostics.js";
import { isObjectValue } from "../framework/schema-values.js";
import { Dynamic, isUnknown, type Value } from "../framework/values.js";

/** The value at `path`, or null when the path leads nowhere. */
export function valueAt(v: Value, path: AttributePath): Value {
  let cur: Value = v;
  for (const s of path) {
    if ("index" in s) cur = Array.isArray(cur) ? (cur[s.index] ?? null) : null;
    else {
      const k = "attr" in s ? s.attr : s.key;
      cur = isObjectValue(cur) ? (cur[k] ?? null) : null;
    }
  }
  return cur;
}

/** The value with every unknown replaced by null (what the engine records for a failed apply). */
export function unknownAsNull(v: Value): Value {
  if (isUnknown(v)) return null;
  if (v instanceof Dynamic) return new Dynamic(v.type, unknownAsNull(v.value));
  if (Array.isArray(v)) return v.map(unknownAsNull);
  if (isObjectValue(v)) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, unknownAsNull(e)]));
  return v;
}

/** Paths sorted by their HCL rendering, duplicates removed (a deterministic requires_replace). */
export function normalisePaths(paths: readonly AttributePath[]): AttributePath[] {
  const byText = new Map<string, AttributePath>();
  for (const p of paths) byText.set(formatPath(p), p);
  return [...byText.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}
