/**
 * JSON ↔ Value conversion that honours cty types, as stored state (terraform.tfstate) and RawState.json use it.
 * Numbers that a double cannot hold are written as decimal strings so that they survive a round trip.
 */
import type { AttributePath, PathStep } from "./diagnostics.js";
import { formatPath } from "./diagnostics.js";
import { BigNumber, type CtyType, Dynamic, isUnknown, type Value } from "./values.js";

/**
 * A parsed JSON value. Stored state is parsed losslessly, so a number a double cannot hold exactly arrives as a
 * BigNumber (never write one into private state: JSON.stringify cannot render it).
 */
export type JsonValue =
  | null
  | boolean
  | number
  | BigNumber
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** A JSON object, e.g. one resource's stored state. */
export type JsonObject = { [key: string]: JsonValue };

/** A JSON document did not fit the type it was read with; `path` says where. */
export class JsonValueError extends Error {
  override readonly name = "JsonValueError";
  readonly code = "RACKFORM_ERR_FRAMEWORK_JSON_VALUE";
  constructor(
    message: string,
    readonly path: AttributePath,
  ) {
    super(path.length > 0 ? `${formatPath(path)}: ${message}` : message);
  }
}

const exactDecimal = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/;

/** Sets an own property even for a key like "__proto__" (a map key is data; `o[k] = v` would set the prototype). */
export function setOwn<T>(o: Record<string, T>, k: string, v: T): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

/** Parses decimal text into a plain number when exact, else a BigNumber. */
export function numberFromText(text: string, at: AttributePath = []): number | BigNumber {
  const t = text.trim();
  if (!exactDecimal.test(t)) throw new JsonValueError(`"${text}" is not a number`, at);
  const n = Number(t);
  if (!Number.isFinite(n)) return new BigNumber(t);
  // A double is exact when printing it gives back the same digits (modulo formatting).
  return numbersEqualText(n, t) ? n : new BigNumber(t);
}

function numbersEqualText(n: number, text: string): boolean {
  if (String(n) === text) return true;
  if (Number.isInteger(n)) return Number.isSafeInteger(n) && BigInt(n).toString() === text.replace(/^-0$/, "0");
  return false;
}

function isPlainObject(j: unknown): j is Record<string, JsonValue> {
  return typeof j === "object" && j !== null && !Array.isArray(j) && !(j instanceof BigNumber);
}

function step(at: AttributePath, s: PathStep): AttributePath {
  return [...at, s];
}

/** Reads a JSON value as a Value of `type`; object keys missing from the JSON become null, extra keys are dropped. */
export function valueFromJson(json: unknown, type: CtyType, at: AttributePath = []): Value {
  if (json === null || json === undefined) return null;
  if (type === "dynamic") {
    if (!isPlainObject(json) || !("type" in json)) {
      throw new JsonValueError('a dynamic value must be stored as {"value": …, "type": …}', at);
    }
    const inner = json.type as unknown as CtyType;
    return new Dynamic(inner, valueFromJson(json.value, inner, at));
  }
  if (type === "string") {
    if (typeof json === "string") return json;
    if (typeof json === "number" || typeof json === "boolean" || json instanceof BigNumber) return String(json);
    throw new JsonValueError("expected a string", at);
  }
  if (type === "number") {
    if (typeof json === "number") return json;
    if (typeof json === "string") return numberFromText(json, at);
    if (json instanceof BigNumber) return numberFromText(json.text, at);
    throw new JsonValueError("expected a number", at);
  }
  if (type === "bool") {
    if (typeof json === "boolean") return json;
    if (json === "true" || json === "false") return json === "true";
    throw new JsonValueError("expected a bool", at);
  }
  const [kind] = type;
  switch (kind) {
    case "list":
    case "set": {
      if (!Array.isArray(json)) throw new JsonValueError(`expected a ${kind}`, at);
      return json.map((e, i) => valueFromJson(e, type[1], step(at, { index: i })));
    }
    case "tuple": {
      const elems = type[1];
      if (!Array.isArray(json) || json.length !== elems.length) {
        throw new JsonValueError(`expected a tuple of ${elems.length}`, at);
      }
      return json.map((e, i) => valueFromJson(e, elems[i], step(at, { index: i })));
    }
    case "map": {
      if (!isPlainObject(json)) throw new JsonValueError("expected a map", at);
      const out: Record<string, Value> = {};
      for (const [k, v] of Object.entries(json)) setOwn(out, k, valueFromJson(v, type[1], step(at, { key: k })));
      return out;
    }
    case "object": {
      if (!isPlainObject(json)) throw new JsonValueError("expected an object", at);
      const out: Record<string, Value> = {};
      for (const [k, t] of Object.entries(type[1])) setOwn(out, k, valueFromJson(json[k], t, step(at, { attr: k })));
      return out;
    }
  }
}

/** Writes a wholly known Value of `type` as JSON; throws JsonValueError on an unknown. */
export function valueToJson(value: Value, type: CtyType, at: AttributePath = []): JsonValue {
  if (isUnknown(value)) throw new JsonValueError("an unknown value cannot be written as JSON", at);
  if (value === null) return null;
  if (type === "dynamic") {
    if (!(value instanceof Dynamic)) throw new JsonValueError("expected a Dynamic value", at);
    return { value: valueToJson(value.value, value.type, at), type: value.type as unknown as JsonValue };
  }
  if (value instanceof Dynamic) return valueToJson(value.value, type, at);
  if (type === "string" || type === "bool") {
    if (typeof value !== (type === "string" ? "string" : "boolean")) throw new JsonValueError(`expected a ${type}`, at);
    return value as string | boolean;
  }
  if (type === "number") {
    if (value instanceof BigNumber) return value.text;
    if (typeof value !== "number") throw new JsonValueError("expected a number", at);
    return value;
  }
  const [kind] = type;
  if (kind === "list" || kind === "set" || kind === "tuple") {
    if (!Array.isArray(value)) throw new JsonValueError(`expected a ${kind}`, at);
    return value.map((e, i) =>
      valueToJson(
        e,
        kind === "tuple" ? (type[1] as readonly CtyType[])[i] : (type[1] as CtyType),
        step(at, { index: i }),
      ),
    );
  }
  if (typeof value !== "object" || Array.isArray(value) || value instanceof BigNumber) {
    throw new JsonValueError(`expected a ${kind}`, at);
  }
  const rec = value as Record<string, Value>;
  const out: Record<string, JsonValue> = {};
  if (kind === "map") {
    for (const [k, v] of Object.entries(rec)) setOwn(out, k, valueToJson(v, type[1] as CtyType, step(at, { key: k })));
  } else {
    for (const [k, t] of Object.entries(type[1] as Record<string, CtyType>)) {
      setOwn(out, k, valueToJson(rec[k] ?? null, t, step(at, { attr: k })));
    }
  }
  return out;
}
