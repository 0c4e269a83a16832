import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BigNumber } from "../../../src/framework/values.js";
import { parseJsonExact, parseJsonLossless } from "../../../src/protocol/json.js";
import {
  canonicalNumber,
  decimalOfDouble,
  exactDouble,
  formatDecimal,
  parseDecimal,
  wireNumber,
} from "../../../src/protocol/numbers.js";

describe("decimal numbers", () => {
  it("prints canonical text the way Go's big.Float Text('f', -1) does", () => {
    expect(formatDecimal(parseDecimal("1e30"))).toBe("1000000000000000000000000000000");
    expect(formatDecimal(parseDecimal("-0.0500"))).toBe("-0.05");
    expect(formatDecimal(parseDecimal("1.25E-3"))).toBe("0.00125");
    expect(formatDecimal(parseDecimal("-0"))).toBe("0");
    expect(formatDecimal(parseDecimal(".5"))).toBe("0.5");
  });

  it("rejects text that is not a finite decimal", () => {
    for (const bad of ["", "abc", "NaN", "Infinity", "1e", "--1", "0x10"]) expect(() => parseDecimal(bad)).toThrow();
  });

  it("knows exactly which decimals a double holds", () => {
    expect(exactDouble(parseDecimal("0.1"))).toBeUndefined();
    expect(exactDouble(parseDecimal("2.5"))).toBe(2.5);
    expect(exactDouble(parseDecimal("9007199254740993"))).toBeUndefined();
    expect(exactDouble(parseDecimal("9007199254740992"))).toBe(2 ** 53);
    expect(canonicalNumber(new BigNumber("0.50"))).toBe(0.5);
    expect(canonicalNumber(new BigNumber("0.10"))).toEqual(new BigNumber("0.1"));
  });

  it("round-trips every finite double through its exact decimal", () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
        expect(exactDouble(decimalOfDouble(x))).toBe(x === 0 ? 0 : x);
      }),
    );
  });

  it("chooses the wire form as go-cty does", () => {
    expect(wireNumber(3)).toEqual({ kind: "int", value: 3n });
    expect(wireNumber(2 ** 60)).toEqual({ kind: "int", value: 2n ** 60n });
    expect(wireNumber(1e300)).toEqual({ kind: "float", value: 1e300 });
    expect(wireNumber(Number.POSITIVE_INFINITY)).toEqual({ kind: "float", value: Number.POSITIVE_INFINITY });
    expect(wireNumber(new BigNumber("1e2"))).toEqual({ kind: "int", value: 100n });
    expect(wireNumber(new BigNumber("123.456"))).toEqual({ kind: "string", value: "123.456" });
    expect(() => wireNumber(Number.NaN)).toThrow(/NaN/);
  });
});

describe("lossless JSON", () => {
  it("parses like JSON.parse except that numbers stay exact", () => {
    const text = '{"a":[1,-2.5e3,true,null,"\\u00e9\\n"],"b":{},"c":[],"big":12345678901234567890123}';
    expect(parseJsonLossless(text)).toEqual({ ...JSON.parse(text), big: new BigNumber("12345678901234567890123") });
  });

  it("keeps a __proto__ key as data", () => {
    const v = parseJsonLossless('{"__proto__":{"x":1}}') as Record<string, unknown>;
    expect(Object.keys(v)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
  });

  it("rejects malformed JSON with the offset", () => {
    for (const bad of ["", "{", "[1,]", '{"a" 1}', "01", '"\u0001"', "1 2", "tru"]) {
      expect(() => parseJsonLossless(bad), bad).toThrow(SyntaxError);
    }
  });

  it("agrees with JSON.parse on arbitrary JSON without numbers beyond double precision", () => {
    fc.assert(
      fc.property(fc.json(), (text) => {
        const parsed = parseJsonLossless(text);
        const normalise = (v: unknown): unknown =>
          v instanceof BigNumber
            ? Number(v.text)
            : Array.isArray(v)
              ? v.map(normalise)
              : v !== null && typeof v === "object"
                ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalise(x)]))
                : v;
        expect(normalise(parsed)).toEqual(JSON.parse(text));
      }),
    );
  });

  it("reads exactly what the exact parser reads, whichever way it takes", () => {
    for (const text of [
      '{"a":-0}',
      "[0.1]",
      "1e2",
      " [ 9007199254740993 ]",
      '{"s":"x:1.5","n":-0}',
      '{"n":[-0.0]}',
      '{"m":"02:7E:3F","n":[1,2]}',
      '{"s":"\\"","n":-0}',
    ])
      expect(parseJsonLossless(text), text).toEqual(parseJsonExact(text));
    const tricky = fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), fc.bigInt().map(String), fc.integer());
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(tricky), (v, extra) => {
        const text = JSON.stringify({ v, extra: extra.map(String), raw: 0 }).replace(
          '"raw":0',
          `"raw":[${extra.join(",")}]`,
        );
        expect(parseJsonLossless(text)).toEqual(parseJsonExact(text));
      }),
    );
  });
});
