import { expect, describe as group, test } from "vitest";
import {
  attr,
  block,
  impliedType,
  type Schema,
  SchemaError,
  timeoutsBlock,
  toWire,
} from "../../../src/framework/index.js";

const schema: Schema = {
  version: 3,
  description: "A rack.",
  attributes: {
    id: attr.string({ computed: true, description: "Id." }),
    secret: attr.string({ optional: true, sensitive: true, writeOnly: true }),
    nics: attr.listNested(
      { mac: attr.string({ required: true }), speed: attr.number({ optional: true }) },
      { optional: true },
    ),
    old: attr.bool({ optional: true, deprecationMessage: "use new" }),
  },
  blocks: {
    gpu: block.list({ attributes: { model: attr.string({ required: true }) } }, { minItems: 1, maxItems: 8 }),
    timeouts: timeoutsBlock(["create"]),
  },
};

group("toWire", () => {
  test("produces the engine's schema shape with flags, nesting, sizes and descriptions", () => {
    const w = toWire(schema);
    expect(w.version).toBe(3);
    expect(w.block.description).toBe("A rack.");
    expect(w.block.attributes[0]).toEqual({
      name: "id",
      type: "string",
      description: "Id.",
      required: false,
      optional: false,
      computed: true,
      sensitive: false,
      writeOnly: false,
      deprecated: false,
    });
    expect(w.block.attributes[1]).toMatchObject({ name: "secret", sensitive: true, writeOnly: true });
    expect(w.block.attributes[2].nestedType?.nesting).toBe("list");
    expect(w.block.attributes[3].deprecated).toBe(true);
    expect(w.block.blockTypes[0]).toMatchObject({ typeName: "gpu", nesting: "list", minItems: 1, maxItems: 8 });
    expect(w.block.blockTypes[1]).toMatchObject({ typeName: "timeouts", nesting: "single" });
    expect(impliedType(w.block)).toEqual([
      "object",
      {
        id: "string",
        secret: "string",
        nics: ["list", ["object", { mac: "string", speed: "number" }, ["speed"]]],
        old: "bool",
        gpu: ["list", ["object", { model: "string" }]],
        timeouts: ["object", { create: "string" }],
      },
    ]);
  });

  test("fails for flag combinations the engine rejects, naming the attribute", () => {
    const bad: [Schema, RegExp][] = [
      [{ attributes: { a: attr.string({}) } }, /^a: set one of required/],
      [{ attributes: { a: attr.string({ required: true, computed: true }) } }, /required excludes/],
      [{ attributes: { a: attr.string({ optional: true, writeOnly: true, computed: true }) } }, /write-only/],
      [{ attributes: { a: attr.string({ optional: true, default: "x" }) } }, /default needs/],
      [{ attributes: { BadName: attr.string({ optional: true }) } }, /snake_case/],
      [{ attributes: {}, blocks: { b: block.single({ attributes: {} }, { maxItems: 2 }) } }, /minItems\/maxItems/],
      [{ attributes: { n: attr.single({ x: attr.string({}) }, { optional: true }) } }, /^n\.x:/],
    ];
    for (const [s, msg] of bad) {
      expect(() => toWire(s)).toThrowError(SchemaError);
      expect(() => toWire(s)).toThrowError(msg);
    }
  });
});

group("schemaDocs", () => {
  test("documents flags, types and what validators, modifiers and defaults promise", async () => {
    const { schemaDocs } = await import("../../../src/framework/index.js");
    const { thingSchema } = await import("../../support/kitchen-sink/thing.js");
    const docs = schemaDocs(thingSchema);
    const row = (p: string) => docs.find((d) => d.path === p);
    expect(row("name")).toMatchObject({
      type: "string",
      flags: ["required"],
      notes: [
        "length between 1 and 64 characters",
        "must be lowercase letters, digits and dashes",
        "requires replacement when changed",
      ],
    });
    expect(row("endpoint.port")?.notes).toEqual(["default: 443"]);
    expect(row("spec")?.type).toBe("object({cpu = number, memory_gib = number})");
    expect(row("token")?.flags).toEqual(["optional", "sensitive", "write-only"]);
    expect(row("rule")?.kind).toBe("block (list, max 4)");
    expect(row("rule.protocol")?.notes).toEqual(['one of "tcp", "udp"']);
  });
});
