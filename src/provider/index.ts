/** The rackform provider: its schema, configuration, and the resource and data source types it serves. */
import type { Provider } from "../framework/index.js";
import { providerSchema, resolveConfig } from "./config.js";
import { inventoryDataSource } from "./data-sources/inventory.js";
import { acceptanceResource } from "./resources/acceptance.js";
import { bmcResource } from "./resources/bmc.js";
import { clusterMemberResource } from "./resources/cluster-member.js";
import { deploymentResource } from "./resources/deployment.js";
import { machineResource } from "./resources/machine.js";
import { pduOutletResource } from "./resources/pdu-outlet.js";

/** The provider's version, as installed into the filesystem mirror. */
export const PROVIDER_VERSION = "0.1.0";

/** A fresh provider instance (one per process). */
export function rackformProvider(): Provider {
  const resources = [
    pduOutletResource(),
    bmcResource(),
    machineResource(),
    deploymentResource(),
    acceptanceResource(),
    clusterMemberResource(),
  ];
  const dataSources = [inventoryDataSource()];
  return {
    metadata: { typeName: "rackform", version: PROVIDER_VERSION },
    schema: providerSchema,
    configure(req, resp) {
      const data = resolveConfig(req.config, resp.diagnostics);
      resp.resourceData = data;
      resp.dataSourceData = data;
    },
    resources: () => resources,
    dataSources: () => dataSources,
  };
}
