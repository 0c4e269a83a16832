/**
 * An SPDM 1.2 responder's measurement transcript, byte for byte as DSP0274 1.2 lays the messages out: the VCA
 * (GET_VERSION, VERSION, GET_CAPABILITIES, CAPABILITIES, NEGOTIATE_ALGORITHMS, ALGORITHMS), then one GET_MEASUREMENTS /
 * MEASUREMENTS pair per requested index, only the last one signed. The signature is DSP0274 1.2 §"Signature
 * generation": ECDSA P-384 (raw r||s) over SHA-384(combined_spdm_prefix || SHA-384(L2)), L2 being every message from
 * GET_VERSION through the last MEASUREMENTS without its signature. The concatenation with the signature is what Redfish
 * `SignedMeasurements` carries for SPDM 1.2 (ComponentIntegrity schema; libspdm doc/standard_measurement_report.md).
 * No transport is modelled (no MCTP, no session): the lab builds the messages a real exchange would have produced.
 */
import { createHash, type KeyObject, randomBytes, sign } from "node:crypto";
import type { MeasurementBlock } from "./measurements.js";

/** SPDMVersion byte of 1.2 messages (GET_VERSION/VERSION use 0x10). */
const V12 = 0x12;
/** Request/response codes (DSP0274 table "SPDM request and response codes"). */
const CODE = {
  GET_VERSION: 0x84,
  VERSION: 0x04,
  GET_CAPABILITIES: 0xe1,
  CAPABILITIES: 0x61,
  NEGOTIATE_ALGORITHMS: 0xe3,
  ALGORITHMS: 0x63,
  GET_MEASUREMENTS: 0xe0,
  MEASUREMENTS: 0x60,
} as const;
/** BaseAsymAlgo bit 7: TPM_ALG_ECDSA_ECC_NIST_P384. */
const ASYM_ECDSA_P384 = 0x0000_0080;
/** BaseHashAlgo bit 1: TPM_ALG_SHA_384. */
const HASH_SHA384 = 0x0000_0002;
/** MeasurementHashAlgo bit 2: TPM_ALG_SHA_384. */
const MEAS_HASH_SHA384 = 0x0000_0004;
/** MeasurementSpecification bit 0: DMTF. */
const MEAS_SPEC_DMTF = 0x01;
/** Responder CAPABILITIES flags: CERT_CAP (bit 1), CHAL_CAP (bit 2), MEAS_CAP = 10b with signature (bits 4:3), MEAS_FRESH_CAP (bit 5). */
const RESPONDER_FLAGS = 0x02 | 0x04 | (0b10 << 3) | 0x20;
/** Requester GET_CAPABILITIES flags: CERT_CAP, CHAL_CAP. */
const REQUESTER_FLAGS = 0x02 | 0x04;
const TRANSFER_SIZE = 4096;
/** The signing context of a MEASUREMENTS signature (DSP0274 1.2 table "SPDM signing contexts"). */
const MEASUREMENTS_CONTEXT = "responder-measurements signing";

const u16 = (v: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(v);
  return b;
};
const u24 = (v: number) => Buffer.from([v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff]);
const u32 = (v: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(v);
  return b;
};
const header = (version: number, code: number, p1 = 0, p2 = 0) => Buffer.from([version, code, p1, p2]);

/** GET_CAPABILITIES / CAPABILITIES (1.2): header, Reserved, CTExponent, Reserved(2), Flags, DataTransferSize, MaxSPDMmsgSize. */
function capabilities(code: number, ctExponent: number, flags: number): Buffer {
  return Buffer.concat([
    header(V12, code),
    Buffer.from([0, ctExponent, 0, 0]),
    u32(flags),
    u32(TRANSFER_SIZE),
    u32(TRANSFER_SIZE),
  ]);
}

/** The six VCA messages (no algorithm structure tables: the lab's devices offer no key exchange). */
export function vca(): Buffer {
  const getVersion = header(0x10, CODE.GET_VERSION);
  // VERSION: Reserved, VersionNumberEntryCount, entries (16-bit LE: major<<12 | minor<<8) for 1.0, 1.1, 1.2.
  const version = Buffer.concat([
    header(0x10, CODE.VERSION),
    Buffer.from([0, 3]),
    u16(0x1000),
    u16(0x1100),
    u16(0x1200),
  ]);
  const getCaps = capabilities(CODE.GET_CAPABILITIES, 0, REQUESTER_FLAGS);
  const caps = capabilities(CODE.CAPABILITIES, 12, RESPONDER_FLAGS);
  // NEGOTIATE_ALGORITHMS (32 bytes): Length, MeasurementSpecification, OtherParamsSupport (OpaqueDataFmt1), BaseAsymAlgo,
  // BaseHashAlgo, Reserved(12), ExtAsymCount, ExtHashCount, Reserved(2).
  const negotiate = Buffer.concat([
    header(V12, CODE.NEGOTIATE_ALGORITHMS),
    u16(32),
    Buffer.from([MEAS_SPEC_DMTF, 0x02]),
    u32(ASYM_ECDSA_P384 | 0x10),
    u32(HASH_SHA384 | 0x01),
    Buffer.alloc(12),
    Buffer.from([0, 0, 0, 0]),
  ]);
  // ALGORITHMS (36 bytes): Length, MeasurementSpecificationSel, OtherParamsSelection, MeasurementHashAlgo, BaseAsymSel,
  // BaseHashSel, Reserved(12), ExtAsymSelCount, ExtHashSelCount, Reserved(2).
  const algorithms = Buffer.concat([
    header(V12, CODE.ALGORITHMS),
    u16(36),
    Buffer.from([MEAS_SPEC_DMTF, 0x02]),
    u32(MEAS_HASH_SHA384),
    u32(ASYM_ECDSA_P384),
    u32(HASH_SHA384),
    Buffer.alloc(12),
    Buffer.from([0, 0, 0, 0]),
  ]);
  return Buffer.concat([getVersion, version, getCaps, caps, negotiate, algorithms]);
}

/** A GET_MEASUREMENTS (1.2): Param1 bit 0 SignatureRequested; Nonce and SlotIDParam only when signed. */
export function getMeasurements(operation: number, signed: { nonce: Buffer; slot: number } | undefined): Buffer {
  const h = header(V12, CODE.GET_MEASUREMENTS, signed ? 0x01 : 0x00, operation);
  return signed ? Buffer.concat([h, signed.nonce, Buffer.from([signed.slot])]) : h;
}

/** One measurement block: Index, MeasurementSpecification (DMTF), MeasurementSize, then the DMTF measurement. */
function block(b: MeasurementBlock): Buffer {
  const dmtf = Buffer.concat([Buffer.from([b.type]), u16(b.value.length), b.value]);
  return Buffer.concat([Buffer.from([b.index, MEAS_SPEC_DMTF]), u16(dmtf.length), dmtf]);
}

/**
 * A MEASUREMENTS (1.2) without its signature: Param1 (the number of indices for operation 0, else 0), Param2 (SlotID in
 * bits 3:0 when signed), NumberOfBlocks, MeasurementRecordLength (3 bytes), the record, the responder's Nonce,
 * OpaqueDataLength (0).
 */
export function measurementsBody(
  blocks: readonly MeasurementBlock[],
  opts: { countOnly?: number; slot?: number; nonce: Buffer },
): Buffer {
  const record = Buffer.concat(blocks.map(block));
  return Buffer.concat([
    header(V12, CODE.MEASUREMENTS, opts.countOnly ?? 0, (opts.slot ?? 0) & 0x0f),
    Buffer.from([blocks.length]),
    u24(record.length),
    record,
    opts.nonce,
    u16(0),
  ]);
}

/** combined_spdm_prefix (100 bytes): "dmtf-spdm-v1.2.*" four times, zero padding, the signing context. */
export function combinedPrefix(context = MEASUREMENTS_CONTEXT): Buffer {
  const version = Buffer.from("dmtf-spdm-v1.2.*".repeat(4), "ascii");
  const ctx = Buffer.from(context, "ascii");
  return Buffer.concat([version, Buffer.alloc(36 - ctx.length), ctx]);
}

/** One exchange of the transcript: the operation (Param2) and the blocks it answers with. */
export interface Exchange {
  /** 0 (number of indices), 1–254 (one index) or 0xFF (all). */
  readonly operation: number;
  readonly blocks: readonly MeasurementBlock[];
  /** For operation 0: how many indices the device has. */
  readonly count?: number;
}

/**
 * The SignedMeasurements bytes: VCA || (GET_MEASUREMENTS || MEASUREMENTS)* || signature, the last request signed with
 * the requester's `nonce` and `slot`, each response with a fresh responder nonce.
 */
export function signedTranscript(
  exchanges: readonly Exchange[],
  requester: { nonce: Buffer; slot: number },
  key: KeyObject,
): Buffer {
  const parts: Buffer[] = [vca()];
  exchanges.forEach((x, i) => {
    const last = i === exchanges.length - 1;
    parts.push(getMeasurements(x.operation, last ? requester : undefined));
    parts.push(
      measurementsBody(x.blocks, {
        countOnly: x.operation === 0 ? x.count : undefined,
        slot: last ? requester.slot : 0,
        nonce: randomBytes(32),
      }),
    );
  });
  const l2 = Buffer.concat(parts);
  const m = Buffer.concat([combinedPrefix(), createHash("sha384").update(l2).digest()]);
  const signature = sign("sha384", m, { key, dsaEncoding: "ieee-p1363" });
  return Buffer.concat([l2, signature]);
}
