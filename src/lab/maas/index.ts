/** The lab's simulated MAAS region (MAAS API 2.0), independent of the rest of src. */
export {
  type BuiltinScript,
  createMaasApi,
  type MaasApi,
  type MaasApiOptions,
  type MaasRequestLogEntry,
} from "./api.js";
export { type LabClock, type ManualClock, manualClock, systemClock } from "./clock.js";
export type {
  FaultOp,
  HardwareProbe,
  HardwareReport,
  MaasDelays,
  ScriptOutcome,
  ScriptRunner,
  StatusListener,
} from "./lifecycle-types.js";
export {
  MAAS_WAITING_POLICY_MS,
  memoryPowerDriver,
  type PowerDriver,
  type PowerParams,
  type PowerState,
  type RedfishPowerDriverOptions,
  redfishPowerDriver,
} from "./power.js";
export { NodeStatus, statusName } from "./statuses.js";
export type { MachineRecord } from "./store.js";
