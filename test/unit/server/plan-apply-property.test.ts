import fc from "fast-check";
import { expect, describe as group, test } from "vitest";
import { Dynamic, type ObjectValue, type Value } from "../../../src/framework/index.js";
import { thingSchema } from "../../support/kitchen-sink/thing.js";
import { planAndApply, planChange } from "../../support/provider-rpc.js";
import { configOf, describe, kitchenServer } from "./harness.js";

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: null });
const word = fc.stringMatching(/^[a-z0-9-]{1,12}$/);

/** Any valid rfkitchen_thing configuration. */
const thingConfig: fc.Arbitrary<ObjectValue> = fc
  .record({
    name: word,
    size: opt(fc.integer({ min: 0, max: 1000 })),
    enabled: opt(fc.boolean()),
    tier: opt(fc.constantFrom("standard")),
    zone: opt(word),
    tags: opt(fc.array(word, { maxLength: 8 })),
    labels: opt(fc.uniqueArray(word, { maxLength: 4 })),
    meta: opt(fc.dictionary(word, word, { maxKeys: 3 })),
    spec: opt(
      fc.record({ cpu: opt(fc.integer({ min: 1, max: 64 })), memory_gib: opt(fc.integer({ min: 1, max: 512 })) }),
    ),
    extra: opt(fc.array(fc.integer(), { maxLength: 3 }).map((xs): Value => new Dynamic(["list", "number"], xs))),
    password: opt(word),
    token: opt(word),
    endpoint: opt(fc.record({ host: word, port: opt(fc.integer({ min: 1, max: 65535 })) })),
    disks: opt(fc.array(fc.record({ name: word, size_gib: fc.integer({ min: 1, max: 4096 }) }), { maxLength: 3 })),
    network: opt(fc.record({ vlan: fc.integer({ min: 1, max: 4094 }), mtu: opt(fc.integer({ min: 576, max: 9000 })) })),
    rule: fc.array(
      fc.record({ port: fc.integer({ min: 1, max: 65535 }), protocol: opt(fc.constantFrom("tcp", "udp")) }),
      {
        maxLength: 4,
      },
    ),
    mount: fc.uniqueArray(fc.record({ path: word.map((w) => `/${w}`), read_only: opt(fc.boolean()) }), {
      maxLength: 3,
      selector: (m) => m.path,
    }),
    pool: fc.dictionary(word, fc.record({ size: fc.integer({ min: 1, max: 16 }) }), { maxKeys: 2 }),
    options: fc.record({ verbose: opt(fc.boolean()), level: opt(word) }),
  })
  .map((set) => configOf(thingSchema, set as unknown as ObjectValue));

group("plan and apply over random configurations", () => {
  test("every valid config validates, plans, applies within the contract and then plans no change", async () => {
    const srv = await kitchenServer();
    await fc.assert(
      fc.asyncProperty(thingConfig, async (config) => {
        const v = await srv.validateResourceConfig({ typeName: "rfkitchen_thing", config });
        expect(describe(v.diagnostics)).toBe("");
        const apply = await planAndApply(srv, "rfkitchen_thing", thingSchema, config);
        expect(describe(apply.diagnostics)).toBe("");
        const again = await planChange(srv, "rfkitchen_thing", thingSchema, config, apply.newState, apply.private);
        expect(describe(again.diagnostics)).toBe("");
        expect(again.plannedState).toEqual(apply.newState);
        expect(again.requiresReplace).toEqual([]);
      }),
      { numRuns: 60 },
    );
  });

  test("an update between two random configs stays within the contract", async () => {
    const srv = await kitchenServer();
    await fc.assert(
      fc.asyncProperty(thingConfig, thingConfig, async (first, second) => {
        const a = await planAndApply(srv, "rfkitchen_thing", thingSchema, first);
        const b = await planChange(srv, "rfkitchen_thing", thingSchema, second, a.newState, a.private);
        expect(describe(b.diagnostics)).toBe("");
        if (b.requiresReplace.length > 0) return; // the engine would destroy and create instead
        const applied = await srv.applyResourceChange({
          typeName: "rfkitchen_thing",
          priorState: a.newState,
          plannedState: b.plannedState,
          config: second,
          plannedPrivate: b.plannedPrivate,
        });
        expect(describe(applied.diagnostics)).toBe("");
      }),
      { numRuns: 60 },
    );
  });
});
