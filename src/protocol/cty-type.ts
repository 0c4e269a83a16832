/** cty types in their JSON wire form: serialising (as go-cty does, keys sorted) and validating parsed JSON. */
import type { CtyType } from "../framework/values.js";

const PRIMITIVES = new Set(["string", "number", "bool", "dynamic"]);

/** Compares strings by their UTF-8 bytes, the order Go sorts map keys and object attributes in. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 puts surrogates (code points ≥ U+10000) below U+E000–U+FFFF; UTF-8 byte order puts them above.
    if (x >= 0xd800 && y >= 0xd800) {
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}

function sortedRecord<T>(rec: Readonly<Record<string, T>>, f: (v: T) => unknown): Record<string, unknown> {
  const keys = Object.keys(rec).sort(compareUtf8);
  return Object.fromEntries(keys.map((k) => [k, f(rec[k])]));
}

function toJsonable(t: CtyType): unknown {
  if (typeof t === "string") return t;
  switch (t[0]) {
    case "list":
    case "set":
    case "map":
      return [t[0], toJsonable(t[1])];
    case "tuple":
      return ["tuple", t[1].map(toJsonable)];
    case "object": {
      const attrs = sortedRecord(t[1], toJsonable);
      return t.length === 3 && t[2].length > 0 ? ["object", attrs, [...t[2]].sort(compareUtf8)] : ["object", attrs];
    }
  }
}

/** The type's JSON text as the engine writes it: `"string"`, `["list","string"]`, `["object",{"a":"number"}]`. */
export function typeJson(t: CtyType): string {
  return JSON.stringify(toJsonable(t));
}

/** Validates parsed type JSON into a CtyType; throws naming what is wrong. */
export function parseCtyType(json: unknown): CtyType {
  if (typeof json === "string") {
    if (PRIMITIVES.has(json)) return json as CtyType;
    throw new Error(`unknown primitive type ${JSON.stringify(json)}`);
  }
  if (!Array.isArray(json) || typeof json[0] !== "string") throw new Error(`invalid type ${JSON.stringify(json)}`);
  const [kind, arg, opt] = json as [string, unknown, unknown];
  switch (kind) {
    case "list":
    case "set":
    case "map":
      return [kind, parseCtyType(arg)];
    case "tuple":
      if (!Array.isArray(arg)) throw new Error("tuple type needs an array of element types");
      return ["tuple", arg.map(parseCtyType)];
    case "object": {
      if (arg === null || typeof arg !== "object" || Array.isArray(arg)) {
        throw new Error("object type needs a record of attribute types");
      }
      const attrs = Object.fromEntries(Object.entries(arg).map(([k, v]) => [k, parseCtyType(v)]));
      if (opt === undefined) return ["object", attrs];
      if (!Array.isArray(opt) || !opt.every((o) => typeof o === "string")) {
        throw new Error("object type's optional attributes must be a list of names");
      }
      return ["object", attrs, opt as string[]];
    }
    default:
      throw new Error(`unknown type kind ${JSON.stringify(kind)}`);
  }
}

/** True for list, set and map types: the ones that can carry length refinements. */
export function isCollectionType(t: CtyType): boolean {
  return typeof t !== "string" && (t[0] === "list" || t[0] === "set" || t[0] === "map");
}
