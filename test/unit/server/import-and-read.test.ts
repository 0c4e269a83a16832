import { expect, describe as group, test } from "vitest";
import { nullObject, type ObjectValue } from "../../../src/framework/index.js";
import { brokenSchema } from "../../support/kitchen-sink/broken.js";
import { thingSchema } from "../../support/kitchen-sink/thing.js";
import { planAndApply } from "../../support/provider-rpc.js";
import { configOf, kitchenServer } from "./harness.js";

group("ImportResourceState + ReadResource", () => {
  test("GIVEN an existing thing WHEN imported by id THEN the state has only the id and read fills the rest", async () => {
    const srv = await kitchenServer();
    const config = configOf(thingSchema, { name: "imp", size: 5, labels: ["a", "b"], meta: { k: "v" } });
    const apply = await planAndApply(srv, "rfkitchen_thing", thingSchema, config);
    const id = (apply.newState as ObjectValue).id as string;

    const imp = await srv.importResourceState({ typeName: "rfkitchen_thing", id });
    expect(imp.diagnostics).toEqual([]);
    expect(imp.imported).toHaveLength(1);
    expect(imp.imported[0].typeName).toBe("rfkitchen_thing");
    expect(imp.imported[0].state).toEqual({ ...nullObject(thingSchema), id });

    const read = await srv.readResource({
      typeName: "rfkitchen_thing",
      currentState: imp.imported[0].state,
      private: imp.imported[0].private,
    });
    expect(read.diagnostics).toEqual([]);
    expect(read.newState).toEqual(apply.newState);
  });

  test("GIVEN an id that does not exist WHEN read after import THEN the state is null", async () => {
    const srv = await kitchenServer();
    const imp = await srv.importResourceState({ typeName: "rfkitchen_thing", id: "thing-missing" });
    const read = await srv.readResource({
      typeName: "rfkitchen_thing",
      currentState: imp.imported[0].state,
      private: new Uint8Array(),
    });
    expect(read.newState).toBeNull();
  });

  test("fails with a clear diagnostic for a resource without import support", async () => {
    const srv = await kitchenServer();
    const imp = await srv.importResourceState({ typeName: "rfkitchen_broken", id: "x" });
    expect(imp.imported).toEqual([]);
    expect(imp.diagnostics[0].summary).toBe("Resource import not supported");
    expect(brokenSchema.attributes.id).toBeDefined();
  });

  test("fails for an unknown resource type instead of throwing", async () => {
    const srv = await kitchenServer();
    const r = await srv.readResource({
      typeName: "rfkitchen_nope",
      currentState: { id: "x" },
      private: new Uint8Array(),
    });
    expect(r.diagnostics[0].summary).toBe("Unknown resource type");
  });
});
