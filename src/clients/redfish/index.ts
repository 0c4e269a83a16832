/** The Redfish client: BMCs and rack PDUs. */
export { type Discovery, RedfishClient, type RedfishClientOptions } from "./client.js";
export * as redfishParse from "./parse.js";
export type { RefreshOutcome } from "./refresh.js";
export { chooseResetType, type ResetRequest } from "./reset.js";
export type { RedfishAuthMode } from "./transport.js";
export type * from "./types.js";
export type { SimpleUpdateOptions } from "./update.js";
