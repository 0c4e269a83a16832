/**
 * The value model shared by the framework, the server and the protocol codec.
 * It mirrors cty (the engine's type system): every value is typed by a CtyType, may be null, and may be unknown.
 */

/** A cty type in the engine's JSON form: "string", ["list","string"], ["object",{"a":"number"}], "dynamic". */
export type CtyType =
  | "string"
  | "number"
  | "bool"
  | "dynamic"
  | readonly ["list", CtyType]
  | readonly ["set", CtyType]
  | readonly ["map", CtyType]
  | readonly ["object", { readonly [name: string]: CtyType }]
  | readonly ["object", { readonly [name: string]: CtyType }, readonly string[]]
  | readonly ["tuple", readonly CtyType[]];

/** Refinements the engine may attach to an unknown value (cty unknown refinements, msgpack extension 12). */
export interface Refinements {
  /** The value will definitely not be null once known. */
  readonly notNull?: boolean;
  /** A known prefix of a string value. */
  readonly stringPrefix?: string;
  /** Bounds of a number value: [bound, inclusive]. */
  readonly numberLower?: readonly [CtyNumber, boolean];
  readonly numberUpper?: readonly [CtyNumber, boolean];
  /** Bounds on the length of a collection. */
  readonly lengthLower?: number;
  readonly lengthUpper?: number;
}

/** A value not yet known at plan time. Compare with `isUnknown`, never with `===`. */
export class Unknown {
  constructor(readonly refinements: Refinements = {}) {}
}

/** The plain unknown, without refinements. */
export const UNKNOWN: Unknown = new Unknown();

/**
 * A number that a JS double cannot hold exactly (a big integer or a long decimal), kept as its decimal text.
 * Numbers that are exact doubles are plain `number`s.
 */
export class BigNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

/** The value of a number-typed attribute. */
export type CtyNumber = number | BigNumber;

/** A value of the dynamic pseudo-type: the concrete type travels with the value. */
export class Dynamic {
  constructor(
    readonly type: CtyType,
    readonly value: Value,
  ) {}
}

/**
 * A value. Lists, sets and tuples are arrays; maps and objects are plain null-prototype-free records.
 * Objects always hold every attribute of their type (null when unset).
 */
export type Value =
  | null
  | Unknown
  | string
  | CtyNumber
  | boolean
  | Dynamic
  | readonly Value[]
  | { readonly [key: string]: Value };

/** True for an unknown value (with or without refinements). */
export function isUnknown(v: unknown): v is Unknown {
  return v instanceof Unknown;
}

/** True when the value, or anything inside it, is unknown. */
export function containsUnknown(v: Value): boolean {
  if (v instanceof Unknown) return true;
  if (v instanceof Dynamic) return containsUnknown(v.value);
  if (v === null || typeof v !== "object" || v instanceof BigNumber) return false;
  if (Array.isArray(v)) return v.some(containsUnknown);
  return Object.values(v as Record<string, Value>).some(containsUnknown);
}

/** Deep equality of two values; unknowns equal unknowns, set order is significant only if `ordered`. */
export function valuesEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  if (a instanceof Unknown || b instanceof Unknown) return a instanceof Unknown && b instanceof Unknown;
  if (a instanceof BigNumber || b instanceof BigNumber) return String(a) === String(b);
  if (a instanceof Dynamic || b instanceof Dynamic) {
    return (
      a instanceof Dynamic &&
      b instanceof Dynamic &&
      JSON.stringify(a.type) === JSON.stringify(b.type) &&
      valuesEqual(a.value, b.value)
    );
  }
  if (a === null || b === null || typeof a !== "object" || typeof b !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as readonly Value[];
    return a.length === bb.length && a.every((x, i) => valuesEqual(x, bb[i]));
  }
  const ao = a as Record<string, Value>;
  const bo = b as Record<string, Value>;
  const ak = Object.keys(ao);
  if (ak.length !== Object.keys(bo).length) return false;
  return ak.every((k) => k in bo && valuesEqual(ao[k], bo[k]));
}
