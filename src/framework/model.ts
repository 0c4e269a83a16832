/**
 * Typed resource models: a schema yields the TS type of its config, plan and state (`ModelOf`), and `decode` /
 * `encode` convert between a Value and that model once, at the handler boundary (define-resource.ts).
 */
import type { Attribute, Attributes, Block, NestedBlock } from "./schema.js";
import { isObjectValue } from "./schema-values.js";
import { ValueTypeError } from "./value-access.js";
import { BigNumber, type CtyType, isUnknown, type Unknown, type Value } from "./values.js";

/**
 * Which values a model may hold unknown: "state" none; "plan" (at apply) computed attributes only; "config" (at
 * plan, validation) any attribute, since config may come from another resource's output.
 */
export type ModelMode = "state" | "plan" | "config";

/** A value that may still be unknown: narrow it with `isUnknownValue` before use. */
export type Unknowable<T> = T | Unknown;

/** True when a model value is unknown. */
export function isUnknownValue<T>(v: Unknowable<T>): v is Unknown {
  return isUnknown(v);
}

/** The TS type of a cty type's known value (numbers as JS numbers). */
export type CtyTs<T> = CtyType extends T
  ? Value
  : T extends "string"
    ? string
    : T extends "number"
      ? number
      : T extends "bool"
        ? boolean
        : T extends readonly ["list" | "set", infer E]
          ? readonly CtyTs<E>[]
          : T extends readonly ["map", infer E]
            ? { readonly [key: string]: CtyTs<E> }
            : T extends readonly ["object", infer F, ...unknown[]]
              ? { readonly [K in keyof F]: CtyTs<F[K]> | null }
              : Value;

type Nest<N, T> = N extends "single" | "group" ? T : N extends "map" ? { readonly [key: string]: T } : readonly T[];

type Known<A, M extends ModelMode> = A extends {
  readonly kind: "nested";
  readonly nesting: infer N;
  readonly attributes: infer S;
}
  ? Nest<N, AttrsModel<S, M>>
  : A extends { readonly type: infer T }
    ? CtyTs<T>
    : Value;

type Nullable<A, T> = A extends { readonly required: true } ? T : T | null;

type Field<A, M extends ModelMode> = M extends "config"
  ? Unknowable<Nullable<A, Known<A, M>>>
  : M extends "plan"
    ? A extends { readonly computed: true }
      ? Unknowable<Nullable<A, Known<A, M>>>
      : Nullable<A, Known<A, M>>
    : Nullable<A, Known<A, M>>;

type AttrsModel<S, M extends ModelMode> = string extends keyof S
  ? { readonly [key: string]: Value }
  : { readonly [K in keyof S]: Field<S[K], M> };

type BlockField<B, M extends ModelMode> = B extends { readonly nesting: infer N; readonly block: infer I }
  ? N extends "single"
    ? ModelOf<I, M> | null
    : Nest<N, ModelOf<I, M>>
  : Value;

type BlocksModel<S, M extends ModelMode> = S extends { readonly blocks: infer Bs }
  ? { readonly [K in keyof Bs]: BlockField<Bs[K], M> }
  : unknown;

/** The model of a schema (or block): each snake_case attribute and block by its TS type; `string | null` unless required. */
export type ModelOf<S, M extends ModelMode = "state"> = S extends { readonly attributes: infer A }
  ? AttrsModel<A, M> & BlocksModel<S, M>
  : never;

type Out = { [key: string]: unknown };

function fail(where: string, what: string): never {
  throw new ValueTypeError(`${where || "the value"} ${what}`);
}

function decodeTyped(type: CtyType, v: Value, where: string, unknowns: boolean): unknown {
  if (v === null) return null;
  if (isUnknown(v)) return unknowns ? v : fail(where, "is unknown here");
  if (type === "dynamic") return v;
  if (type === "number") {
    if (v instanceof BigNumber) return Number(v.text);
    return typeof v === "number" ? v : fail(where, "is not a number");
  }
  if (type === "string" || type === "bool") {
    return typeof v === (type === "bool" ? "boolean" : "string") ? v : fail(where, `is not a ${type}`);
  }
  const [kind, inner] = type;
  if (kind === "list" || kind === "set" || kind === "tuple") {
    if (!Array.isArray(v)) return fail(where, `is not a ${kind}`);
    const el = (i: number): CtyType => (kind === "tuple" ? (inner as readonly CtyType[])[i] : (inner as CtyType));
    return v.map((x: Value, i: number) => decodeTyped(el(i), x, `${where}[${i}]`, unknowns));
  }
  if (!isObjectValue(v)) return fail(where, `is not a ${kind}`);
  const out: Out = {};
  for (const [k, x] of Object.entries(v)) {
    const t = kind === "map" ? (inner as CtyType) : (inner as { readonly [n: string]: CtyType })[k];
    if (t === undefined) fail(`${where}.${k}`, "is not in the object type");
    out[k] = decodeTyped(t, x, `${where}.${k}`, unknowns);
  }
  return out;
}

type Nesting = "single" | "group" | "list" | "set" | "map";

function eachNested(nesting: Nesting, v: Value, where: string, fn: (x: Value, w: string) => unknown): unknown {
  if (v === null) return null;
  if (nesting === "single" || nesting === "group") return fn(v, where);
  if (nesting === "map") {
    if (!isObjectValue(v)) return fail(where, "is not a map");
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fn(x, `${where}["${k}"]`)]));
  }
  if (!Array.isArray(v)) return fail(where, `is not a ${nesting}`);
  return v.map((x: Value, i: number) => fn(x, `${where}[${i}]`));
}

function decodeAttr(a: Attribute, v: Value, where: string, unknowns: boolean): unknown {
  if (a.kind === "typed") return decodeTyped(a.type, v, where, unknowns);
  if (isUnknown(v)) return unknowns ? v : fail(where, "is unknown here");
  return eachNested(a.nesting, v, where, (x, w) => decodeObject(a.attributes, undefined, x, w, unknowns));
}

function decodeObject(attrs: Attributes, blocks: Block["blocks"], v: Value, where: string, unknowns: boolean): Out {
  if (isUnknown(v) && unknowns) return v as unknown as Out;
  if (!isObjectValue(v)) return fail(where, "is not an object");
  const out: Out = {};
  for (const [name, a] of Object.entries(attrs)) {
    const w = where ? `${where}.${name}` : name;
    if (v[name] === undefined) fail(w, "is missing");
    out[name] = decodeAttr(a, v[name], w, unknowns);
  }
  for (const [name, nb] of Object.entries(blocks ?? {}) as [string, NestedBlock][]) {
    const w = where ? `${where}.${name}` : name;
    const x = v[name] ?? null;
    out[name] = eachNested(nb.nesting, x, w, (y, w2) =>
      decodeObject(nb.block.attributes, nb.block.blocks, y, w2, unknowns),
    );
  }
  return out;
}

/**
 * Decodes a config, plan or state value into its model. Mode "state" refuses unknowns; a value of another shape than
 * the schema says is a provider bug (ValueTypeError). Big numbers become JS numbers (rounded).
 */
export function decode<S extends Block, M extends ModelMode = "state">(schema: S, v: Value, mode?: M): ModelOf<S, M> {
  return decodeObject(schema.attributes, schema.blocks, v, "", (mode ?? "state") !== "state") as ModelOf<S, M>;
}

function encodeAny(v: unknown, where: string): Value {
  if (v === undefined) return fail(where, "is undefined in the model");
  if (v === null || typeof v === "string" || typeof v === "boolean" || isUnknown(v) || v instanceof BigNumber) return v;
  if (typeof v === "number") return Number.isFinite(v) ? v : fail(where, "is not a finite number");
  if (Array.isArray(v)) return v.map((x, i) => encodeAny(x, `${where}[${i}]`));
  if (typeof v !== "object") return fail(where, "has no cty form");
  if (Object.getPrototypeOf(v) !== Object.prototype) return v as Value;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, encodeAny(x, `${where}.${k}`)]));
}

/** Encodes a model into the value the server expects: every attribute and block of the schema, in schema order. */
export function encode<S extends Block, M extends ModelMode>(schema: S, model: ModelOf<S, M>): Value {
  const m = model as unknown as Out;
  const out: { [key: string]: Value } = {};
  const names = [...Object.keys(schema.attributes), ...Object.keys(schema.blocks ?? {})];
  for (const name of names) out[name] = encodeAny(m[name], name);
  return out;
}
