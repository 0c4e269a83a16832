import fc from "fast-check";
import { expect, describe as group, test } from "vitest";
import {
  BigNumber,
  type CtyType,
  Dynamic,
  JsonValueError,
  UNKNOWN,
  valueFromJson,
  valueToJson,
} from "../../../src/framework/index.js";

const type: CtyType = [
  "object",
  {
    s: "string",
    n: "number",
    b: "bool",
    l: ["list", "string"],
    m: ["map", "number"],
    o: ["object", { x: "bool" }],
    d: "dynamic",
  },
];

group("valueFromJson / valueToJson", () => {
  test("reads typed JSON, filling missing object keys with null and dropping unknown ones", () => {
    const v = valueFromJson({ s: "a", n: 1.5, l: ["x"], m: { k: 2 }, gone: 1 }, type);
    expect(v).toEqual({ s: "a", n: 1.5, b: null, l: ["x"], m: { k: 2 }, o: null, d: null });
  });

  test("keeps big numbers exact through a round trip", () => {
    const v = valueFromJson("123456789012345678901234567890.5", "number");
    expect(v).toBeInstanceOf(BigNumber);
    expect(valueToJson(v, "number")).toBe("123456789012345678901234567890.5");
    expect(valueFromJson("42", "number")).toBe(42);
  });

  test("dynamic values travel as {value, type}", () => {
    const v = valueFromJson({ value: { a: 1 }, type: ["map", "number"] }, "dynamic");
    expect(v).toEqual(new Dynamic(["map", "number"], { a: 1 }));
    expect(valueToJson(v, "dynamic")).toEqual({ value: { a: 1 }, type: ["map", "number"] });
  });

  test("fails with the path of the value that does not fit", () => {
    expect(() => valueFromJson({ o: { x: "maybe" } }, type)).toThrowError(/^o\.x: expected a bool/);
    expect(() => valueToJson({ s: UNKNOWN }, ["object", { s: "string" }])).toThrowError(JsonValueError);
  });

  test('keeps a map key named "__proto__" as data (counterexample found by the property below)', () => {
    const json = JSON.parse('{"m":{"__proto__":0}}');
    const v = valueFromJson(json, ["object", { m: ["map", "number"] }]);
    expect(Object.keys((v as { m: Record<string, unknown> }).m)).toEqual(["__proto__"]);
    expect(JSON.stringify(valueToJson(v, ["object", { m: ["map", "number"] }]))).toBe('{"m":{"__proto__":0}}');
  });

  test("property: valueFromJson(valueToJson(v)) === v for known values", () => {
    const arb = fc.record({
      s: fc.option(fc.string(), { nil: null }),
      n: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }), { nil: null }),
      b: fc.option(fc.boolean(), { nil: null }),
      l: fc.option(fc.array(fc.string()), { nil: null }),
      m: fc.option(fc.dictionary(fc.string(), fc.integer()), { nil: null }),
      o: fc.option(fc.record({ x: fc.option(fc.boolean(), { nil: null }) }), { nil: null }),
      d: fc.constant(null),
    });
    fc.assert(
      fc.property(arb, (v) => {
        const back = valueFromJson(JSON.parse(JSON.stringify(valueToJson(v, type))), type);
        expect(back).toEqual(Object.is(v.n, -0) ? { ...v, n: 0 } : v);
      }),
    );
  });
});

group("lossless input", () => {
  test("accepts BigNumber leaves, as the protocol's lossless JSON parser produces them", () => {
    const v = valueFromJson({ n: new BigNumber("98765432109876543210"), s: new BigNumber("1e400") }, [
      "object",
      { n: "number", s: "string" },
    ]);
    expect(v).toEqual({ n: new BigNumber("98765432109876543210"), s: "1e400" });
  });
});
