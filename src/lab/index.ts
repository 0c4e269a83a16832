/** The lab: a simulated GPU datacenter serving real protocols on loopback. */

export { IRONIC_ACCEPTANCE_STEP, MAAS_ACCEPTANCE_SCRIPT } from "./acceptance/backends.js";
export {
  ACCEPTANCE_FORMAT,
  type AcceptanceParams,
  type AcceptanceReport,
  measureAcceptance,
  nominalBusbwGBps,
} from "./acceptance/signals.js";
export { type AttestedComponent, attestedComponents, catalogFirmware } from "./attest/components.js";
export {
  type ReferenceDocument,
  type ReferenceEntry,
  referenceDocument,
} from "./attest/measurements.js";
export { type BackendInfo, type BackendPorts, type Backends, SLURM_USER } from "./glue/backends.js";
export { type JoinMode, type JoinTarget, joinTargets, slurmdDynamic } from "./glue/joins.js";
export { type LabFirmwareFile, labFirmwareFile } from "./images/firmware-files.js";
export {
  DEMO_IMAGE_FILE,
  demoImageContent,
  type ImageRequestLogEntry,
  type ImageServer,
  startImageServer,
} from "./images/server.js";
export { type Lab, type LabEndpoint, type LabInfo, type StartLabOptions, startLab } from "./lab.js";
export { labFirmwareImage } from "./redfish/fw-image.js";
export { RequestLog, type RequestLogEntry } from "./request-log.js";
export type { SlurmTransition } from "./scheduler/index.js";
export {
  type Clock,
  LabTime,
  ManualClock,
  PROFILES,
  type ProfileName,
  profileByName,
  systemClock,
  type TimeProfile,
} from "./time.js";
export { type DpuMode, FACTORY_BFB, type LabDpu } from "./world/dpu.js";
export { ATTEST_FAULT_KINDS, type Fault, type FaultKind, type FaultSpec, Faults } from "./world/faults.js";
export { type DefaultSpecOptions, defaultSpec, hgxH100, type NodeOverride } from "./world/generate.js";
export { type BmcState, type LabNode, type LabPdu, type PowerState, World } from "./world/model.js";
export { VIOLATION_TEXT as SECURE_BOOT_VIOLATION_TEXT } from "./world/secure-boot-log.js";
export {
  LAB_SPEC_SCHEMA,
  type LabSpec,
  LabSpecError,
  type NodeSpec,
  type PduSpec,
  type VendorStyle,
  validateLabSpec,
} from "./world/spec.js";
