/** fast-check arbitraries for cty types and values of them, and a strict comparable form of values. */
import fc from "fast-check";
import {
  BigNumber,
  type CtyNumber,
  type CtyType,
  Dynamic,
  type Refinements,
  Unknown,
  type Value,
} from "../../../src/framework/values.js";
import { typeJson } from "../../../src/protocol/cty-type.js";
import { canonicalNumber } from "../../../src/protocol/numbers.js";

const attrName = fc.oneof(
  fc.constantFrom("id", "name", "mac", "__proto__", "constructor", ""),
  fc.string({ unit: "grapheme", maxLength: 6 }),
);

/** An arbitrary cty type of nesting depth at most `depth` (primitives, dynamic, collections, objects, tuples). */
export function ctyTypeArb(depth = 3): fc.Arbitrary<CtyType> {
  const leaf = fc.constantFrom<CtyType>("string", "number", "bool", "dynamic");
  if (depth <= 0) return leaf;
  const inner = ctyTypeArb(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    { weight: 1, arbitrary: inner.map((t): CtyType => ["list", t]) },
    { weight: 1, arbitrary: inner.map((t): CtyType => ["set", t]) },
    { weight: 1, arbitrary: inner.map((t): CtyType => ["map", t]) },
    {
      weight: 2,
      arbitrary: fc
        .uniqueArray(fc.tuple(attrName, inner), { maxLength: 4, selector: ([k]) => k })
        .map((entries): CtyType => ["object", Object.fromEntries(entries)]),
    },
    { weight: 1, arbitrary: fc.array(inner, { maxLength: 3 }).map((ts): CtyType => ["tuple", ts]) },
  );
}

/** Numbers in canonical form: doubles (incl. ±Infinity), big integers beyond 2^53, and long decimals. */
export const ctyNumberArb: fc.Arbitrary<CtyNumber> = fc.oneof(
  fc.double({ noNaN: true }),
  fc.integer(),
  fc.bigInt({ min: -(2n ** 90n), max: 2n ** 90n }).map((b) => canonicalNumber(new BigNumber(b.toString()))),
  fc.tuple(fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }), fc.integer({ min: 1, max: 40 })).map(([m, scale]) => {
    const digits = (m < 0n ? -m : m).toString().padStart(scale + 1, "0");
    const text = `${m < 0n ? "-" : ""}${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
    return canonicalNumber(new BigNumber(text));
  }),
);

function optional<T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.option(arb, { nil: undefined });
}

/** Refinements that the wire format carries for values of this type (others are dropped by the encoder). */
export function refinementsArb(t: CtyType): fc.Arbitrary<Refinements> {
  if (t === "dynamic") return fc.constant({});
  const kind = typeof t === "string" ? t : t[0];
  const bound = fc.tuple(ctyNumberArb, fc.boolean());
  return fc
    .record({
      notNull: fc.boolean(),
      stringPrefix:
        kind === "string"
          ? optional(fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }))
          : fc.constant(undefined),
      numberLower: kind === "number" ? optional(bound) : fc.constant(undefined),
      numberUpper: kind === "number" ? optional(bound) : fc.constant(undefined),
      lengthLower: ["list", "set", "map"].includes(kind)
        ? optional(fc.integer({ min: 1, max: 9 }))
        : fc.constant(undefined),
      lengthUpper: ["list", "set", "map"].includes(kind)
        ? optional(fc.integer({ min: 0, max: 9 }))
        : fc.constant(undefined),
    })
    .map((r) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(r)) if (v !== undefined && v !== false) out[k] = v;
      return out as Refinements;
    });
}

/** An arbitrary value of the given type, with nulls and (refined) unknowns at any depth. */
export function ctyValueArb(t: CtyType, depth = 3): fc.Arbitrary<Value> {
  const known = knownValueArb(t, depth);
  return fc.oneof(
    { weight: 6, arbitrary: known },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: refinementsArb(t).map((r) => new Unknown(r)) },
  );
}

function knownValueArb(t: CtyType, depth: number): fc.Arbitrary<Value> {
  if (t === "string") return fc.string({ unit: "grapheme", maxLength: 12 });
  if (t === "number") return ctyNumberArb;
  if (t === "bool") return fc.boolean();
  if (t === "dynamic") {
    // A dynamic value carries its concrete type (which may itself nest dynamic).
    return ctyTypeArb(Math.max(0, depth - 1))
      .filter((inner) => inner !== "dynamic")
      .chain((inner) => ctyValueArb(inner, depth - 1).map((v) => new Dynamic(inner, v)));
  }
  switch (t[0]) {
    case "list":
    case "set":
      return fc.array(ctyValueArb(t[1], depth - 1), { maxLength: 3 });
    case "map":
      return fc
        .uniqueArray(fc.tuple(attrName, ctyValueArb(t[1], depth - 1)), { maxLength: 3, selector: ([k]) => k })
        .map((entries) => Object.fromEntries(entries));
    case "tuple":
      return fc.tuple(...t[1].map((e) => ctyValueArb(e, depth - 1)));
    case "object": {
      const names = Object.keys(t[1]);
      return fc
        .tuple(...names.map((n) => ctyValueArb(t[1][n], depth - 1)))
        .map((vals) => Object.fromEntries(names.map((n, i) => [n, vals[i]])));
    }
  }
}

function canonNumber(n: CtyNumber): unknown {
  if (n instanceof BigNumber) return { big: n.text };
  if (!Number.isFinite(n)) return { inf: n > 0 ? "+" : "-" };
  return { num: n === 0 ? 0 : n };
}

/** A plain-JSON image of a value that distinguishes everything the wire does (refinements, BigNumber text, types). */
export function comparable(v: Value): unknown {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number" || v instanceof BigNumber) return canonNumber(v);
  if (v instanceof Unknown) {
    const r = v.refinements;
    return {
      unknown: {
        ...r,
        numberLower: r.numberLower && [canonNumber(r.numberLower[0]), r.numberLower[1]],
        numberUpper: r.numberUpper && [canonNumber(r.numberUpper[0]), r.numberUpper[1]],
      },
    };
  }
  if (v instanceof Dynamic) return { dynamic: typeJson(v.type), value: comparable(v.value) };
  if (Array.isArray(v)) return v.map(comparable);
  const rec = v as Readonly<Record<string, Value>>;
  return {
    record: Object.keys(rec)
      .sort()
      .map((k) => [k, comparable(rec[k])]),
  };
}
