/**
 * The engine's rules for a new state (objchange.AssertObjectCompatible): wholly known, every known planned value kept,
 * unknown placeholders' refinements honoured. Checked after apply, read, import, upgrade and data source reads.
 */
import type { AttributePath } from "../framework/diagnostics.js";
import type { Block } from "../framework/schema.js";
import { isObjectValue } from "../framework/schema-values.js";
import { typeOfAttribute, typeOfBlock } from "../framework/to-wire.js";
import {
  BigNumber,
  type CtyType,
  Dynamic,
  isUnknown,
  type Refinements,
  type Value,
  valuesEqual,
} from "../framework/values.js";
import { blockHasSensitive, checkType, hasSensitive, type Problem } from "./contract.js";
import { showValue } from "./show-value.js";

function unknownLeaves(v: Value, path: AttributePath, out: Problem[]): void {
  if (isUnknown(v)) {
    out.push({ path, what: "is still unknown after apply (every value must be known)" });
    return;
  }
  if (v instanceof Dynamic) unknownLeaves(v.value, path, out);
  if (Array.isArray(v)) for (let i = 0; i < v.length; i++) unknownLeaves(v[i], [...path, { index: i }], out);
  if (isObjectValue(v)) for (const [k, e] of Object.entries(v)) unknownLeaves(e, [...path, { attr: k }], out);
}

function num(v: Value): number {
  return v instanceof BigNumber ? Number(v.text) : (v as number);
}

function lengthOf(v: Value): number | undefined {
  if (Array.isArray(v)) return v.length;
  return isObjectValue(v) ? Object.keys(v).length : undefined;
}

/** The promises an unknown placeholder made (refinements): apply must keep them. */
function refinementBreach(r: Refinements, a: Value): string | undefined {
  if (a === null) return r.notNull ? "was planned as definitely not null" : undefined;
  if (r.stringPrefix !== undefined && typeof a === "string" && !a.startsWith(r.stringPrefix)) {
    return `was planned to start with ${JSON.stringify(r.stringPrefix)}`;
  }
  if (typeof a === "number" || a instanceof BigNumber) {
    const n = num(a);
    const [lo, loInc] = r.numberLower ?? [Number.NEGATIVE_INFINITY, true];
    const [hi, hiInc] = r.numberUpper ?? [Number.POSITIVE_INFINITY, true];
    if (n < num(lo) || (n === num(lo) && !loInc) || n > num(hi) || (n === num(hi) && !hiInc)) {
      return `was planned to lie within ${loInc ? "[" : "("}${String(lo)}, ${String(hi)}${hiInc ? "]" : ")"}`;
    }
  }
  const len = lengthOf(a);
  if (len !== undefined && (len < (r.lengthLower ?? 0) || len > (r.lengthUpper ?? Number.POSITIVE_INFINITY))) {
    return `was planned to have between ${r.lengthLower ?? 0} and ${r.lengthUpper ?? "any number of"} elements`;
  }
  return undefined;
}

function compatible(p: Value, a: Value, type: CtyType): boolean {
  const tmp: Problem[] = [];
  compat(p, a, type, [], false, tmp);
  return tmp.length === 0;
}

function compat(p: Value, a: Value, type: CtyType, path: AttributePath, s: boolean, out: Problem[]): void {
  if (isUnknown(a)) return; // reported once by unknownLeaves
  if (isUnknown(p)) {
    const breach = refinementBreach(p.refinements, a);
    if (breach) out.push({ path, what: `${breach}, but apply returned ${showValue(a, s)}` });
    return;
  }
  const changed = (): void => {
    out.push({ path, what: `planned ${showValue(p, s)}, but apply returned ${showValue(a, s)}` });
  };
  if (p === null || a === null) {
    if (p !== a) changed();
    return;
  }
  if (type === "dynamic") {
    if (!(p instanceof Dynamic) || !(a instanceof Dynamic) || JSON.stringify(p.type) !== JSON.stringify(a.type)) {
      changed();
      return;
    }
    compat(p.value, a.value, p.type, path, s, out);
    return;
  }
  if (typeof type === "string") {
    if (!valuesEqual(p, a)) changed();
    return;
  }
  const [kind, inner] = type;
  if (kind === "set") {
    // Set elements have no identity: every planned element must correlate with some actual one and vice versa;
    // unknown elements may coalesce, so the set may shrink but never grow.
    const pa = p as Value[];
    const aa = a as Value[];
    const elem = inner as CtyType;
    const ok =
      pa.every((x) => aa.some((y) => compatible(x, y, elem))) &&
      aa.every((y) => pa.some((x) => compatible(x, y, elem)));
    if (!ok || aa.length > pa.length) changed();
    return;
  }
  if (kind === "list" || kind === "tuple") {
    const pa = p as Value[];
    const aa = a as Value[];
    if (pa.length !== aa.length) {
      changed();
      return;
    }
    for (let i = 0; i < pa.length; i++) {
      const t = kind === "tuple" ? (inner as CtyType[])[i] : (inner as CtyType);
      compat(pa[i], aa[i], t, [...path, { index: i }], s, out);
    }
    return;
  }
  const po = p as Record<string, Value>;
  const ao = a as Record<string, Value>;
  if (kind === "map") {
    if (Object.keys(po).sort().join("\u0000") !== Object.keys(ao).sort().join("\u0000")) {
      changed();
      return;
    }
    for (const k of Object.keys(po)) compat(po[k], ao[k], inner as CtyType, [...path, { key: k }], s, out);
    return;
  }
  for (const [k, t] of Object.entries(inner as Record<string, CtyType>)) {
    compat(po[k] ?? null, ao[k] ?? null, t, [...path, { attr: k }], s, out);
  }
}

function compatBlock(b: Block, p: Value, a: Value, path: AttributePath, out: Problem[]): void {
  if (!isObjectValue(p) || !isObjectValue(a)) return;
  for (const [n, at] of Object.entries(b.attributes)) {
    if (at.writeOnly) continue;
    compat(p[n] ?? null, a[n] ?? null, typeOfAttribute(n, at), [...path, { attr: n }], hasSensitive(at), out);
  }
  for (const [n, nb] of Object.entries(b.blocks ?? {})) {
    const inner = typeOfBlock(nb.block);
    const type: CtyType = nb.nesting === "single" || nb.nesting === "group" ? inner : [nb.nesting, inner];
    compat(p[n] ?? null, a[n] ?? null, type, [...path, { attr: n }], blockHasSensitive(nb.block), out);
  }
}

/** Breaches after create/update: wrong shape, unknowns left, or a known planned value that changed. */
export function checkApplied(b: Block, planned: Value, actual: Value): Problem[] {
  const out: Problem[] = [];
  if (actual === null) return [{ path: [], what: "apply returned null for an object that was not being deleted" }];
  checkType(actual, typeOfBlock(b), [], out);
  if (out.length > 0) return out;
  unknownLeaves(actual, [], out);
  compatBlock(b, planned, actual, [], out);
  return out;
}

/** Breaches in a state returned by read, import or upgrade: wrong shape or unknowns. */
export function checkState(b: Block, v: Value): Problem[] {
  const out: Problem[] = [];
  if (v === null) return out;
  checkType(v, typeOfBlock(b), [], out);
  if (out.length === 0) unknownLeaves(v, [], out);
  return out;
}
