/** The Ironic lab's route table, one file per route family, in match order (the first pattern that matches wins). */
import type { LabClock } from "../maas/clock.js";
import * as allocations from "./allocations-api.js";
import type { IronicDelays } from "./conductor-types.js";
import type { Ctx, Reply } from "./context.js";
import * as discovery from "./discovery-api.js";
import * as actions from "./node-actions-api.js";
import * as nodes from "./nodes-api.js";
import * as ports from "./ports-api.js";

type Handler = (ctx: Ctx) => Reply | Promise<Reply>;
/** One route: method, path pattern (its first group is the `id` parameter), handler. */
export type Route = [method: string, pattern: RegExp, handler: Handler];

const ID = "([^/]+)";

/** Every route of the API; allocations are processed `delays.allocationMs` after creation on `clock`. */
export function ironicRoutes(clock: LabClock, delays: IronicDelays): Route[] {
  const startedAt = clock.now();
  return [
    ["GET", /^\/v1\/conductors$/, (c) => discovery.listConductors(c, startedAt)],
    ["GET", new RegExp(`^/v1/conductors/${ID}$`), (c) => discovery.showConductor(c, startedAt)],
    ["GET", /^\/v1\/drivers$/, discovery.listDrivers],
    ["GET", new RegExp(`^/v1/drivers/${ID}$`), discovery.showDriver],
    ["GET", new RegExp(`^/v1/nodes/${ID}/inventory$`), discovery.nodeInventory],
    ["GET", /^\/v1\/nodes\/detail$/, (c) => nodes.listNodes(c, true)],
    ["GET", /^\/v1\/nodes$/, (c) => nodes.listNodes(c, false)],
    ["POST", /^\/v1\/nodes$/, nodes.createNode],
    ["GET", new RegExp(`^/v1/nodes/${ID}$`), nodes.showNode],
    ["PATCH", new RegExp(`^/v1/nodes/${ID}$`), nodes.patchNode],
    ["DELETE", new RegExp(`^/v1/nodes/${ID}$`), nodes.deleteNode],
    ["GET", new RegExp(`^/v1/nodes/${ID}/states$`), actions.states],
    ["PUT", new RegExp(`^/v1/nodes/${ID}/states/provision$`), actions.setProvisionState],
    ["PUT", new RegExp(`^/v1/nodes/${ID}/states/power$`), actions.setPowerState],
    ["PUT", new RegExp(`^/v1/nodes/${ID}/maintenance$`), (c) => actions.setMaintenance(c, true)],
    ["DELETE", new RegExp(`^/v1/nodes/${ID}/maintenance$`), (c) => actions.setMaintenance(c, false)],
    ["GET", new RegExp(`^/v1/nodes/${ID}/validate$`), actions.validate],
    ["GET", new RegExp(`^/v1/nodes/${ID}/ports$`), actions.nodePorts],
    ["GET", /^\/v1\/ports\/detail$/, (c) => ports.listPorts(c, true)],
    ["GET", /^\/v1\/ports$/, (c) => ports.listPorts(c, false)],
    ["POST", /^\/v1\/ports$/, ports.createPort],
    ["GET", new RegExp(`^/v1/ports/${ID}$`), ports.showPort],
    ["PATCH", new RegExp(`^/v1/ports/${ID}$`), ports.patchPort],
    ["DELETE", new RegExp(`^/v1/ports/${ID}$`), ports.deletePort],
    ["GET", /^\/v1\/allocations$/, allocations.listAllocations],
    ["POST", /^\/v1\/allocations$/, (c) => allocations.createAllocation(c, clock, delays.allocationMs)],
    ["GET", new RegExp(`^/v1/allocations/${ID}$`), allocations.showAllocation],
    ["DELETE", new RegExp(`^/v1/allocations/${ID}$`), allocations.deleteAllocation],
  ];
}
