/** The Redfish client: BMCs and rack PDUs. */
export { type ApplyTime, BiosOps, type BiosState } from "./bios.js";
export type { AttributeRegistry, BiosProblem, BiosProblemKind, BiosValue, RegistryAttribute } from "./bios-registry.js";
export { checkBiosSettings } from "./bios-registry.js";
export { BlueFieldOps, DPU_OS_TARGET, type DpuMode, type DpuState, type DpuWaitOptions } from "./bluefield.js";
export { type Discovery, RedfishClient, type RedfishClientOptions } from "./client.js";
export {
  certificateBlocks,
  type IntegrityComponent,
  type MeasureRequest,
  parseComponentIntegrity,
  parseSpdmAnswer,
  type SpdmAnswer,
} from "./component-integrity.js";
export { hashImage, ImageDigestError, type PushRequest, verifyImage } from "./firmware-push.js";
export type { LogRead } from "./log-entries.js";
export { type LogFinding, type LogFindingKind, logFinding, logFindingRows } from "./log-findings.js";
export * as redfishParse from "./parse.js";
export type { RefreshOutcome } from "./refresh.js";
export { chooseResetType, type ResetRequest } from "./reset.js";
export {
  certificateSha256,
  parseDbCertificate,
  parseDbSignature,
  parseSecureBoot,
  parseSecureBootDatabase,
  type SecureBootCertificate,
  type SecureBootDatabase,
  type SecureBootSignature,
  type SecureBootState,
} from "./secure-boot.js";
export type { RedfishAuthMode } from "./transport.js";
export type * from "./types.js";
export type { SimpleUpdateOptions } from "./update.js";
