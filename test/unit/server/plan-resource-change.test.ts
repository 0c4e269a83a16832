import { expect, describe as group, test } from "vitest";
import { formatPath, isUnknown, type ObjectValue } from "../../../src/framework/index.js";
import { consumerSchema } from "../../support/kitchen-sink/consumer.js";
import { thingSchema } from "../../support/kitchen-sink/thing.js";
import { planAndApply, planChange } from "../../support/provider-rpc.js";
import { configOf, kitchenServer } from "./harness.js";

const T = "rfkitchen_thing";
const base = () =>
  configOf(thingSchema, {
    name: "alpha",
    size: 10,
    zone: "z1",
    token: "write-only-secret",
    endpoint: { host: "bmc.local", port: null },
    network: { vlan: 100, mtu: null },
    rule: [{ port: 22, protocol: "tcp" }],
    mount: [{ path: "/data", read_only: true }],
    pool: { gpu: { size: 8 } },
  });

group("PlanResourceChange", () => {
  test("GIVEN a create WHEN planned THEN computed values are unknown and defaults are filled", async () => {
    const srv = await kitchenServer();
    const p = await planChange(srv, T, thingSchema, base());
    expect(p.diagnostics).toEqual([]);
    const planned = p.plannedState as ObjectValue;
    expect(isUnknown(planned.id)).toBe(true);
    expect(isUnknown(planned.fingerprint)).toBe(true);
    expect(planned.enabled).toBe(true);
    expect(planned.tier).toBe("standard");
    expect(planned.endpoint).toEqual({ host: "bmc.local", port: 443 });
    expect(planned.network).toEqual({ vlan: 100, mtu: 1500 });
    expect(planned.token).toBeNull(); // write-only never reaches the plan
    expect(p.requiresReplace).toEqual([]);
  });

  test("GIVEN an applied thing WHEN planned with the same config THEN the plan equals the prior state", async () => {
    const srv = await kitchenServer();
    const apply = await planAndApply(srv, T, thingSchema, base());
    const again = await planChange(srv, T, thingSchema, base(), apply.newState, apply.private);
    expect(again.diagnostics).toEqual([]);
    expect(again.plannedState).toEqual(apply.newState);
    expect(again.requiresReplace).toEqual([]);
  });

  test("GIVEN an applied thing WHEN an in-place attribute changes THEN derived values go unknown but id is kept", async () => {
    const srv = await kitchenServer();
    const apply = await planAndApply(srv, T, thingSchema, base());
    const prior = apply.newState as ObjectValue;
    const p = await planChange(srv, T, thingSchema, { ...base(), size: 20 }, prior, apply.private);
    const planned = p.plannedState as ObjectValue;
    expect(planned.id).toBe(prior.id); // useStateForUnknown
    expect(isUnknown(planned.fingerprint)).toBe(true);
    expect(planned.size).toBe(20);
    expect(p.requiresReplace).toEqual([]);
  });

  test("GIVEN requiresReplace attributes WHEN only name changes THEN only name is reported", async () => {
    const srv = await kitchenServer();
    const apply = await planAndApply(srv, T, thingSchema, base());
    const p = await planChange(srv, T, thingSchema, { ...base(), name: "beta" }, apply.newState, apply.private);
    expect(p.diagnostics).toEqual([]);
    expect(p.requiresReplace.map(formatPath)).toEqual(["name"]);
  });

  test("GIVEN requiresReplaceIf on zone WHEN zone changes THEN zone is reported", async () => {
    const srv = await kitchenServer();
    const apply = await planAndApply(srv, T, thingSchema, base());
    const p = await planChange(srv, T, thingSchema, { ...base(), zone: "z2" }, apply.newState, apply.private);
    expect(p.requiresReplace.map(formatPath)).toEqual(["zone"]);
  });

  test("GIVEN the consumer WHEN its input is unknown THEN its output is unknown, and known when the input is", async () => {
    const srv = await kitchenServer();
    const { UNKNOWN } = await import("../../../src/framework/index.js");
    const unknownInput = await planChange(
      srv,
      "rfkitchen_consumer",
      consumerSchema,
      configOf(consumerSchema, { input: UNKNOWN }),
    );
    expect(unknownInput.diagnostics).toEqual([]);
    expect(isUnknown((unknownInput.plannedState as ObjectValue).output)).toBe(true);
    const known = await planChange(
      srv,
      "rfkitchen_consumer",
      consumerSchema,
      configOf(consumerSchema, { input: "abc" }),
    );
    expect((known.plannedState as ObjectValue).output).toBe("consumed:abc");
  });

  test("GIVEN a destroy WHEN planned THEN the plan is null", async () => {
    const srv = await kitchenServer();
    const apply = await planAndApply(srv, T, thingSchema, base());
    const p = await planChange(srv, T, thingSchema, null, apply.newState, apply.private);
    expect(p.plannedState).toBeNull();
    expect(p.diagnostics).toEqual([]);
  });

  test("fails with a provider-bug diagnostic naming the attribute when modifyPlan changes a configured value", async () => {
    const srv = await kitchenServer();
    const { brokenSchema } = await import("../../support/kitchen-sink/broken.js");
    const p = await planChange(
      srv,
      "rfkitchen_broken",
      brokenSchema,
      configOf(brokenSchema, { name: "n", mode: "plan_changes_config" }),
    );
    expect(p.diagnostics).toHaveLength(1);
    expect(p.diagnostics[0].summary).toBe("Provider bug in rfkitchen_broken");
    expect(formatPath(p.diagnostics[0].attribute)).toBe("name");
    expect(p.diagnostics[0].detail).toContain('planned value "n-planned" does not match the configuration value "n"');
    expect(p.diagnostics[0].detail).toContain("This is always a bug in the provider, please report it");
  });
});
