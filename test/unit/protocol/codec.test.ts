import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BigNumber, type CtyType, Dynamic, UNKNOWN, Unknown, type Value } from "../../../src/framework/values.js";
import {
  decodeDynamicValue,
  decodeJson,
  decodeMsgpack,
  encodeDynamicValue,
  encodeMsgpack,
} from "../../../src/protocol/codec.js";
import { compareUtf8 } from "../../../src/protocol/cty-type.js";
import { truncatePrefix } from "../../../src/protocol/refinements.js";
import { comparable, ctyTypeArb, ctyValueArb } from "../../support/protocol/cty-arbitraries.js";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (h: string) => new Uint8Array(Buffer.from(h.replace(/\s+/g, ""), "hex"));

describe("msgpack codec round-trip", () => {
  it("decodes what it encodes, for arbitrary types and values (nulls, refined unknowns, big and long numbers)", () => {
    const typeAndValue = ctyTypeArb(3).chain((t) => ctyValueArb(t, 3).map((v) => [t, v] as const));
    fc.assert(
      fc.property(typeAndValue, ([type, value]) => {
        const decoded = decodeMsgpack(encodeMsgpack(value, type), type);
        expect(comparable(decoded)).toEqual(comparable(value));
      }),
      { numRuns: 1500 },
    );
  });

  it("encodes deterministically: re-encoding the decoded value gives the same bytes", () => {
    const typeAndValue = ctyTypeArb(3).chain((t) => ctyValueArb(t, 3).map((v) => [t, v] as const));
    fc.assert(
      fc.property(typeAndValue, ([type, value]) => {
        const once = encodeMsgpack(value, type);
        expect(hex(encodeMsgpack(decodeMsgpack(once, type), type))).toBe(hex(once));
      }),
      { numRuns: 300 },
    );
  });
});

describe("msgpack byte vectors (go-cty cty/msgpack)", () => {
  it("writes a plain unknown as exactly d4 00 00, whatever the type", () => {
    for (const t of ["string", "number", ["list", "string"], ["object", { a: "bool" }], "dynamic"] as CtyType[]) {
      expect(hex(encodeMsgpack(UNKNOWN, t))).toBe("d40000");
    }
  });

  it("reads any extension as unknown", () => {
    expect(decodeMsgpack(bytes("d40000"), "string")).toBeInstanceOf(Unknown);
    expect(decodeMsgpack(bytes("d5 05 0102"), ["list", "number"])).toBeInstanceOf(Unknown);
    expect(decodeMsgpack(bytes("c7 00 00"), "bool")).toBeInstanceOf(Unknown);
  });

  it("writes a not-null unknown string with prefix foo- as go-cty does (extension 12) and reads it back", () => {
    const v = new Unknown({ notNull: true, stringPrefix: "foo-" });
    const wire = "c7 09 0c 82 01 c2 02 a4 666f6f2d";
    expect(hex(encodeMsgpack(v, "string"))).toBe(wire.replace(/\s+/g, ""));
    expect(comparable(decodeMsgpack(bytes(wire), "string"))).toEqual(comparable(v));
  });

  it("writes number bounds as [number, inclusive] under keys 3 and 4", () => {
    const v = new Unknown({ numberLower: [0, true], numberUpper: [1, true] });
    expect(hex(encodeMsgpack(v, "number"))).toBe("c7090c8203 9200c3 04 9201c3".replace(/\s+/g, ""));
  });

  it("reads collection length bounds (keys 5 and 6) and skips refinement keys it does not know", () => {
    // {5: 1, 6: 3, 9: "future"}
    const v = decodeMsgpack(bytes("c7 0d 0c 83 0501 0603 09 a6 667574757265"), ["list", "string"]);
    expect(v).toEqual(new Unknown({ lengthLower: 1, lengthUpper: 3 }));
  });

  it("reads a nullness refinement of true as a known null", () => {
    expect(decodeMsgpack(bytes("c7 03 0c 81 01 c3"), "string")).toBeNull();
  });

  it("cuts a string prefix to 256 bytes minus the last character, as go-cty does", () => {
    expect(truncatePrefix("a".repeat(1024))).toBe("a".repeat(255));
    expect(truncatePrefix(`${"c".repeat(255)}-`)).toBe(`${"c".repeat(255)}-`);
    expect(truncatePrefix(`${"d".repeat(255)}🤷🤷`)).toBe("d".repeat(255));
  });

  it("writes a dynamic value as [JSON type bytes, value] and a wholly unknown one as a bare extension", () => {
    const wire = `92 c4 08 ${hex(Buffer.from('"string"'))} a5 ${hex(Buffer.from("hello"))}`.replace(/\s+/g, "");
    expect(hex(encodeMsgpack(new Dynamic("string", "hello"), "dynamic"))).toBe(wire);
    expect(decodeMsgpack(bytes(wire), "dynamic")).toEqual(new Dynamic("string", "hello"));
    expect(hex(encodeMsgpack(new Unknown({ notNull: true }), "dynamic"))).toBe("d40000");
    expect(hex(encodeMsgpack(null, "dynamic"))).toBe("c0");
    const obj = new Dynamic(["object", { b: "number", a: "string" }], { a: "x", b: 1 });
    const typeText = '["object",{"a":"string","b":"number"}]';
    expect(hex(encodeMsgpack(obj, "dynamic")).slice(6, 6 + 2 * typeText.length)).toBe(hex(Buffer.from(typeText)));
  });

  it("gives a plain value in a dynamic position the type HCL would give the literal", () => {
    const out = decodeMsgpack(encodeMsgpack(["a", 1, null, { ok: true }], "dynamic"), "dynamic");
    expect(out).toEqual(
      new Dynamic(["tuple", ["string", "number", "dynamic", ["object", { ok: "bool" }]]], ["a", 1, null, { ok: true }]),
    );
  });

  it("writes numbers as go-cty does: int64 when exact, float64 when exact, else decimal text", () => {
    expect(hex(encodeMsgpack(new BigNumber("9223372036854775807"), "number"))).toBe("cf7fffffffffffffff");
    expect(hex(encodeMsgpack(new BigNumber("18446744073709551616"), "number"))).toBe("cb43f0000000000000");
    expect(hex(encodeMsgpack(new BigNumber("9223372036854775809"), "number"))).toBe(
      `b3${hex(Buffer.from("9223372036854775809"))}`,
    );
    expect(hex(encodeMsgpack(new BigNumber("0.1"), "number"))).toBe(`a3${hex(Buffer.from("0.1"))}`);
    expect(hex(encodeMsgpack(1.5, "number"))).toBe("cb3ff8000000000000");
    expect(hex(encodeMsgpack(-1, "number"))).toBe("ff");
    expect(hex(encodeMsgpack(200, "number"))).toBe("ccc8");
  });

  it("reads big integers and awkward decimals exactly", () => {
    expect(decodeMsgpack(bytes("cf7fffffffffffffff"), "number")).toEqual(new BigNumber("9223372036854775807"));
    expect(decodeMsgpack(bytes("d38000000000000000"), "number")).toEqual(-(2 ** 63));
    expect(decodeMsgpack(bytes(`a3${hex(Buffer.from("0.1"))}`), "number")).toEqual(new BigNumber("0.1"));
    expect(decodeMsgpack(bytes(`a3${hex(Buffer.from("2.5"))}`), "number")).toBe(2.5);
  });

  it("orders map keys and attributes by UTF-8 bytes, as Go sorts them", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), fc.string({ unit: "grapheme" }), (a, b) => {
        expect(Math.sign(compareUtf8(a, b))).toBe(Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
      { numRuns: 2000 },
    );
    expect(hex(encodeMsgpack({ "\u{ff5e}": 1, "\u{1f600}": 2 }, ["map", "number"]))).toBe(
      `82a3${hex(Buffer.from("\u{ff5e}"))}01a4${hex(Buffer.from("\u{1f600}"))}02`,
    );
  });

  it("keeps map keys that are special in JavaScript", () => {
    const v: Value = Object.fromEntries([["__proto__", "x"]]);
    const out = decodeMsgpack(encodeMsgpack(v, ["map", "string"]), ["map", "string"]) as Record<string, Value>;
    expect(Object.keys(out)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe("strict objects", () => {
  const t: CtyType = ["object", { id: "string", tags: ["map", "string"] }];

  it("fails to encode an object lacking an attribute, naming it", () => {
    expect(() => encodeMsgpack({ id: "n1" }, t)).toThrow(/attribute "tags" is missing/);
  });

  it("fails to encode an attribute the schema does not have", () => {
    expect(() => encodeMsgpack({ id: "n1", tags: null, extra: 1 }, t)).toThrow(
      /attribute "extra" is not in the schema/,
    );
  });

  it("names the path of a nested type mismatch", () => {
    expect(() => encodeMsgpack({ id: "n1", tags: { a: 1 } }, t)).toThrow(/tags\["a"\]: a string is required/);
  });

  it("fails to decode an object with a missing or an unsupported attribute", () => {
    expect(() => decodeMsgpack(encodeMsgpack({ id: "n1" }, ["object", { id: "string" }]), t)).toThrow(
      /an object with 2 attributes is required/,
    );
    expect(() => decodeMsgpack(encodeMsgpack({ zz: "n1" }, ["object", { zz: "string" }]), t)).toThrow(
      /unsupported attribute "zz"/,
    );
  });

  it("fails to decode an object that names one attribute twice and leaves another out", () => {
    // {id: "a", id: "b"} where {id, tags} is required: two keys, but one attribute missing.
    const twice = bytes(`82a26964a161a26964a162`);
    expect(() => decodeMsgpack(twice, t)).toThrow(/an object with 2 attributes is required \(1 given\)/);
  });

  it("decodes integers of every width exactly", () => {
    for (const n of [0, 127, -1, -32, 255, -128, 65535, -32768, 2 ** 32 - 1, -(2 ** 31), 2 ** 53 - 1, -(2 ** 53) + 1])
      expect(decodeMsgpack(encodeMsgpack(n, "number"), "number")).toBe(n);
    expect(decodeMsgpack(bytes("cfffffffffffffffff"), "number")).toEqual(new BigNumber("18446744073709551615"));
  });

  it("refuses trailing bytes", () => {
    expect(() => decodeMsgpack(bytes("c0c0"), "string")).toThrow(/trailing/);
  });
});

describe("JSON fallback and DynamicValue", () => {
  const t: CtyType = ["object", { id: "string", n: "number", added: "bool", any: "dynamic" }];

  it("decodes cty JSON text, filling absent attributes with null and keeping big numbers exact", () => {
    const v = decodeJson(
      '{"id":"a","n":123456789012345678901234567890,"any":{"value":[1],"type":["list","number"]}}',
      t,
    );
    expect(v).toEqual({
      id: "a",
      n: new BigNumber("123456789012345678901234567890"),
      added: null,
      any: new Dynamic(["list", "number"], [1]),
    });
  });

  it("decodes already-parsed JSON", () => {
    expect(decodeJson({ id: "a", n: 1, added: true, any: null }, t)).toEqual({ id: "a", n: 1, added: true, any: null });
  });

  it("prefers msgpack, falls back to JSON, and reads an empty DynamicValue as null", () => {
    const dv = encodeDynamicValue({ id: "a", n: 2, added: null, any: null }, t);
    expect(decodeDynamicValue(dv, t)).toEqual({ id: "a", n: 2, added: null, any: null });
    expect(decodeDynamicValue({ json: Buffer.from('{"id":"j"}') }, t)).toEqual({
      id: "j",
      n: null,
      added: null,
      any: null,
    });
    expect(decodeDynamicValue(null, t)).toBeNull();
    expect(decodeDynamicValue({ msgpack: Buffer.alloc(0), json: Buffer.alloc(0) }, t)).toBeNull();
  });
});
