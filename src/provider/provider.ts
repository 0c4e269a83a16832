/** The rackform provider: its schema, configuration, and the resource and data source types it serves. */

import { createLogger, engineLogLevel, type Provider, type Resource } from "../framework/index.js";
import { type ProviderData, providerSchema, resolveConfig } from "./config/config.js";
import type { ProviderTimings } from "./config/timings.js";
import { inventoryDataSource } from "./data-sources/inventory.js";
import { schedulerHealthDataSource } from "./data-sources/scheduler-health.js";
import { acceptanceResource } from "./resources/acceptance.js";
import { bmcResource } from "./resources/bmc.js";
import { clusterMemberResource } from "./resources/cluster-member.js";
import { deploymentResource } from "./resources/deployment.js";
import { dpuResource } from "./resources/dpu.js";
import { firmwareResource } from "./resources/firmware.js";
import { imageResource } from "./resources/image.js";
import { machineResource } from "./resources/machine.js";
import { pduOutletResource } from "./resources/pdu-outlet.js";
import type { StaggerClock } from "./shared/power-on-stagger.js";
import { ClaimRegistry, withClaims } from "./shared/uniqueness.js";

/** The provider's version, as installed into the filesystem mirror. */
export const PROVIDER_VERSION = "0.1.0";

/** Options of rackformProvider. */
export interface RackformProviderOptions {
  /**
   * Report two resources claiming one machine name, MAC, BMC, outlet or scheduler node (uniqueness.ts). It relies on
   * the engine's calling pattern — each resource instance validated once per provider process — so the executable the
   * engines run (src/main.ts) turns it on, while in-process tests that validate many variants of one resource in one
   * configured provider keep it off. @default false
   */
  readonly duplicateChecks?: boolean;
  /** Poll intervals of every wait (timings.ts). @default DEFAULT_TIMINGS; the executable reads timingsFromEnv() */
  readonly timings?: ProviderTimings;
  /** Clock of the power-on stagger (tests drive it by hand). @default real time */
  readonly powerOnClock?: StaggerClock;
}

/** A fresh provider instance (one per process). */
export function rackformProvider(opts: RackformProviderOptions = {}): Provider {
  const claims = new ClaimRegistry();
  const checked = (r: Resource) => (opts.duplicateChecks ? withClaims(r, claims) : r);
  const resources = [
    pduOutletResource(),
    bmcResource(),
    dpuResource(),
    firmwareResource(),
    machineResource(),
    deploymentResource(),
    acceptanceResource(),
    clusterMemberResource(),
    imageResource(),
  ].map(checked);
  const dataSources = [inventoryDataSource(), schedulerHealthDataSource()];
  let data: ProviderData | undefined;
  return {
    metadata: { typeName: "rackform", version: PROVIDER_VERSION },
    schema: providerSchema,
    configure(req, resp) {
      claims.clear();
      data = resolveConfig(req.config, resp.diagnostics, opts.timings, opts.powerOnClock);
      resp.resourceData = data;
      resp.dataSourceData = data;
    },
    async close() {
      // Both bounded by the server's exit: BMC sessions logged out, and no disruption-budget reservation of this run
      // left in the scheduler (a killed engine's run would otherwise block the partition until its lease ended).
      const log = createLogger({ level: engineLogLevel() });
      await Promise.allSettled([data?.closeSessions(), data?.budget.close(log)]);
    },
    resources: () => resources,
    dataSources: () => dataSources,
  };
}
