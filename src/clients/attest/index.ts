/** Attestation: SPDM transcripts, their verification, trust anchors and reference values (pure, no I/O). */
export { isCa, parseCertificates, parseTrustAnchors, type TrustAnchor } from "./anchors.js";
export { type ChainResult, verifyChain } from "./chain.js";
export { judgeAnswer, problemText } from "./judge.js";
export { splitPem } from "./pem.js";
export type { AttestProblem, AttestProblemKind, Measured } from "./problems.js";
export {
  compareReference,
  measuredVersion,
  parseReferenceValues,
  type ReferenceAlg,
  type ReferenceEntry,
  type ReferenceMeasurement,
  type ReferenceValues,
} from "./reference.js";
export {
  type MeasurementBlock,
  type MeasurementRequest,
  type MeasurementResponse,
  parseTranscript,
  SPDM_CODE,
  type SpdmTranscript,
  versionText,
} from "./spdm-transcript.js";
export type { AlgorithmsMessage } from "./spdm-vca.js";
export { combinedPrefix, type VerifyInput, type VerifyResult, verifyAnswer } from "./spdm-verify.js";
