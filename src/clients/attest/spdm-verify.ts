/**
 * Verifies a SPDMGetSignedMeasurements answer offline: the requester nonce in its GET_MEASUREMENTS is the one sent,
 * a signature was requested, the responder's chain leads to a trust anchor, and the signature verifies with the leaf's
 * key — for SPDM 1.2 over combined_spdm_prefix || Hash(L2) (DSP0274 1.2, "Signature generation"; L2 = VCA ||
 * GET_MEASUREMENTS || MEASUREMENTS without its signature), for 1.0/1.1 over L1 itself (the pairs, no prefix).
 *
 * Supported: ECDSA P-384 and P-256 (BaseAsymSel bits 7 and 4), raw r||s; hashes SHA-256, SHA-384, SHA-512 (BaseHashSel
 * bits 0–2). Anything else is an "algorithm" problem, never a pass. Problems are data: nothing here throws for what a
 * device sent; only the caller's own inputs (trust anchors, nonce) throw RACKFORM_ERR_ATTEST_INPUT.
 */
import { createHash, createPublicKey, type KeyObject, verify } from "node:crypto";
import type * as x509 from "@peculiar/x509";
import { AttestError, isClientError } from "../errors.js";
import { parseCertificates, parseTrustAnchors } from "./anchors.js";
import { verifyChain } from "./chain.js";
import type { AttestProblem, Measured } from "./problems.js";
import { type MeasurementBlock, parseTranscript, type SpdmTranscript, versionText } from "./spdm-transcript.js";

/** What verifyAnswer needs. */
export interface VerifyInput {
  /** The answer's SignedMeasurements (base64). */
  readonly transcriptB64: string;
  /** The nonce sent in the action (64 hex digits). */
  readonly nonceHex: string;
  /** The responder's chain (the Certificate's CertificateString; PEM blocks in any order). */
  readonly chainPem: string;
  /** The CA certificates to trust, as PEM texts (each may hold several). */
  readonly trustAnchorsPem: string | readonly string[];
  /** The time certificates must be valid at. @default new Date() */
  readonly now?: Date;
  /** The component's Id, copied into every problem. */
  readonly component?: string;
  /** The answer's HashingAlgorithm, used only for a 1.0/1.1 transcript (no ALGORITHMS to read it from). */
  readonly hashingAlgorithm?: string;
  /** The SlotId sent; the transcript's SlotIDParam must match. */
  readonly slotId?: number;
}

/** What verifyAnswer found. `measurements` are to be trusted only when `ok`. */
export interface VerifyResult {
  readonly ok: boolean;
  readonly problems: AttestProblem[];
  readonly measurements: Measured[];
  /** The negotiated SPDM version ("1.2"). */
  readonly version?: string;
  readonly leafSubject?: string;
}

const HASHES: Readonly<Record<number, string>> = { 0: "sha256", 1: "sha384", 2: "sha512" };
const CURVES: Readonly<Record<number, { curve: string; size: number }>> = {
  4: { curve: "prime256v1", size: 64 },
  7: { curve: "secp384r1", size: 96 },
};
const MEAS_HASH: Readonly<Record<number, Measured["alg"]>> = { 1: "sha-256", 2: "sha-384", 3: "sha-512" };

/** DSP0274 1.2 combined_spdm_prefix for the measurements signature: 64 bytes of prefix, zero pad, context (100). */
export function combinedPrefix(version: number): Buffer {
  const prefix = Buffer.from(`dmtf-spdm-v${versionText(version)}.*`.repeat(4), "ascii");
  const context = Buffer.from("responder-measurements signing", "ascii");
  return Buffer.concat([prefix, Buffer.alloc(36 - context.length), context]);
}

/** Verifies an answer; see the module comment for what is checked. */
export async function verifyAnswer(input: VerifyInput): Promise<VerifyResult> {
  const anchors = parseTrustAnchors(input.trustAnchorsPem);
  if (!/^[0-9a-fA-F]{64}$/.test(input.nonceHex)) {
    throw new AttestError("RACKFORM_ERR_ATTEST_INPUT", "nonceHex must be 64 hex digits (the 32-byte nonce sent)");
  }
  const problems: AttestProblem[] = [];
  const stamp = (p: AttestProblem): AttestProblem => (input.component ? { ...p, component: input.component } : p);
  const done = (extra: Partial<VerifyResult> = {}): VerifyResult => {
    const all = problems.map(stamp);
    return { ok: all.length === 0, problems: all, measurements: [], ...extra };
  };
  let t: SpdmTranscript;
  try {
    t = parseTranscript(input.transcriptB64);
  } catch (e) {
    if (!isClientError(e, "RACKFORM_ERR_ATTEST_TRANSCRIPT")) throw e;
    problems.push({ kind: "transcript", detail: e.message });
    return done();
  }
  const version = versionText(t.version);
  const measurements = measuredOf(t);
  problems.push(...requestProblems(t, input));
  let leaf: x509.X509Certificate | undefined;
  try {
    const chain = parseCertificates(input.chainPem, "the component's certificate chain");
    const result = await verifyChain(chain, anchors, input.now ?? new Date());
    problems.push(...result.problems);
    leaf = result.leaf;
  } catch (e) {
    if (!isClientError(e, "RACKFORM_ERR_ATTEST_INPUT")) throw e;
    problems.push({ kind: "chain", detail: e.message });
  }
  if (leaf && t.pairs[t.pairs.length - 1].request.signatureRequested) {
    problems.push(...signatureProblems(t, leaf, input.hashingAlgorithm));
  }
  return done({ measurements, version, ...(leaf ? { leafSubject: leaf.subject } : {}) });
}

/** The final request asked for a signature, with our nonce, from the slot asked. */
function requestProblems(t: SpdmTranscript, input: VerifyInput): AttestProblem[] {
  const { request, response } = t.pairs[t.pairs.length - 1];
  const out: AttestProblem[] = [];
  if (!request.signatureRequested || !request.nonce) {
    out.push({
      kind: "unsigned",
      detail: "the final GET_MEASUREMENTS asked for no signature: the answer proves nothing",
    });
    return out;
  }
  const sent = input.nonceHex.toLowerCase();
  const got = request.nonce.toString("hex");
  if (got !== sent) {
    out.push({
      kind: "replay",
      expected: sent,
      measured: got,
      detail: `the answer's GET_MEASUREMENTS carries nonce ${got}, not the ${sent} sent: a stale or replayed answer`,
    });
  }
  if (request.slotId !== undefined && input.slotId !== undefined && request.slotId !== input.slotId) {
    out.push({ kind: "transcript", detail: `the answer asked slot ${request.slotId}, not slot ${input.slotId}` });
  }
  if (request.slotId !== undefined && response.slotId !== request.slotId) {
    out.push({
      kind: "transcript",
      detail: `MEASUREMENTS answers for slot ${response.slotId}, GET_MEASUREMENTS asked slot ${request.slotId}`,
    });
  }
  return out;
}

function signatureProblems(t: SpdmTranscript, leaf: x509.X509Certificate, hashingAlgorithm?: string): AttestProblem[] {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(leaf.publicKey.rawData), format: "der", type: "spki" });
  } catch (e) {
    return [{ kind: "algorithm", detail: `the leaf's public key is unusable: ${(e as Error).message}` }];
  }
  const curve = key.asymmetricKeyType === "ec" ? key.asymmetricKeyDetails?.namedCurve : undefined;
  const sel = t.algorithms ? CURVES[bitOf(t.algorithms.baseAsymSel) ?? -1] : undefined;
  if (t.algorithms && !sel) {
    return [
      {
        kind: "algorithm",
        detail: `BaseAsymSel 0x${t.algorithms.baseAsymSel.toString(16)} is not ECDSA P-256 or P-384`,
      },
    ];
  }
  const want = sel ?? Object.values(CURVES).find((c) => c.curve === curve);
  if (!want || curve !== want.curve) {
    return [
      {
        kind: "algorithm",
        detail: `the leaf's key (${curve ?? key.asymmetricKeyType}) is not the ECDSA key the answer needs (${want?.curve ?? "P-256 or P-384"})`,
      },
    ];
  }
  const hash = t.algorithms ? HASHES[bitOf(t.algorithms.baseHashSel) ?? -1] : hashFromRedfish(hashingAlgorithm, curve);
  if (!hash) return [{ kind: "algorithm", detail: "the selected BaseHashSel is not SHA-256, SHA-384 or SHA-512" }];
  const sig = t.pairs[t.pairs.length - 1].response.signature;
  if (sig.length !== want.size) {
    return [
      { kind: "signature", detail: `the signature is ${sig.length} bytes; ECDSA ${curve} r||s takes ${want.size}` },
    ];
  }
  const signed = t.bytes.subarray(0, t.signatureOffset);
  const message =
    t.version >= 0x12 ? Buffer.concat([combinedPrefix(t.version), createHash(hash).update(signed).digest()]) : signed;
  const good = verify(hash, message, { key, dsaEncoding: "ieee-p1363" }, sig);
  return good
    ? []
    : [
        {
          kind: "signature",
          detail: "the signature over the measurements does not verify with the leaf certificate's key",
        },
      ];
}

/** The single bit set in `mask`, or undefined. */
function bitOf(mask: number): number | undefined {
  for (let b = 0; b < 32; b++) if (mask === 2 ** b) return b;
  return undefined;
}

function hashFromRedfish(name: string | undefined, curve: string): string | undefined {
  const n = (name ?? "").toUpperCase().replace(/[^A-Z0-9]/g, "");
  if (n.endsWith("SHA256")) return "sha256";
  if (n.endsWith("SHA384")) return "sha384";
  if (n.endsWith("SHA512")) return "sha512";
  if (n) return undefined;
  return curve === "secp384r1" ? "sha384" : "sha256";
}

/** Every block of every pair (a later block of the same index replaces an earlier one). */
function measuredOf(t: SpdmTranscript): Measured[] {
  const alg = t.algorithms ? MEAS_HASH[bitOf(t.algorithms.measurementHashAlgo) ?? -1] : undefined;
  const byIndex = new Map<number, Measured>();
  for (const { response } of t.pairs) for (const b of response.blocks) byIndex.set(b.index, toMeasured(b, alg));
  return [...byIndex.values()].sort((a, b) => a.index - b.index);
}

function toMeasured(b: MeasurementBlock, alg: Measured["alg"]): Measured {
  const base = { index: b.index, type: b.type, raw: b.raw, valueHex: b.value.toString("hex") };
  if (b.raw) {
    const text = b.value.toString("latin1").replace(/\0+$/, "");
    return /^[\x20-\x7e]*$/.test(text) ? { ...base, text } : base;
  }
  return alg ? { ...base, alg } : base;
}
