/** What attestation finds wrong, as data: the provider turns problems into a gate's verdict and evidence. */

/**
 * Kinds of problem:
 * - transcript: the SignedMeasurements cannot be read (malformed, unsupported version);
 * - unsigned: the final GET_MEASUREMENTS asked for no signature;
 * - replay: the answer's requester nonce is not the one sent (a stale or replayed answer);
 * - algorithm: an algorithm rackform does not verify, or one the leaf's key does not match;
 * - signature: the signature over the transcript does not verify with the leaf's key;
 * - chain: the certificate chain does not lead to a trust anchor (a link's signature, an issuer that is not a CA);
 * - validity: a certificate of the chain is expired or not yet valid;
 * - measurement: a measurement differs from (or lacks) its reference value;
 * - no-reference: no reference entry for the firmware version the component reports.
 */
export type AttestProblemKind =
  | "transcript"
  | "unsigned"
  | "replay"
  | "algorithm"
  | "signature"
  | "chain"
  | "validity"
  | "measurement"
  | "no-reference";

/** One problem; `detail` is a sentence for a person, the other fields are for evidence and tests. */
export interface AttestProblem {
  readonly kind: AttestProblemKind;
  /** The component (ComponentIntegrity Id) it concerns, when the caller named it. */
  readonly component?: string;
  /** Measurement index. */
  readonly index?: number;
  /** Expected and measured values (digests as lower-case hex, nonces as hex). */
  readonly expected?: string;
  readonly measured?: string;
  /** The measured firmware version (no-reference). */
  readonly version?: string;
  readonly detail: string;
}

/** A measurement as read from a verified (or at least parsed) transcript. */
export interface Measured {
  readonly index: number;
  /** DMTFSpecMeasurementValueType bits 6:0. */
  readonly type: number;
  /** The value is a raw bit stream (bit 7), not a digest. */
  readonly raw: boolean;
  /** The value as lower-case hex. */
  readonly valueHex: string;
  /** For a raw value: its bytes as text (the firmware version, type 6). */
  readonly text?: string;
  /** For a digest: the measurement hash algorithm ALGORITHMS selected, when the transcript holds VCA. */
  readonly alg?: "sha-256" | "sha-384" | "sha-512";
}
