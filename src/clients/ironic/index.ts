/** The Ironic client: nodes, provision and power transitions, ports, allocations, microversion negotiation. */
export {
  IronicClient,
  type IronicClientOptions,
  type IronicNodeCreate,
  type NodeListQuery,
  type PowerTarget,
} from "./client.js";
export { IronicError, ironicMessage } from "./errors.js";
export { type IronicAllocationCreate, IronicExtras, type IronicPortCreate } from "./extras.js";
export {
  CLIENT_MAX_MICROVERSION,
  CLIENT_MIN_MICROVERSION,
  compareMicroversions,
  type MicroversionRange,
  negotiate,
  parseMicroversion,
} from "./microversion.js";
export { NodeCache, type NodeCacheLoaders, type NodeCacheOptions } from "./node-cache.js";
export * as ironicParse from "./parse.js";
export type { IronicAuth, LockRetryPolicy } from "./transport.js";
export type * from "./types.js";
export { IRONIC_FAILED_STATES, type WaitForProvisionOptions } from "./wait.js";
