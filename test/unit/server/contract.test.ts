import { expect, describe as group, test } from "vitest";
import { attr, block, formatPath, type Schema, UNKNOWN, Unknown } from "../../../src/framework/index.js";
import { checkApplied } from "../../../src/server/contract-apply.js";
import { checkPlan } from "../../../src/server/contract-plan.js";

const schema: Schema = {
  attributes: {
    id: attr.string({ computed: true }),
    name: attr.string({ required: true }),
    pw: attr.string({ optional: true, sensitive: true }),
    ports: attr.set("number", { optional: true, computed: true }),
    size: attr.number({ optional: true, computed: true }),
  },
  blocks: { disk: block.list({ attributes: { gib: attr.number({ required: true }) } }) },
};
const obj = (o: Record<string, unknown>) =>
  ({ id: null, name: "n", pw: null, ports: null, size: null, disk: [], ...o }) as never;
const where = (ps: { path: Parameters<typeof formatPath>[0]; what: string }[]) =>
  ps.map((p) => `${formatPath(p.path)}: ${p.what}`);

group("plan rules", () => {
  test("accept config values, computed unknowns and prior values", () => {
    const config = obj({ pw: "s" });
    expect(checkPlan(schema, { config, prior: null, planned: obj({ pw: "s", id: UNKNOWN, size: UNKNOWN }) })).toEqual(
      [],
    );
  });

  test("fail when a non-computed value differs, without showing sensitive values", () => {
    const problems = checkPlan(schema, { config: obj({ pw: "secret" }), prior: null, planned: obj({ pw: "other" }) });
    expect(where(problems)).toEqual([
      "pw: planned value (sensitive value) does not match the configuration value (sensitive value)",
    ]);
  });

  test("fail when a list of blocks is null instead of empty, or a block element is unknown", () => {
    expect(where(checkPlan(schema, { config: obj({}), prior: null, planned: obj({ disk: null }) }))[0]).toContain(
      "must be empty to mean no blocks, not null",
    );
    const unknownElem = checkPlan(schema, {
      config: obj({ disk: [{ gib: 1 }] }),
      prior: null,
      planned: obj({ disk: [UNKNOWN] }),
    });
    expect(where(unknownElem)[0]).toContain("must not be unknown itself");
  });

  test("fail when the block count differs from config", () => {
    const p = checkPlan(schema, { config: obj({ disk: [{ gib: 1 }] }), prior: null, planned: obj({ disk: [] }) });
    expect(where(p)).toEqual(["disk: planned 0 elements where the configuration has 1"]);
  });
});

group("apply rules", () => {
  test("unknown placeholders must honour their refinements", () => {
    const planned = obj({
      id: new Unknown({ notNull: true, stringPrefix: "srv-" }),
      size: new Unknown({ numberLower: [1, true] }),
    });
    expect(checkApplied(schema, planned, obj({ id: "srv-1", size: 1 }))).toEqual([]);
    expect(where(checkApplied(schema, planned, obj({ id: "vm-1", size: 0 })))).toEqual([
      'id: was planned to start with "srv-", but apply returned "vm-1"',
      "size: was planned to lie within [1, Infinity], but apply returned 0",
    ]);
    expect(where(checkApplied(schema, planned, obj({ id: null, size: 2 })))[0]).toContain("definitely not null");
  });

  test("sets correlate by value and may shrink when unknown elements coalesce, never grow", () => {
    const planned = obj({ id: "x", ports: [22, UNKNOWN] });
    expect(checkApplied(schema, planned, obj({ id: "x", ports: [22, 80] }))).toEqual([]);
    expect(checkApplied(schema, planned, obj({ id: "x", ports: [22] }))).toEqual([]);
    expect(where(checkApplied(schema, planned, obj({ id: "x", ports: [22, 80, 443] })))[0]).toMatch(/^ports: planned/);
    expect(where(checkApplied(schema, obj({ id: "x", ports: [22] }), obj({ id: "x", ports: [23] })))[0]).toMatch(
      /^ports:/,
    );
  });
});
