/**
 * The JSON form of cty values (go-cty cty/json), the engine's fallback DynamicValue encoding and the format of stored
 * state (UpgradeResourceState's RawState.json). JSON cannot express unknowns. Like go-cty, attributes absent from an
 * object are null, which is also what state written by an older schema needs.
 */
import { BigNumber, type CtyType, Dynamic, type Value } from "../framework/values.js";
import { parseCtyType } from "./cty-type.js";
import { parseJsonLossless } from "./json.js";
import { canonicalNumber, ctyNumberOfDecimal, parseDecimal } from "./numbers.js";

function at(path: string): string {
  return path === "" ? "the root value" : path;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v) && !(v instanceof BigNumber);
}

function decode(v: unknown, t: CtyType, path: string): Value {
  if (v === null || v === undefined) return null;
  const fail = (want: string): never => {
    throw new Error(`${at(path)}: ${want} is required`);
  };
  if (t === "dynamic") {
    if (!isPlainObject(v) || !("type" in v)) return fail('a dynamic value ({"value": …, "type": …})');
    const type = parseCtyType(v.type);
    return new Dynamic(type, decode(v.value, type, path));
  }
  if (t === "string") {
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "boolean" || v instanceof BigNumber) return String(v);
    return fail("a string");
  }
  if (t === "number") {
    if (typeof v === "number") return v;
    if (v instanceof BigNumber) return canonicalNumber(v);
    if (typeof v === "string") {
      try {
        return ctyNumberOfDecimal(parseDecimal(v));
      } catch {
        return fail("a number");
      }
    }
    return fail("a number");
  }
  if (t === "bool") {
    if (typeof v === "boolean") return v;
    if (v === "true" || v === "false") return v === "true";
    return fail("a bool");
  }
  switch (t[0]) {
    case "list":
    case "set":
    case "tuple": {
      if (!Array.isArray(v)) return fail(`a ${t[0]} (array)`);
      if (t[0] === "tuple" && v.length !== t[1].length) return fail(`a tuple of ${t[1].length} elements`);
      return v.map((item, i) => decode(item, t[0] === "tuple" ? t[1][i] : t[1], `${path}[${i}]`));
    }
    case "map": {
      if (!isPlainObject(v)) return fail("a map (object)");
      return Object.fromEntries(
        Object.entries(v).map(([k, item]) => [k, decode(item, t[1], `${path}[${JSON.stringify(k)}]`)]),
      );
    }
    case "object": {
      if (!isPlainObject(v)) return fail("an object");
      for (const k of Object.keys(v)) {
        if (!Object.hasOwn(t[1], k)) throw new Error(`${at(path)}: unsupported attribute "${k}"`);
      }
      return Object.fromEntries(
        Object.entries(t[1]).map(([k, at]) => [
          k,
          Object.hasOwn(v, k) ? decode(v[k], at, path === "" ? k : `${path}.${k}`) : null,
        ]),
      );
    }
  }
}

/**
 * Decodes cty JSON into a value of the given type. A string or bytes argument is JSON text (parsed keeping numbers
 * exact); anything else is taken as already-parsed JSON (numbers may be numbers or BigNumbers).
 */
export function decodeJson(json: unknown, type: CtyType): Value {
  const parsed = typeof json === "string" || json instanceof Uint8Array ? parseJsonLossless(json) : json;
  return decode(parsed, type, "");
}
