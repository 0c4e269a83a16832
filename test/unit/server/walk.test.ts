import { describe, expect, it } from "vitest";
import type { Value } from "../../../src/framework/values.js";
import { mapNested } from "../../../src/server/walk.js";

describe("walking a map of nested objects during planning", () => {
  it("keeps a user's map key named __proto__ as data, paired with its config and prior element", async () => {
    const plan = JSON.parse('{"__proto__": {"v": "p"}, "a": {"v": "q"}}') as Value;
    const config = JSON.parse('{"__proto__": {"v": "c"}, "a": {"v": "d"}}') as Value;
    const seen: Array<[string, Value]> = [];
    const out = await mapNested("map", {}, { plan, config, prior: null }, [], async (t, path) => {
      const step = path[0] as { key: string };
      seen.push([step.key, t.config]);
      return t.plan;
    });
    expect(Object.keys(out as object).sort()).toEqual(["__proto__", "a"]);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(seen).toContainEqual(["__proto__", { v: "c" }]);
  });

  it("does not take the object prototype for a missing __proto__ element of config or prior state", async () => {
    const plan = JSON.parse('{"__proto__": {"v": "p"}}') as Value;
    const priors: Value[] = [];
    await mapNested("map", {}, { plan, config: {}, prior: {} }, [], async (t) => {
      priors.push(t.prior, t.config);
      return t.plan;
    });
    expect(priors).toEqual([null, null]);
  });
});
