/** The lab's simulated OpenStack Ironic API (/v1), independent of the rest of src. */

export { type LabClock, type ManualClock, manualClock, systemClock } from "../maas/clock.js";
export { createIronicApi, type IronicApi, type IronicApiOptions, type IronicRequestLogEntry } from "./api.js";
export {
  type BmcDriver,
  type InspectedHardware,
  type RedfishBmcOptions,
  type RedfishDriverInfo,
  redfishBmc,
  type VerifiedBmc,
} from "./bmc.js";
export type {
  ConductorDeployDefaults,
  FaultOp,
  IronicDelays,
  ProvisionListener,
  StepRunner,
} from "./conductor-types.js";
export { S as ProvisionStates } from "./states.js";
export type { StepOutcome, StepRequest, StepResult } from "./steps.js";
export type { AllocationRecord, NodeRecord, PortRecord } from "./store.js";
