import { expect, describe as group, test } from "vitest";
import { decodePrivate, formatPath, isUnknown, type ObjectValue } from "../../../src/framework/index.js";
import { brokenSchema } from "../../support/kitchen-sink/broken.js";
import { fingerprintOf, thingSchema } from "../../support/kitchen-sink/thing.js";
import { planAndApply, planChange } from "../../support/provider-rpc.js";
import { configOf, describe, kitchenServer } from "./harness.js";

const T = "rfkitchen_thing";
const thing = () =>
  configOf(thingSchema, { name: "alpha", size: 1, token: "tok-secret-1", password: "pw-secret-1", extra: null });

async function applyBroken(mode: string | null, secret: string | null = null) {
  const srv = await kitchenServer();
  const config = configOf(brokenSchema, { name: "n", mode, secret });
  const p = await planChange(srv, "rfkitchen_broken", brokenSchema, config);
  expect(describe(p.diagnostics)).toBe("");
  return srv.applyResourceChange({
    typeName: "rfkitchen_broken",
    priorState: null,
    plannedState: p.plannedState,
    config,
    plannedPrivate: p.plannedPrivate,
  });
}

group("ApplyResourceChange", () => {
  test("GIVEN a create THEN every unknown is filled, write-only is null and private state round-trips", async () => {
    const srv = await kitchenServer();
    const apply = await planAndApply(srv, T, thingSchema, thing());
    expect(apply.diagnostics).toEqual([]);
    const s = apply.newState as ObjectValue;
    expect(typeof s.id).toBe("string");
    expect(s.fingerprint).toBe(fingerprintOf(s));
    expect(s.token).toBeNull();
    expect(s.password).toBe("pw-secret-1"); // sensitive is the engine's concern; the value is stored
    expect(decodePrivate(apply.private)).toEqual({ generation: 1 });
  });

  test("GIVEN an update THEN the resource sees the prior private state", async () => {
    const srv = await kitchenServer();
    const first = await planAndApply(srv, T, thingSchema, thing());
    const second = await planAndApply(srv, T, thingSchema, { ...thing(), size: 2 }, first.newState, first.private);
    expect(second.diagnostics).toEqual([]);
    expect(decodePrivate(second.private)).toEqual({ generation: 2 });
    expect((second.newState as ObjectValue).size).toBe(2);
  });

  test("GIVEN planned state null THEN the object is deleted and null returned", async () => {
    const srv = await kitchenServer();
    const apply = await planAndApply(srv, T, thingSchema, thing());
    const del = await srv.applyResourceChange({
      typeName: T,
      priorState: apply.newState,
      plannedState: null,
      config: null,
      plannedPrivate: apply.private,
    });
    expect(del).toEqual({ newState: null, private: new Uint8Array(0), diagnostics: [] });
    const read = await srv.readResource({ typeName: T, currentState: apply.newState, private: apply.private });
    expect(read.newState).toBeNull();
  });

  test("fails with our diagnostic naming `name` when apply returns another value than planned", async () => {
    const a = await applyBroken(null);
    expect(a.diagnostics).toHaveLength(1);
    expect(a.diagnostics[0].summary).toBe("Provider bug in rfkitchen_broken");
    expect(formatPath(a.diagnostics[0].attribute)).toBe("name");
    expect(a.diagnostics[0].detail).toContain('planned "n", but apply returned "n-mangled"');
  });

  test("fails naming `id` when apply leaves an unknown", async () => {
    const a = await applyBroken("unknown_after_apply");
    expect(a.diagnostics.map((d) => formatPath(d.attribute))).toEqual(["id"]);
    expect(a.diagnostics[0].detail).toContain("still unknown after apply");
    expect(isUnknown((a.newState as ObjectValue | null)?.id)).toBe(false); // never sends an unknown back
  });

  test("fails when apply returns an object with an attribute the schema lacks", async () => {
    const a = await applyBroken("wrong_shape");
    expect(a.diagnostics[0].summary).toBe("Provider bug in rfkitchen_broken");
    expect(a.diagnostics[0].detail).toContain('unsupported attribute "surprise"');
    expect(a.newState).toBeNull();
  });

  test("fails with one unexpected-error diagnostic, secret redacted, when a handler throws", async () => {
    const a = await applyBroken("throw_on_create", "hunter2-secret");
    expect(a.diagnostics).toHaveLength(1);
    expect(a.diagnostics[0].summary).toBe("Unexpected provider error");
    expect(a.diagnostics[0].detail).toContain("backend rejected credentials");
    expect(a.diagnostics[0].detail).toContain("bug in the provider");
    expect(a.diagnostics[0].detail).not.toContain("hunter2-secret");
    expect(a.newState).toBeNull();
  });
});
