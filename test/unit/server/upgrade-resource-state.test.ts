import { expect, describe as group, test } from "vitest";
import { nullObject, type ObjectValue } from "../../../src/framework/index.js";
import { thingSchema } from "../../support/kitchen-sink/thing.js";
import { kitchenServer } from "./harness.js";

group("UpgradeResourceState", () => {
  test("GIVEN version-0 state WHEN upgraded THEN both upgraders ran, added attributes are null, removed ones dropped", async () => {
    const srv = await kitchenServer();
    const v0 = { id: "thing-1", label: "old-name", size: "12", fingerprint: "f", retired_field: "gone" };
    const r = await srv.upgradeResourceState({ typeName: "rfkitchen_thing", version: 0, rawJson: v0 });
    expect(r.diagnostics).toEqual([]);
    const s = r.upgradedState as ObjectValue;
    expect(s.name).toBe("old-name"); // 0 → 1 renamed label
    expect(s.size).toBe(12); // 1 → 2 made size a number
    expect("label" in s).toBe(false);
    expect("retired_field" in s).toBe(false);
    expect(s.meta).toBeNull();
    expect(s.rule).toEqual([]); // absent list block → empty
    expect(s.options).toEqual(nullObject(thingSchema.blocks!.options.block));
  });

  test("GIVEN current-version state WHEN upgraded THEN values keep their types (dynamic, big numbers)", async () => {
    const srv = await kitchenServer();
    const json = {
      id: "t",
      name: "n",
      size: "12345678901234567890",
      extra: { value: ["a", 1], type: ["tuple", ["string", "number"]] },
    };
    const r = await srv.upgradeResourceState({ typeName: "rfkitchen_thing", version: 2, rawJson: json });
    expect(r.diagnostics).toEqual([]);
    const s = r.upgradedState as ObjectValue;
    expect(String(s.size)).toBe("12345678901234567890");
    expect(s.extra).toMatchObject({ type: ["tuple", ["string", "number"]], value: ["a", 1] });
  });

  test("fails when the state comes from a newer schema version", async () => {
    const srv = await kitchenServer();
    const r = await srv.upgradeResourceState({ typeName: "rfkitchen_thing", version: 3, rawJson: { id: "t" } });
    expect(r.diagnostics[0].summary).toBe("Unable to upgrade resource state");
    expect(r.diagnostics[0].detail).toContain("newer provider");
  });

  test("fails naming the attribute when stored JSON does not fit the schema", async () => {
    const srv = await kitchenServer();
    const r = await srv.upgradeResourceState({
      typeName: "rfkitchen_thing",
      version: 2,
      rawJson: { id: "t", tags: "x" },
    });
    expect(r.diagnostics[0].detail).toContain("tags: expected a list");
  });
});
