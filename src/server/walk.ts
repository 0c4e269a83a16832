/**
 * Walks a plan alongside its config and prior state, schema-guided, pairing collection elements
 * (lists by index, maps by key, sets by their configurable attributes).
 */
import type { AttributePath } from "../framework/diagnostics.js";
import { setOwn } from "../framework/json-value.js";
import type { Attribute, Attributes, Block, NestedBlock } from "../framework/schema.js";
import { isObjectValue, type ObjectValue } from "../framework/schema-values.js";
import { isUnknown, type Value, valuesEqual } from "../framework/values.js";

/** The three values of one attribute or block during planning. */
export interface Triple {
  readonly config: Value;
  readonly prior: Value;
  readonly plan: Value;
}

/** A schema node: an attribute or a nested block. */
export type SchemaNode =
  | { readonly kind: "attr"; readonly attr: Attribute }
  | { readonly kind: "block"; readonly nb: NestedBlock };

/** Called for each node; returns the node's new plan value (children are then walked inside that value). */
export type PlanVisitor = (node: SchemaNode, t: Triple, path: AttributePath) => Value | Promise<Value>;

function field(v: Value, name: string): Value {
  // Own properties only: a map key such as "__proto__" is data, not the prototype.
  return isObjectValue(v) && Object.hasOwn(v, name) ? (v[name] ?? null) : null;
}

/** Attributes a user configures: used to recognise the same set element in config, plan and prior state. */
function configurable(attrs: Attributes): string[] {
  return Object.entries(attrs)
    .filter(([, a]) => !a.computed)
    .map(([n]) => n);
}

function sameElement(keys: string[], a: Value, b: Value): boolean {
  if (!isObjectValue(a) || !isObjectValue(b)) return valuesEqual(a, b);
  return keys.every((k) => valuesEqual(a[k] ?? null, b[k] ?? null));
}

/** The element of `others` that corresponds to `elem` at index `i` of a set. */
function setCounterpart(keys: string[], elem: Value, i: number, others: Value, sameLength: boolean): Value {
  if (!Array.isArray(others)) return null;
  if (keys.length === 0) return sameLength ? (others[i] ?? null) : null;
  const found = others.find((o) => sameElement(keys, elem, o));
  if (found !== undefined) return found;
  return sameLength ? (others[i] ?? null) : null;
}

/** Walks the elements of a nested attribute or block value, returning the rebuilt value. */
export async function mapNested(
  nesting: string,
  attrs: Attributes,
  t: Triple,
  path: AttributePath,
  fn: (t: Triple, path: AttributePath) => Promise<Value>,
): Promise<Value> {
  const { plan } = t;
  if (plan === null || isUnknown(plan)) return plan;
  if (nesting === "single" || nesting === "group") return fn(t, path);
  if (nesting === "map") {
    if (!isObjectValue(plan)) return plan;
    const out: Record<string, Value> = {};
    for (const [k, e] of Object.entries(plan)) {
      setOwn(
        out,
        k,
        await fn({ plan: e, config: field(t.config, k), prior: field(t.prior, k) }, [...path, { key: k }]),
      );
    }
    return out;
  }
  if (!Array.isArray(plan)) return plan;
  const keys = configurable(attrs);
  const out: Value[] = [];
  for (let i = 0; i < plan.length; i++) {
    const e = plan[i];
    if (nesting === "list") {
      const at = (v: Value) => (Array.isArray(v) ? (v[i] ?? null) : null);
      out.push(await fn({ plan: e, config: at(t.config), prior: at(t.prior) }, [...path, { index: i }]));
    } else {
      // The engine's attribute paths cannot address a set element; diagnostics point at the set itself.
      const sameLen = (v: Value) => Array.isArray(v) && v.length === plan.length;
      const config = setCounterpart(keys, e, i, t.config, sameLen(t.config));
      const prior = setCounterpart(keys, e, i, t.prior, sameLen(t.prior));
      out.push(await fn({ plan: e, config, prior }, path));
    }
  }
  return out;
}

async function walkAttributes(
  attrs: Attributes,
  t: Triple,
  path: AttributePath,
  visit: PlanVisitor,
  out: Record<string, Value>,
): Promise<void> {
  for (const [name, a] of Object.entries(attrs)) {
    const p = [...path, { attr: name }];
    const ct: Triple = { config: field(t.config, name), prior: field(t.prior, name), plan: field(t.plan, name) };
    let v = await visit({ kind: "attr", attr: a }, ct, p);
    if (a.kind === "nested") {
      v = await mapNested(a.nesting, a.attributes, { ...ct, plan: v }, p, async (et, ep) => {
        if (!isObjectValue(et.plan)) return et.plan;
        const inner: Record<string, Value> = { ...et.plan };
        await walkAttributes(a.attributes, et, ep, visit, inner);
        return inner;
      });
    }
    out[name] = v;
  }
}

/** Visits every attribute and block of `b` (depth first, parents before children) and rebuilds the plan. */
export async function walkPlan(b: Block, t: Triple, path: AttributePath, visit: PlanVisitor): Promise<Value> {
  if (!isObjectValue(t.plan)) return t.plan;
  const out: Record<string, Value> = { ...(t.plan as ObjectValue) };
  await walkAttributes(b.attributes, t, path, visit, out);
  for (const [name, nb] of Object.entries(b.blocks ?? {})) {
    const p = [...path, { attr: name }];
    const ct: Triple = { config: field(t.config, name), prior: field(t.prior, name), plan: field(t.plan, name) };
    const v = await visit({ kind: "block", nb }, ct, p);
    out[name] = await mapNested(nb.nesting, nb.block.attributes, { ...ct, plan: v }, p, (et, ep) =>
      walkPlan(nb.block, et, ep, visit),
    );
  }
  return out;
}
