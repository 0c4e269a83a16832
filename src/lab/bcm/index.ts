/** The lab's NVIDIA Base Command Manager head node (cmdaemon JSON-RPC). */
export { type BcmApi, type BcmApiOptions, type BcmRequestLogEntry, createBcmApi } from "./api.js";
export type { BurnRunner } from "./rpc.js";
export type { DeviceStatusWord } from "./status.js";
export type { DeviceEntity } from "./store.js";
