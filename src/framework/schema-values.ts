/** Schema-aware operations on values that both resources and the server need. */
import type { Attribute, Attributes, Block } from "./schema.js";
import { BigNumber, Dynamic, isUnknown, type Value } from "./values.js";
import type { BlockNesting } from "./wire-schema.js";

/** A resource's config, plan or state: an object holding every attribute and block of its schema. */
export type ObjectValue = { readonly [key: string]: Value };

/** True for an object value (a record, not an array, unknown, number, …). */
export function isObjectValue(v: Value | undefined): v is ObjectValue {
  return (
    typeof v === "object" &&
    v !== null &&
    !Array.isArray(v) &&
    !isUnknown(v) &&
    !(v instanceof BigNumber) &&
    !(v instanceof Dynamic)
  );
}

/** The value an absent nested block has: null (single), an object of nulls (group), [] (list/set), {} (map). */
export function emptyBlockValue(nesting: BlockNesting, b: Block): Value {
  switch (nesting) {
    case "single":
      return null;
    case "group":
      return nullObject(b);
    case "list":
    case "set":
      return [];
    case "map":
      return {};
  }
}

/** An object of the block's type with every attribute null and every block empty (an import's starting state). */
export function nullObject(b: Block): ObjectValue {
  const out: Record<string, Value> = {};
  for (const name of Object.keys(b.attributes)) out[name] = null;
  for (const [name, nb] of Object.entries(b.blocks ?? {})) out[name] = emptyBlockValue(nb.nesting, nb.block);
  return out;
}

function mapObjects(nesting: string, v: Value, fn: (o: ObjectValue) => ObjectValue): Value {
  if (v === null || isUnknown(v)) return v;
  if (nesting === "single" || nesting === "group") return isObjectValue(v) ? fn(v) : v;
  if (Array.isArray(v)) return v.map((e) => (isObjectValue(e) ? fn(e) : e));
  if (isObjectValue(v)) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, isObjectValue(e) ? fn(e) : e]));
  return v;
}

function transformAttrs(attrs: Attributes, o: ObjectValue, fn: (a: Attribute, v: Value) => Value): ObjectValue {
  const out: Record<string, Value> = { ...o };
  for (const [name, a] of Object.entries(attrs)) {
    let v = fn(a, o[name] ?? null);
    if (a.kind === "nested") v = mapObjects(a.nesting, v, (inner) => transformAttrs(a.attributes, inner, fn));
    out[name] = v;
  }
  return out;
}

/** Applies `fn` to every attribute value at any depth (nested attributes and blocks), outermost first. */
export function transformAttributes(b: Block, v: Value, fn: (a: Attribute, v: Value) => Value): Value {
  if (!isObjectValue(v)) return v;
  const out: Record<string, Value> = { ...transformAttrs(b.attributes, v, fn) };
  for (const [name, nb] of Object.entries(b.blocks ?? {})) {
    out[name] = mapObjects(
      nb.nesting,
      v[name] ?? null,
      (inner) => transformAttributes(nb.block, inner, fn) as ObjectValue,
    );
  }
  return out;
}

/** What a block holds at any depth that the value passes below act on; a schema does not change, so it is cached. */
interface BlockFacts {
  /** A write-only attribute. */
  readonly writeOnly: boolean;
  /** A sensitive or write-only attribute (strings to redact). */
  readonly secret: boolean;
  /** A nested block. */
  readonly blocks: boolean;
}

const factsCache = new WeakMap<Block, BlockFacts>();

function attributeFacts(attrs: Attributes): { writeOnly: boolean; secret: boolean } {
  let writeOnly = false;
  let secret = false;
  for (const a of Object.values(attrs)) {
    const inner = a.kind === "nested" ? attributeFacts(a.attributes) : { writeOnly: false, secret: false };
    writeOnly ||= !!a.writeOnly || inner.writeOnly;
    secret ||= !!a.sensitive || !!a.writeOnly || inner.secret;
  }
  return { writeOnly, secret };
}

/** The facts of a block, computed once per block object. */
function factsOf(b: Block): BlockFacts {
  let f = factsCache.get(b);
  if (f) return f;
  const own = attributeFacts(b.attributes);
  const nested = Object.values(b.blocks ?? {}).map((nb) => factsOf(nb.block));
  f = {
    writeOnly: own.writeOnly || nested.some((n) => n.writeOnly),
    secret: own.secret || nested.some((n) => n.secret),
    blocks: nested.length > 0,
  };
  factsCache.set(b, f);
  return f;
}

/**
 * The value with every write-only attribute set to null (plans and states never hold them). A schema without any
 * returns the value itself: values are never mutated, so there is nothing to copy.
 */
export function nullWriteOnly(b: Block, v: Value): Value {
  if (!factsOf(b).writeOnly) return v;
  return transformAttributes(b, v, (a, x) => (a.writeOnly ? null : x));
}

function collectStrings(v: Value, out: Set<string>): void {
  if (typeof v === "string") out.add(v);
  else if (v instanceof Dynamic) collectStrings(v.value, out);
  else if (Array.isArray(v)) for (const e of v) collectStrings(e, out);
  else if (isObjectValue(v)) for (const e of Object.values(v)) collectStrings(e, out);
}

/** Every string held by a sensitive or write-only attribute, for redaction of diagnostics and logs. */
export function sensitiveStrings(b: Block, ...values: Value[]): string[] {
  if (!factsOf(b).secret) return [];
  const out = new Set<string>();
  for (const v of values) {
    transformAttributes(b, v, (a, x) => {
      if (a.sensitive || a.writeOnly) collectStrings(x, out);
      return x;
    });
  }
  return [...out];
}

/** The value with absent blocks in their canonical empty form ([] / {} / object of nulls), at any depth. */
export function fillEmptyBlocks(b: Block, v: Value): Value {
  if (!factsOf(b).blocks || !isObjectValue(v)) return v;
  const out: Record<string, Value> = { ...v };
  for (const [name, nb] of Object.entries(b.blocks ?? {})) {
    const cur = v[name] ?? null;
    const filled = cur === null ? emptyBlockValue(nb.nesting, nb.block) : cur;
    out[name] = mapObjects(nb.nesting, filled, (inner) => fillEmptyBlocks(nb.block, inner) as ObjectValue);
  }
  return out;
}
