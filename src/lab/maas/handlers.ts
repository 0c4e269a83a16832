/** The MAAS lab's handler table, one route family per file, in the order the router matches and describe/ lists them. */
import { bootResourceHandlers } from "./boot-resources-api.js";
import { eventsHandler } from "./events-api.js";
import { machineHandler } from "./machine-api.js";
import { machinesHandler } from "./machines-api.js";
import { nodeHandlers } from "./node-api.js";
import { regionHandlers } from "./region-api.js";
import type { RegionDeps } from "./region-deps.js";
import type { Handler } from "./router.js";
import { scriptHandlers } from "./scripts-api.js";
import { tagHandlers } from "./tags-api.js";
import { zoneHandlers } from "./zones-api.js";

/** Every handler of the region, bound to it. */
export function maasHandlers(deps: RegionDeps): Handler[] {
  return [
    machinesHandler(deps),
    machineHandler(deps),
    ...nodeHandlers(deps),
    ...regionHandlers(),
    ...tagHandlers(deps),
    eventsHandler(deps),
    ...scriptHandlers(deps),
    ...bootResourceHandlers(deps),
    ...zoneHandlers(deps),
  ];
}
