import { expect, describe as group, test } from "vitest";
import {
  Diagnostics,
  type PlanModifier,
  type PlanModifierRequest,
  requiresReplace,
  requiresReplaceIf,
  UNKNOWN,
  useStateForUnknown,
  type Value,
} from "../../../src/framework/index.js";

function req(p: Partial<PlanModifierRequest>): PlanModifierRequest {
  return {
    path: [{ attr: "x" }],
    configValue: null,
    planValue: null,
    stateValue: null,
    config: {},
    plan: {},
    state: {},
    private: {},
    ...p,
  };
}

async function run(m: PlanModifier, r: PlanModifierRequest) {
  const resp = { planValue: r.planValue as Value, requiresReplace: false, diagnostics: new Diagnostics() };
  await m.modify(r, resp);
  return resp;
}

group("plan modifiers", () => {
  test("requiresReplace fires only for a changed value on update", async () => {
    const m = requiresReplace();
    expect(m.description).toBe("requires replacement when changed");
    expect((await run(m, req({ planValue: "b", stateValue: "a" }))).requiresReplace).toBe(true);
    expect((await run(m, req({ planValue: "a", stateValue: "a" }))).requiresReplace).toBe(false);
    expect((await run(m, req({ planValue: "b", stateValue: null, state: null }))).requiresReplace).toBe(false); // create
    expect((await run(m, req({ planValue: null, stateValue: "a", plan: null }))).requiresReplace).toBe(false); // destroy
    expect((await run(m, req({ planValue: UNKNOWN, stateValue: "a" }))).requiresReplace).toBe(true);
  });

  test("requiresReplaceIf asks its function and describes itself", async () => {
    const m = requiresReplaceIf((r) => r.stateValue !== "keep", "unless it was keep");
    expect(m.description).toBe("unless it was keep");
    expect((await run(m, req({ planValue: "b", stateValue: "a" }))).requiresReplace).toBe(true);
    expect((await run(m, req({ planValue: "b", stateValue: "keep" }))).requiresReplace).toBe(false);
  });

  test("useStateForUnknown keeps a known prior value instead of unknown", async () => {
    const m = useStateForUnknown();
    expect((await run(m, req({ planValue: UNKNOWN, stateValue: "id-1" }))).planValue).toBe("id-1");
    expect((await run(m, req({ planValue: UNKNOWN, stateValue: null, state: null }))).planValue).toBe(UNKNOWN);
    expect((await run(m, req({ planValue: "set", stateValue: "id-1" }))).planValue).toBe("set");
    expect((await run(m, req({ planValue: UNKNOWN, configValue: UNKNOWN, stateValue: "id-1" }))).planValue).toBe(
      UNKNOWN,
    );
  });
});
