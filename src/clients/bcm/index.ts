/** The BCM (NVIDIA Base Command Manager) client: cmdaemon JSON-RPC with cookie login. */
export { BcmClient, type BcmClientOptions } from "./client.js";
export { BcmError, type BcmValidation, bcmMessage, powerFailed, powerTimeout } from "./errors.js";
export { type BcmCallOptions, BcmTransport } from "./transport.js";
export type * from "./types.js";
