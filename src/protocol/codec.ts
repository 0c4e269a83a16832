/**
 * The DynamicValue codec: cty values ⇄ the engine's msgpack encoding (OpenTofu docs/plugin-protocol/object-wire-format.md,
 * go-cty cty/msgpack), plus the JSON fallback. Encoding is strict: a value that does not match its type (an object
 * lacking an attribute, a stray attribute, a wrong primitive) throws an Error naming the path, so a server bug surfaces
 * as a diagnostic instead of an engine-side "an object with N attributes is required".
 */
import { BigNumber, type CtyType, Dynamic, Unknown, type Value } from "../framework/values.js";
import { decodeJson } from "./codec-json.js";
import { compareUtf8, parseCtyType, typeJson } from "./cty-type.js";
import { MsgpackReader, MsgpackWriter } from "./msgpack.js";
import { readNumber, readUnknown, writeNumber, writeUnknown } from "./refinements.js";

export { decodeJson } from "./codec-json.js";

type Rec = Readonly<Record<string, Value>>;

/** Where a value sits, kept as links and only rendered when an error needs it (decoding stays allocation-light). */
type Path = { readonly up: Path; readonly step: string | number | { readonly key: string } } | undefined;

function sub(up: Path, step: string | number | { readonly key: string }): Path {
  return { up, step };
}

function at(path: Path): string {
  const steps: string[] = [];
  for (let p = path; p; p = p.up) {
    const s = p.step;
    steps.push(typeof s === "number" ? `[${s}]` : typeof s === "string" ? `.${s}` : `[${JSON.stringify(s.key)}]`);
  }
  const text = steps.reverse().join("").replace(/^\./, "");
  return text === "" ? "the root value" : text;
}

function failAt(path: Path, e: unknown): never {
  throw new Error(`${at(path)}: ${e instanceof Error ? e.message : String(e)}`);
}

function isRecord(v: Value): v is Rec {
  return (
    v !== null &&
    typeof v === "object" &&
    !Array.isArray(v) &&
    !(v instanceof Unknown) &&
    !(v instanceof BigNumber) &&
    !(v instanceof Dynamic)
  );
}

function describe(v: Value): string {
  if (Array.isArray(v)) return "an array";
  if (v instanceof BigNumber) return "a BigNumber";
  if (v instanceof Dynamic) return "a Dynamic";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

const sortedNamesCache = new WeakMap<object, readonly string[]>();

/** Attribute names in go-cty's order (sorted by bytes), cached per object type since schemas are reused. */
function sortedNames(attrs: Readonly<Record<string, CtyType>>): readonly string[] {
  let names = sortedNamesCache.get(attrs);
  if (!names) sortedNamesCache.set(attrs, (names = Object.keys(attrs).sort(compareUtf8)));
  return names;
}

function encode(w: MsgpackWriter, v: Value, t: CtyType, path: Path): void {
  if (t === "dynamic") {
    encodeDynamic(w, v, path);
    return;
  }
  if (v instanceof Unknown) {
    writeUnknown(w, v, t);
    return;
  }
  if (v === null) {
    w.nil();
    return;
  }
  const mismatch = (want: string) => new Error(`${at(path)}: ${want} is required, got ${describe(v)}`);
  if (typeof t === "string") {
    if (t === "string") {
      if (typeof v !== "string") throw mismatch("a string");
      w.str(v);
      return;
    }
    if (t === "bool") {
      if (typeof v !== "boolean") throw mismatch("a bool");
      w.bool(v);
      return;
    }
    if (typeof v !== "number" && !(v instanceof BigNumber)) throw mismatch("a number");
    try {
      writeNumber(w, v);
      return;
    } catch (e) {
      throw new Error(`${at(path)}: ${(e as Error).message}`);
    }
  }
  switch (t[0]) {
    case "list":
    case "set": {
      if (!Array.isArray(v)) throw mismatch(`a ${t[0]} (array)`);
      const items = v as readonly Value[];
      w.arrayHeader(items.length);
      for (const [i, item] of items.entries()) encode(w, item, t[1], sub(path, i));
      return;
    }
    case "tuple": {
      if (!Array.isArray(v)) throw mismatch("a tuple (array)");
      const items = v as readonly Value[];
      if (items.length !== t[1].length) {
        throw new Error(`${at(path)}: a tuple of ${t[1].length} elements is required, got ${items.length}`);
      }
      w.arrayHeader(items.length);
      for (const [i, item] of items.entries()) encode(w, item, t[1][i], sub(path, i));
      return;
    }
    case "map": {
      if (!isRecord(v)) throw mismatch("a map (record)");
      const keys = Object.keys(v).sort(compareUtf8);
      w.mapHeader(keys.length);
      for (const k of keys) {
        w.str(k);
        encode(w, v[k], t[1], sub(path, { key: k }));
      }
      return;
    }
    case "object": {
      if (!isRecord(v)) throw mismatch("an object (record)");
      const names = sortedNames(t[1]);
      for (const k of names) {
        if (!Object.hasOwn(v, k)) {
          throw new Error(
            `${at(path)}: attribute "${k}" is missing; objects must hold every attribute (null if unset)`,
          );
        }
      }
      for (const k of Object.keys(v)) {
        if (!Object.hasOwn(t[1], k)) throw new Error(`${at(path)}: attribute "${k}" is not in the schema`);
      }
      w.mapHeader(names.length);
      for (const k of names) {
        w.str(k);
        encode(w, v[k], t[1][k], sub(path, k));
      }
      return;
    }
  }
}

/**
 * The type HCL would give a literal: string, number, bool, tuple of the elements' types, object of the attributes'
 * types; null and unknown elements are "dynamic". Used for plain values placed where the schema says dynamic, so a
 * server may hand back `["a", 1]` instead of spelling out `new Dynamic(["tuple", ["string", "number"]], …)`.
 */
export function inferType(v: Value, path?: Path): CtyType {
  if (v === null || v instanceof Unknown) return "dynamic";
  if (typeof v === "string") return "string";
  if (typeof v === "boolean") return "bool";
  if (typeof v === "number" || v instanceof BigNumber) return "number";
  if (v instanceof Dynamic) return v.type;
  if (Array.isArray(v)) return ["tuple", (v as readonly Value[]).map((x, i) => inferType(x, sub(path, i)))];
  if (isRecord(v)) {
    return ["object", Object.fromEntries(Object.entries(v).map(([k, x]) => [k, inferType(x, sub(path, k))]))];
  }
  throw new Error(`${at(path)}: cannot infer a type for this value`);
}

function encodeDynamic(w: MsgpackWriter, v: Value, path: Path): void {
  // A wholly unknown dynamic value cannot carry refinements (go-cty drops them too).
  if (v instanceof Unknown) {
    w.ext(0, new Uint8Array(1));
    return;
  }
  if (v === null) {
    w.nil();
    return;
  }
  if (!(v instanceof Dynamic)) {
    encodeDynamic(w, new Dynamic(inferType(v, path), v), path);
    return;
  }
  if (v.type === "dynamic") {
    encodeDynamic(w, v.value, path);
    return;
  }
  w.arrayHeader(2);
  w.bin(Buffer.from(typeJson(v.type), "utf8"));
  encode(w, v.value, v.type, path);
}

/** Encodes a value of the given type as the engine's msgpack; throws an Error naming the path when they disagree. */
export function encodeMsgpack(value: Value, type: CtyType): Uint8Array {
  const w = new MsgpackWriter();
  encode(w, value, type, undefined);
  return w.bytes();
}

function decode(r: MsgpackReader, t: CtyType, path: Path): Value {
  const kind = r.peekKind();
  // Every extension is an unknown: the engine defines no other extension types.
  if (kind === "ext") return readUnknown(r, t);
  if (kind === "nil") {
    r.nil();
    return null;
  }
  try {
    if (t === "dynamic") return decodeDynamic(r, path);
    if (t === "string") return r.str();
    if (t === "bool") return r.bool();
    if (t === "number") return readNumber(r);
  } catch (e) {
    return failAt(path, e);
  }
  switch (t[0]) {
    case "list":
    case "set":
    case "tuple": {
      let n = 0;
      try {
        n = r.arrayHeader();
      } catch (e) {
        failAt(path, e);
      }
      if (t[0] === "tuple" && n !== t[1].length) failAt(path, `a tuple of ${t[1].length} elements is required`);
      const out: Value[] = [];
      for (let i = 0; i < n; i++) {
        out.push(decode(r, t[0] === "tuple" ? t[1][i] : t[1], sub(path, i)));
      }
      return out;
    }
    case "map":
    case "object": {
      let n = 0;
      try {
        n = r.mapHeader();
      } catch (e) {
        failAt(path, e);
      }
      const out: Record<string, Value> = {};
      let count = 0;
      for (let i = 0; i < n; i++) {
        let k = "";
        try {
          k = r.str();
        } catch (e) {
          failAt(path, e);
        }
        let v: Value;
        if (t[0] === "map") v = decode(r, t[1], sub(path, { key: k }));
        else if (Object.hasOwn(t[1], k)) v = decode(r, t[1][k], sub(path, k));
        else return failAt(path, `unsupported attribute "${k}"`);
        if (!Object.hasOwn(out, k)) count++;
        // A key such as "__proto__" is data: defined, never assigned (assignment would set the prototype).
        if (k === "__proto__")
          Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
        else out[k] = v;
      }
      if (t[0] === "object") {
        const want = sortedNames(t[1]).length;
        if (count !== want) failAt(path, `an object with ${want} attributes is required (${count} given)`);
      }
      return out;
    }
  }
}

function decodeDynamic(r: MsgpackReader, path: Path): Value {
  if (r.arrayHeader() !== 2) throw new Error("a dynamic value must be a [type, value] array");
  const typeBytes = r.peekKind() === "str" ? Buffer.from(r.str(), "utf8") : r.bin();
  const type = parseCtyType(JSON.parse(Buffer.from(typeBytes).toString("utf8")));
  return new Dynamic(type, decode(r, type, path));
}

/** Decodes the engine's msgpack into a value of the given type; throws an Error naming the path on mismatch. */
export function decodeMsgpack(bytes: Uint8Array, type: CtyType): Value {
  const r = new MsgpackReader(bytes);
  const v = decode(r, type, undefined);
  if (!r.done()) throw new Error(`msgpack: ${bytes.length - r.offset} trailing bytes after the value`);
  return v;
}

/** A tfplugin6 DynamicValue as proto-loader hands it over. */
export interface WireDynamicValue {
  readonly msgpack?: Uint8Array | null;
  readonly json?: Uint8Array | null;
}

/** Decodes a DynamicValue: msgpack when present, else the JSON fallback; an absent or empty one is null. */
export function decodeDynamicValue(dv: WireDynamicValue | null | undefined, type: CtyType): Value {
  if (dv?.msgpack && dv.msgpack.length > 0) return decodeMsgpack(dv.msgpack, type);
  if (dv?.json && dv.json.length > 0) return decodeJson(dv.json, type);
  return null;
}

/** Encodes a value as a DynamicValue (always msgpack, which the engine prefers). */
export function encodeDynamicValue(value: Value, type: CtyType): { msgpack: Buffer } {
  const b = encodeMsgpack(value, type);
  return { msgpack: Buffer.from(b.buffer, b.byteOffset, b.byteLength) };
}
