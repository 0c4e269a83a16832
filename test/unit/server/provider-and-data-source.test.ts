import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, describe as group, test } from "vitest";
import { type ObjectValue, UNKNOWN } from "../../../src/framework/index.js";
import { createServer } from "../../../src/server/create-server.js";
import { echoSchema } from "../../support/kitchen-sink/echo.js";
import { kitchenSinkProvider } from "../../support/kitchen-sink/provider.js";
import { thingSchema } from "../../support/kitchen-sink/thing.js";
import { planAndApply, planChange } from "../../support/provider-rpc.js";
import { configOf, kitchenServer } from "./harness.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

group("GetProviderSchema", () => {
  test("lists the provider, every resource and the data source with their versions", () => {
    const r = createServer(kitchenSinkProvider()).getProviderSchema();
    expect(r.diagnostics).toEqual([]);
    expect(Object.keys(r.resourceSchemas).sort()).toEqual([
      "rfkitchen_broken",
      "rfkitchen_consumer",
      "rfkitchen_thing",
    ]);
    expect(Object.keys(r.dataSourceSchemas)).toEqual(["rfkitchen_echo"]);
    expect(r.resourceSchemas.rfkitchen_thing.version).toBe(2);
    const nesting = r.resourceSchemas.rfkitchen_thing.block.blockTypes.map((b) => `${b.typeName}:${b.nesting}`);
    expect(nesting).toEqual([
      "network:single",
      "rule:list",
      "mount:set",
      "pool:map",
      "options:group",
      "timeouts:single",
    ]);
    const token = r.resourceSchemas.rfkitchen_thing.block.attributes.find((a) => a.name === "token");
    expect(token).toMatchObject({ writeOnly: true, sensitive: true, optional: true, computed: false });
  });
});

group("ConfigureProvider", () => {
  test("GIVEN an unknown store_path THEN configure succeeds and resources still plan", async () => {
    const srv = createServer(kitchenSinkProvider());
    const c = await srv.configureProvider({
      terraformVersion: "1.11.4",
      config: { store_path: UNKNOWN, label: null, api_token: null },
    });
    expect(c.diagnostics).toEqual([]);
    const p = await planChange(srv, "rfkitchen_thing", thingSchema, configOf(thingSchema, { name: "a" }));
    expect(p.diagnostics).toEqual([]);
  });

  test("GIVEN store_path THEN objects persist in that JSON file across provider processes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rfkitchen-"));
    dirs.push(dir);
    const storePath = join(dir, "store.json");
    const first = await kitchenServer({ store_path: storePath });
    const apply = await planAndApply(first, "rfkitchen_thing", thingSchema, configOf(thingSchema, { name: "persist" }));
    const id = (apply.newState as ObjectValue).id as string;
    expect(Object.keys(JSON.parse(readFileSync(storePath, "utf8")))).toEqual([id]);
    const second = await kitchenServer({ store_path: storePath });
    const read = await second.readResource({
      typeName: "rfkitchen_thing",
      currentState: apply.newState,
      private: apply.private,
    });
    expect(read.newState).toEqual(apply.newState);
  });

  test("GIVEN a sensitive provider attribute THEN its value never appears in a later diagnostic", async () => {
    const srv = await kitchenServer({ api_token: "provider-token-xyz" });
    const r = await srv.validateResourceConfig({
      typeName: "rfkitchen_thing",
      config: configOf(thingSchema, { name: "provider-token-xyz!" }),
    });
    expect(r.diagnostics.length).toBeGreaterThan(0);
    expect(JSON.stringify(r.diagnostics)).not.toContain("provider-token-xyz");
  });
});

group("ReadDataSource", () => {
  test("computes every computed attribute, using provider data", async () => {
    const srv = await kitchenServer({ label: "lab-a" });
    const r = await srv.readDataSource({
      typeName: "rfkitchen_echo",
      config: configOf(echoSchema, { value: "héllo", tags: ["x"] }),
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.state).toEqual({
      value: "héllo",
      tags: ["x"],
      upper: "HÉLLO",
      length: 5,
      tag_count: 1,
      provider_label: "lab-a",
    });
  });
});

group("StopProvider", () => {
  test("aborts the signal handlers were given", async () => {
    let seen: AbortSignal | undefined;
    const provider = kitchenSinkProvider();
    const wrapped = {
      ...provider,
      configure: (req: Parameters<typeof provider.configure>[0], resp: Parameters<typeof provider.configure>[1]) => {
        seen = req.context.signal;
        return provider.configure(req, resp);
      },
    };
    const srv = createServer(wrapped);
    await srv.configureProvider({
      terraformVersion: "1.11.4",
      config: { store_path: null, label: null, api_token: null },
    });
    expect(seen?.aborted).toBe(false);
    expect(await srv.stopProvider()).toEqual({});
    expect(seen?.aborted).toBe(true);
  });
});
