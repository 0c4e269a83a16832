import { describe, expect, expectTypeOf, it } from "vitest";
import {
  attr,
  BigNumber,
  block,
  decode,
  encode,
  isUnknownValue,
  type ModelOf,
  UNKNOWN,
  type Unknowable,
  ValueTypeError,
} from "../../../src/framework/index.js";

const schema = {
  attributes: {
    id: attr.string({ computed: true }),
    name: attr.string({ required: true }),
    count: attr.number({ optional: true }),
    on: attr.bool({ optional: true }),
    tags: attr.set("string", { optional: true }),
    labels: attr.map("string", { optional: true }),
    disks: attr.listNested(
      { size: attr.number({ required: true }), kind: attr.string({ optional: true }) },
      { optional: true },
    ),
  },
  blocks: { net: block.single({ attributes: { mac: attr.string({ required: true }) } }) },
} as const;

const state = {
  id: "x1",
  name: "n",
  count: 3,
  on: null,
  tags: ["a", "b"],
  labels: { rack: "r1" },
  disks: [{ size: 10, kind: null }],
  net: { mac: "aa:bb" },
};

describe("typed models", () => {
  it("agree with the schema at compile time", () => {
    type S = ModelOf<typeof schema>;
    expectTypeOf<S["id"]>().toEqualTypeOf<string | null>();
    expectTypeOf<S["name"]>().toEqualTypeOf<string>();
    expectTypeOf<S["count"]>().toEqualTypeOf<number | null>();
    expectTypeOf<S["on"]>().toEqualTypeOf<boolean | null>();
    expectTypeOf<S["tags"]>().toEqualTypeOf<readonly string[] | null>();
    expectTypeOf<S["labels"]>().toEqualTypeOf<{ readonly [key: string]: string } | null>();
    expectTypeOf<NonNullable<S["disks"]>[number]["size"]>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<S["net"]>["mac"]>().toEqualTypeOf<string>();
    type P = ModelOf<typeof schema, "plan">;
    expectTypeOf<P["id"]>().toEqualTypeOf<Unknowable<string | null>>();
    expectTypeOf<P["name"]>().toEqualTypeOf<string>();
    type C = ModelOf<typeof schema, "config">;
    expectTypeOf<C["name"]>().toEqualTypeOf<Unknowable<string>>();
  });

  it("refuses an option the builders do not know", () => {
    // @ts-expect-error a misspelt flag is a compile error, not an optional attribute typed as a required one
    expect(attr.string({ requird: true }).kind).toBe("typed");
  });

  it("round-trips a state, nulls, sets, nested attributes and blocks", () => {
    const m = decode(schema, state);
    expect(m).toEqual(state);
    expect(encode(schema, m)).toEqual(state);
  });

  it("keeps unknowns in a plan, refuses them in a state", () => {
    const plan = { ...state, id: UNKNOWN };
    const m = decode(schema, plan, "plan");
    expect(isUnknownValue(m.id)).toBe(true);
    expect(encode(schema, m)).toEqual(plan);
    expect(() => decode(schema, plan)).toThrow(ValueTypeError);
  });

  it("turns big numbers into JS numbers", () => {
    expect(decode(schema, { ...state, count: new BigNumber("12345678901234567890") }).count).toBe(12345678901234567000);
  });

  it("reports a shape mismatch as a provider bug, naming where", () => {
    expect(() => decode(schema, { ...state, disks: [{ size: "ten", kind: null }] })).toThrow(
      /disks\[0\]\.size is not a number/,
    );
    expect(() => decode(schema, { ...state, name: undefined } as never)).toThrow(/name is missing/);
    expect(() => encode(schema, { ...decode(schema, state), count: undefined } as never)).toThrow(ValueTypeError);
  });

  it("encodes absent blocks and null nested attributes", () => {
    const bare = { ...state, disks: null, net: null, tags: null, labels: null };
    expect(encode(schema, decode(schema, bare))).toEqual(bare);
  });
});
