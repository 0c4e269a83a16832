import { expect, describe as group, test } from "vitest";
import { formatPath, UNKNOWN } from "../../../src/framework/index.js";
import { thingSchema } from "../../support/kitchen-sink/thing.js";
import { configOf, kitchenServer } from "./harness.js";

const T = "rfkitchen_thing";
const paths = (ds: readonly { attribute?: readonly object[] }[]) =>
  ds.map((d) => formatPath(d.attribute as Parameters<typeof formatPath>[0]));

group("ValidateResourceConfig", () => {
  test("GIVEN a valid config THEN no diagnostics", async () => {
    const srv = await kitchenServer();
    const r = await srv.validateResourceConfig({
      typeName: T,
      config: configOf(thingSchema, { name: "ok-name", size: 3 }),
    });
    expect(r.diagnostics).toEqual([]);
  });

  test("fails naming the missing required attribute", async () => {
    const srv = await kitchenServer();
    const r = await srv.validateResourceConfig({ typeName: T, config: configOf(thingSchema, {}) });
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Missing required argument"]);
    expect(paths(r.diagnostics)).toEqual(["name"]);
  });

  test("fails with the path of every bad nested value (attributes, nested attributes, blocks)", async () => {
    const srv = await kitchenServer();
    const config = configOf(thingSchema, {
      name: "Bad Name",
      size: 5000,
      tier: "gold",
      disks: [
        { name: "a", size_gib: 10 },
        { name: "b", size_gib: 0 },
      ],
      network: { vlan: 9999, mtu: null },
      rule: [
        { port: 1, protocol: "tcp" },
        { port: 2, protocol: "icmp" },
      ],
      timeouts: { create: "soon", read: null, update: null, delete: null },
    });
    const r = await srv.validateResourceConfig({ typeName: T, config });
    expect(paths(r.diagnostics).sort()).toEqual(
      ["name", "size", "tier", "disks[1].size_gib", "network.vlan", "rule[1].protocol", "timeouts.create"].sort(),
    );
    const tier = r.diagnostics.find((d) => formatPath(d.attribute) === "tier");
    expect(tier?.detail).toContain('must be one of "standard", "premium", got "gold"');
  });

  test("GIVEN unknown values THEN validators and required checks skip them", async () => {
    const srv = await kitchenServer();
    const r = await srv.validateResourceConfig({
      typeName: T,
      config: configOf(thingSchema, { name: UNKNOWN, size: UNKNOWN }),
    });
    expect(r.diagnostics).toEqual([]);
  });

  test("fails when a computed-only attribute is configured", async () => {
    const srv = await kitchenServer();
    const r = await srv.validateResourceConfig({
      typeName: T,
      config: configOf(thingSchema, { name: "a", fingerprint: "x" }),
    });
    expect(paths(r.diagnostics)).toEqual(["fingerprint"]);
  });

  test("fails when there are more blocks than maxItems", async () => {
    const srv = await kitchenServer();
    const rule = { port: 1, protocol: null };
    const r = await srv.validateResourceConfig({
      typeName: T,
      config: configOf(thingSchema, { name: "a", rule: [rule, rule, rule, rule, rule] }),
    });
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Too many rule blocks"]);
  });

  test("fails for a write-only value when the engine cannot take write-only attributes", async () => {
    const srv = await kitchenServer();
    const config = configOf(thingSchema, { name: "a", token: "t0ken" });
    const old = await srv.validateResourceConfig({
      typeName: T,
      config,
      clientCapabilities: { deferralAllowed: false, writeOnlyAttributesAllowed: false },
    });
    expect(paths(old.diagnostics)).toEqual(["token"]);
    const modern = await srv.validateResourceConfig({
      typeName: T,
      config,
      clientCapabilities: { deferralAllowed: false, writeOnlyAttributesAllowed: true },
    });
    expect(modern.diagnostics).toEqual([]);
  });
});

group("validateConfig capabilities", () => {
  test("fails with the resource's own cross-attribute rule at its path, and skips unknowns", async () => {
    const srv = await kitchenServer();
    const bad = await srv.validateResourceConfig({
      typeName: T,
      config: configOf(thingSchema, { name: "a", tier: "premium", size: 5 }),
    });
    expect(bad.diagnostics.map((d) => d.summary)).toEqual(["Size too small for premium tier"]);
    expect(paths(bad.diagnostics)).toEqual(["size"]);
    const later = await srv.validateResourceConfig({
      typeName: T,
      config: configOf(thingSchema, { name: "a", tier: "premium", size: UNKNOWN }),
    });
    expect(later.diagnostics).toEqual([]);
  });

  test("fails with the provider's own rule for a relative store_path", async () => {
    const srv = await kitchenServer();
    const r = await srv.validateProviderConfig({
      config: { store_path: "rel/store.json", label: null, api_token: null },
    });
    expect(paths(r.diagnostics)).toEqual(["store_path"]);
  });
});
