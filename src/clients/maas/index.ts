/** The MAAS client: machines, status polling, tags, boot resources and events over the MAAS 2.0 API. */
export { MaasCatalog } from "./catalog.js";
export { MaasClient, type MaasClientOptions, type MachineFilter } from "./client.js";
export { MaasError } from "./errors.js";
export { MachineCache, type MachineCacheOptions } from "./machine-cache.js";
export { authorizationHeader, type MaasCredentials, parseApiKey } from "./oauth.js";
export * as maasParse from "./parse.js";
export {
  MAAS_FAILED_STATUSES,
  MAAS_SCRIPT_FAILED_STATUSES,
  MAAS_SCRIPT_SETTLED_STATUSES,
  MAAS_SCRIPT_STATUS,
  MAAS_STATUS,
  MAAS_STATUS_LABELS,
  type MaasStatusName,
  statusId,
  statusLabel,
} from "./status.js";
export type * from "./types.js";
export type { WaitForStatusOptions } from "./wait.js";
