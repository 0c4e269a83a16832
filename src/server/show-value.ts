/** Renders values for provider-bug diagnostics, hiding sensitive ones and keeping details short. */
import { BigNumber, Dynamic, isUnknown, type Value } from "../framework/values.js";

function render(v: Value): string {
  if (v === null) return "null";
  if (isUnknown(v)) return "(known after apply)";
  if (v instanceof BigNumber) return v.text;
  if (v instanceof Dynamic) return render(v.value);
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v !== "object") return String(v);
  if (Array.isArray(v)) return `[${v.map(render).join(", ")}]`;
  return `{${Object.entries(v)
    .map(([k, e]) => `${k} = ${render(e)}`)
    .join(", ")}}`;
}

/** A short rendering of `v`, or "(sensitive value)". */
export function showValue(v: Value, sensitive: boolean): string {
  if (sensitive && v !== null && !isUnknown(v)) return "(sensitive value)";
  const s = render(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
