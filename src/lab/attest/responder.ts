/**
 * A component's SPDM responder as its BMC reaches it: answers SPDMGetSignedMeasurements with a fresh transcript signed
 * by the device key, or — under an attest-* fault — with a tampered block, a chain from an unknown CA, its previous
 * answer (replay), or nothing at all (silent). Keeps each component's last answer for the replay fault.
 */
import { randomBytes } from "node:crypto";
import type { Fault, FaultKind } from "../world/faults.js";
import type { AttestedComponent } from "./components.js";
import { MEASUREMENT_INDICES, type MeasurementBlock, measurementBlock } from "./measurements.js";
import { LabPki } from "./pki.js";
import { type Exchange, signedTranscript } from "./spdm.js";

/** What the action answers (DSP0268 ComponentIntegrity SPDMGetSignedMeasurementsResponse, without the link). */
export interface SignedAnswer {
  readonly Version: "1.2";
  readonly HashingAlgorithm: "TPM_ALG_SHA_384";
  readonly SigningAlgorithm: "TPM_ALG_ECDSA_ECC_NIST_P384";
  readonly SignedMeasurements: string;
}

/** A parsed request. */
export interface MeasurementRequest {
  readonly nonce: Buffer;
  readonly slot: number;
  /** Requested indices; empty = all (Param2 0xFF). */
  readonly indices: readonly number[];
}

/** The attest-* faults that apply to one component of one node. */
export function attestFault(
  faults: readonly Fault[],
  kind: FaultKind,
  node: string,
  component: string,
): Fault | undefined {
  return faults.find(
    (f) =>
      f.kind === kind &&
      (f.node === undefined || f.node === node) &&
      (f.component === undefined || f.component === component),
  );
}

/** The block a tampered component reports at the fault's index: a digest that is no reference's. */
function tampered(b: MeasurementBlock, f: Fault | undefined): MeasurementBlock {
  if (!f || b.index !== (f.index ?? 2)) return b;
  const value = Buffer.from(b.value);
  for (let i = 0; i < value.length; i += 7) value[i] ^= 0x5a;
  return { ...b, value };
}

/** The lab's attestation: its PKI and the components' last answers. */
export class LabAttestation {
  readonly pki = new LabPki();
  private readonly last = new Map<string, SignedAnswer>();

  /** The chain (PEM) the component presents now: from the lab's root, or from an unknown one under attest-unknown-ca. */
  chain(c: AttestedComponent, faults: readonly Fault[], node: string): string {
    return this.pki.chainPem(c.identity, attestFault(faults, "attest-unknown-ca", node, c.id) !== undefined);
  }

  /** Answers a request (or replays the previous answer under attest-replay). */
  answer(c: AttestedComponent, req: MeasurementRequest, faults: readonly Fault[], node: string): SignedAnswer {
    const key = c.identity.id;
    if (attestFault(faults, "attest-replay", node, c.id)) {
      const previous = this.last.get(key);
      if (previous) return previous;
      // Nothing to replay yet: the component answers a request it made up (a random nonce), and keeps repeating it.
      req = { ...req, nonce: randomBytes(32) };
    }
    const tamper = attestFault(faults, "attest-tamper", node, c.id);
    const blockAt = (i: number) => tampered(measurementBlock(c.firmware, i), tamper);
    const exchanges: Exchange[] =
      req.indices.length === 0
        ? [{ operation: 0xff, blocks: MEASUREMENT_INDICES.map(blockAt) }]
        : req.indices.map((i) =>
            i === 0
              ? { operation: 0, blocks: [], count: MEASUREMENT_INDICES.length }
              : { operation: i, blocks: [blockAt(i)] },
          );
    const bytes = signedTranscript(exchanges, { nonce: req.nonce, slot: req.slot }, this.pki.signingKey(c.identity));
    const answer: SignedAnswer = {
      Version: "1.2",
      HashingAlgorithm: "TPM_ALG_SHA_384",
      SigningAlgorithm: "TPM_ALG_ECDSA_ECC_NIST_P384",
      SignedMeasurements: bytes.toString("base64"),
    };
    this.last.set(key, answer);
    return answer;
  }
}
