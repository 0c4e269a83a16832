/** rfkitchen: a test-only provider whose resources exercise every framework feature under real engines. */
import { isAbsolute } from "node:path";
import { attr, isUnknown, type Provider } from "../../../src/framework/index.js";
import { brokenResource } from "./broken.js";
import { consumerResource } from "./consumer.js";
import { echoDataSource } from "./echo.js";
import { JsonFileStore, type KitchenData, MemoryStore } from "./store.js";
import { thingResource } from "./thing.js";

/** A fresh rfkitchen provider (its in-memory store, used when store_path is unset, lives as long as it does). */
export function kitchenSinkProvider(): Provider {
  const memory = new MemoryStore();
  const resources = [thingResource(), consumerResource(), brokenResource()];
  const dataSources = [echoDataSource()];
  return {
    metadata: { typeName: "rfkitchen", version: "0.0.1" },
    schema: {
      description: "Test provider for rackform's framework.",
      attributes: {
        store_path: attr.string({ optional: true, description: "JSON file holding the objects; memory when unset." }),
        label: attr.string({ optional: true, description: "Echoed by rfkitchen_echo.provider_label." }),
        api_token: attr.string({ optional: true, sensitive: true, description: "Redacted from every diagnostic." }),
      },
    },
    validateConfig(req, resp) {
      const path = req.config.store_path;
      if (typeof path === "string" && !isAbsolute(path)) {
        resp.diagnostics.error("Relative store_path", `store_path must be absolute, got "${path}".`, [
          { attr: "store_path" },
        ]);
      }
    },
    configure(req, resp) {
      const path = req.config.store_path;
      const label = typeof req.config.label === "string" ? req.config.label : "rfkitchen";
      if (isUnknown(path)) {
        // Still configure: resources must plan with an unknown provider config.
        req.context.log.info("store_path unknown; planning without a store");
      }
      const store = isUnknown(path) ? undefined : typeof path === "string" ? new JsonFileStore(path) : memory;
      const data: KitchenData = { store, label };
      resp.resourceData = data;
      resp.dataSourceData = data;
    },
    resources: () => resources,
    dataSources: () => dataSources,
  };
}
