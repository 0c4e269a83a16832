/**
 * Unknown values on the wire (go-cty cty/msgpack/unknown.go): a plain unknown is the fixext1 `d4 00 00`; a refined
 * unknown is extension 12 whose payload is a msgpack map with small integer keys:
 * 1 nullness (false = definitely not null), 2 string prefix, 3/4 number lower/upper bound as [number, inclusive],
 * 5/6 collection length lower/upper bound. Unknown keys are skipped so newer engines stay readable.
 */
import { type CtyNumber, type CtyType, type Refinements, Unknown, type Value } from "../framework/values.js";
import { isCollectionType } from "./cty-type.js";
import { MsgpackReader, MsgpackWriter } from "./msgpack.js";
import { ctyNumberOfBigInt, ctyNumberOfDecimal, parseDecimal, wireNumber } from "./numbers.js";

const EXT_UNKNOWN = 0;
const EXT_REFINED = 12;
const KEY_NULLNESS = 1;
const KEY_STRING_PREFIX = 2;
const KEY_NUMBER_MIN = 3;
const KEY_NUMBER_MAX = 4;
const KEY_LENGTH_MIN = 5;
const KEY_LENGTH_MAX = 6;
/** go-cty caps a string prefix at 256 bytes; longer prefixes are cut (a shorter prefix is still true). */
const MAX_PREFIX_BYTES = 256;

/** Writes a number the way go-cty's marshal does (int64, float64, or decimal text). */
export function writeNumber(w: MsgpackWriter, n: CtyNumber): void {
  const wire = wireNumber(n);
  if (wire.kind === "int") w.int(wire.value);
  else if (wire.kind === "float") w.float64(wire.value);
  else w.str(wire.value);
}

/** Reads a number in any of the wire forms go-cty accepts. */
export function readNumber(r: MsgpackReader): CtyNumber {
  switch (r.peekKind()) {
    case "int": {
      const n = r.intValue();
      return typeof n === "number" ? n : ctyNumberOfBigInt(n);
    }
    case "float":
      return r.float();
    case "str": {
      const text = r.str();
      try {
        return ctyNumberOfDecimal(parseDecimal(text));
      } catch {
        throw new Error(`number is required, got the string ${JSON.stringify(text.slice(0, 40))}`);
      }
    }
    default:
      throw new Error(`number is required, found ${r.peekKind()}`);
  }
}

/** Cuts a prefix to at most 256 UTF-8 bytes, dropping the last (possibly split) character as go-cty does. */
export function truncatePrefix(prefix: string): string {
  const bytes = Buffer.from(prefix, "utf8");
  if (bytes.length <= MAX_PREFIX_BYTES) return prefix;
  // The character at the cut may be incomplete (split bytes, or a combining mark may follow): drop it.
  const cut = bytes.subarray(0, MAX_PREFIX_BYTES).toString("utf8");
  return cut.endsWith("\uFFFD") ? cut.slice(0, -1) : Array.from(cut).slice(0, -1).join("");
}

/** Writes an unknown of the given type, with the refinements that apply to that type. */
export function writeUnknown(w: MsgpackWriter, u: Unknown, type: CtyType): void {
  const r = u.refinements;
  const body = new MsgpackWriter();
  let n = 0;
  if (type !== "dynamic") {
    if (r.notNull) {
      n++;
      body.int(BigInt(KEY_NULLNESS));
      body.bool(false);
    }
    if (type === "number") {
      for (const [key, bound] of [
        [KEY_NUMBER_MIN, r.numberLower],
        [KEY_NUMBER_MAX, r.numberUpper],
      ] as const) {
        if (!bound) continue;
        n++;
        body.int(BigInt(key));
        body.arrayHeader(2);
        writeNumber(body, bound[0]);
        body.bool(bound[1]);
      }
    } else if (type === "string" && r.stringPrefix) {
      n++;
      body.int(BigInt(KEY_STRING_PREFIX));
      body.str(truncatePrefix(r.stringPrefix));
    } else if (isCollectionType(type)) {
      if (r.lengthLower !== undefined && r.lengthLower !== 0) {
        n++;
        body.int(BigInt(KEY_LENGTH_MIN));
        body.int(BigInt(r.lengthLower));
      }
      if (r.lengthUpper !== undefined) {
        n++;
        body.int(BigInt(KEY_LENGTH_MAX));
        body.int(BigInt(r.lengthUpper));
      }
    }
  }
  if (n === 0) {
    w.ext(EXT_UNKNOWN, new Uint8Array(1));
    return;
  }
  const payload = new MsgpackWriter();
  payload.mapHeader(n);
  payload.raw(body.bytes());
  w.ext(EXT_REFINED, payload.bytes());
}

/** Reads the extension at the reader's position as an unknown (or the known null a nullness=true refinement means). */
export function readUnknown(r: MsgpackReader, type: CtyType): Value {
  const { type: code, data } = r.ext();
  if (data.length <= 1 || code !== EXT_REFINED || type === "dynamic") return new Unknown();
  const body = new MsgpackReader(data);
  const count = body.mapHeader();
  const out: { -readonly [K in keyof Refinements]: Refinements[K] } = {};
  for (let i = 0; i < count; i++) {
    const key = Number(body.int());
    switch (key) {
      case KEY_NULLNESS:
        if (body.bool()) return null;
        out.notNull = true;
        break;
      case KEY_STRING_PREFIX:
        out.stringPrefix = body.str();
        break;
      case KEY_NUMBER_MIN:
      case KEY_NUMBER_MAX: {
        if (body.arrayHeader() !== 2) throw new Error("a number bound refinement must be [number, bool]");
        const bound = [readNumber(body), body.bool()] as const;
        if (key === KEY_NUMBER_MIN) out.numberLower = bound;
        else out.numberUpper = bound;
        break;
      }
      case KEY_LENGTH_MIN:
      case KEY_LENGTH_MAX: {
        const len = Number(body.int());
        if (key === KEY_LENGTH_MIN) out.lengthLower = len;
        else out.lengthUpper = len;
        break;
      }
      default:
        body.skip();
    }
  }
  return new Unknown(out);
}
