/** The lab's warewulfd (Warewulf v4 REST API and /status). */
export {
  createWarewulfApi,
  type NodeAgent,
  type WarewulfApi,
  type WarewulfApiOptions,
  type WarewulfHooks,
  type WarewulfRequestLogEntry,
} from "./api.js";
export type { HostObservation, NodeStatusRecord, ObserveHost } from "./status.js";
export { stagesOf } from "./status.js";
export { DISTRIBUTION_OVERLAYS, type Fields, WarewulfStore } from "./store.js";
