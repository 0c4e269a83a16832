/**
 * Parses an SPDM transcript as Redfish's `SignedMeasurements` carries it (DSP0268 ComponentIntegrity,
 * SPDMGetSignedMeasurementsResponse; libspdm's "standard measurement report"), byte by byte, per the message layouts of
 * DSP0274: for SPDM 1.2, VCA (GET_VERSION, VERSION, GET_CAPABILITIES, CAPABILITIES, NEGOTIATE_ALGORITHMS, ALGORITHMS)
 * then GET_MEASUREMENTS/MEASUREMENTS pairs, the last one signed; for 1.0 and 1.1, the pairs alone (their L1 holds no
 * VCA). Every length is checked against the bytes left; a malformed transcript throws RACKFORM_ERR_ATTEST_TRANSCRIPT
 * naming the offset and what was expected there. Versions above 1.2 (1.3's RequesterContext) are refused as such.
 */
import { AttestError } from "../errors.js";
import { type AlgorithmsMessage, readAlgorithms, readCapabilities, readNegotiate } from "./spdm-vca.js";

/** DSP0274 request and response codes this parser walks. */
export const SPDM_CODE = {
  GET_VERSION: 0x84,
  VERSION: 0x04,
  GET_CAPABILITIES: 0xe1,
  CAPABILITIES: 0x61,
  NEGOTIATE_ALGORITHMS: 0xe3,
  ALGORITHMS: 0x63,
  GET_MEASUREMENTS: 0xe0,
  MEASUREMENTS: 0x60,
} as const;

/** One DMTF measurement block of a MEASUREMENTS response. */
export interface MeasurementBlock {
  readonly index: number;
  /** DMTFSpecMeasurementValueType bits 6:0 (0 immutable ROM, 1 mutable firmware, 2 hardware config, 3 firmware config, 6 version…). */
  readonly type: number;
  /** Bit 7: the value is a raw bit stream rather than a digest. */
  readonly raw: boolean;
  readonly value: Buffer;
}

/** A GET_MEASUREMENTS request as sent. */
export interface MeasurementRequest {
  readonly version: number;
  readonly signatureRequested: boolean;
  /** Param2: 0 (count), 0xFF (all) or one index. */
  readonly operation: number;
  /** The requester's nonce (absent when no signature was requested). */
  readonly nonce?: Buffer;
  /** SlotIDParam (1.1 and later, with a signature). */
  readonly slotId?: number;
}

/** A MEASUREMENTS response. */
export interface MeasurementResponse {
  readonly version: number;
  readonly param1: number;
  /** Param2 bits 3:0 (1.1 and later). */
  readonly slotId: number;
  readonly blocks: readonly MeasurementBlock[];
  readonly nonce: Buffer;
  readonly opaque: Buffer;
  /** The signature bytes (empty when none was requested). */
  readonly signature: Buffer;
}

/** A parsed transcript. */
export interface SpdmTranscript {
  /** Negotiated version byte, e.g. 0x12. */
  readonly version: number;
  /** The VCA's ALGORITHMS response (1.2; absent in a 1.0/1.1 transcript). */
  readonly algorithms?: AlgorithmsMessage;
  readonly pairs: readonly { readonly request: MeasurementRequest; readonly response: MeasurementResponse }[];
  /** The whole transcript. */
  readonly bytes: Buffer;
  /** Where the last response's signature starts: bytes before it are what was signed (L1/L2). */
  readonly signatureOffset: number;
}

/** "1.2" for 0x12. */
export const versionText = (v: number): string => `${v >> 4}.${v & 0x0f}`;

/** Bytes read with every length checked; errors name the offset. */
export class ByteReader {
  offset = 0;
  constructor(readonly buf: Buffer) {}

  get left(): number {
    return this.buf.length - this.offset;
  }

  fail(what: string, at = this.offset): never {
    throw new AttestError("RACKFORM_ERR_ATTEST_TRANSCRIPT", `SPDM transcript, offset ${at}: ${what}`, { offset: at });
  }

  need(n: number, what: string): void {
    if (n > this.left) this.fail(`expected ${what} (${n} bytes), only ${this.left} left`);
  }

  bytes(n: number, what: string): Buffer {
    this.need(n, what);
    const b = this.buf.subarray(this.offset, this.offset + n);
    this.offset += n;
    return b;
  }

  u8(what: string): number {
    return this.bytes(1, what)[0];
  }

  u16(what: string): number {
    return this.bytes(2, what).readUInt16LE(0);
  }

  u24(what: string): number {
    return this.bytes(3, what).readUIntLE(0, 3);
  }

  u32(what: string): number {
    return this.bytes(4, what).readUInt32LE(0);
  }

  /** The SPDM header's version and code; the code must be `code`, the version `version` when given. */
  header(code: number, name: string, version?: number): { version: number; param1: number; param2: number } {
    const at = this.offset;
    const v = this.u8(`${name}: SPDMVersion`);
    const c = this.u8(`${name}: RequestResponseCode`);
    if (c !== code) this.fail(`expected ${name} (code 0x${hex2(code)}), found code 0x${hex2(c)}`, at + 1);
    if (version !== undefined && v !== version) {
      this.fail(`${name} carries SPDMVersion 0x${hex2(v)}, the negotiated version is 0x${hex2(version)}`, at);
    }
    return { version: v, param1: this.u8(`${name}: Param1`), param2: this.u8(`${name}: Param2`) };
  }
}

const hex2 = (n: number) => n.toString(16).padStart(2, "0").toUpperCase();

/** Parses a base64 SignedMeasurements transcript. */
export function parseTranscript(b64: string): SpdmTranscript {
  const text = b64.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text) || text.length % 4 !== 0) {
    throw new AttestError("RACKFORM_ERR_ATTEST_TRANSCRIPT", "SPDM transcript: SignedMeasurements is not base64");
  }
  const r = new ByteReader(Buffer.from(text, "base64"));
  r.need(2, "an SPDM message header");
  const first = r.buf[1];
  let version = r.buf[0];
  let algorithms: AlgorithmsMessage | undefined;
  if (first === SPDM_CODE.GET_VERSION) {
    ({ version, algorithms } = readVca(r));
  } else if (first === SPDM_CODE.GET_MEASUREMENTS) {
    if (version >= 0x12) r.fail(`SPDM ${versionText(version)} transcript starts without VCA (GET_VERSION expected)`);
    if (version < 0x10) r.fail(`unknown SPDMVersion 0x${hex2(version)}`);
  } else {
    r.fail(`expected GET_VERSION (0x84) or GET_MEASUREMENTS (0xE0), found code 0x${hex2(first)}`, 1);
  }
  const pairs: SpdmTranscript["pairs"][number][] = [];
  let signatureOffset = r.buf.length;
  while (r.left > 0) {
    const request = readGetMeasurements(r, version);
    const sigSize = algorithms ? signatureSize(algorithms.baseAsymSel) : undefined;
    const { response, signatureAt } = readMeasurements(r, version, request, sigSize);
    pairs.push({ request, response });
    if (request.signatureRequested) {
      if (r.left > 0) r.fail("a signed MEASUREMENTS must end the transcript; bytes follow it");
      signatureOffset = signatureAt;
    }
  }
  if (pairs.length === 0) r.fail("expected GET_MEASUREMENTS after the VCA, found the end of the transcript");
  return { version, ...(algorithms ? { algorithms } : {}), pairs, bytes: r.buf, signatureOffset };
}

/** GET_VERSION, VERSION, GET_CAPABILITIES, CAPABILITIES, NEGOTIATE_ALGORITHMS, ALGORITHMS. */
function readVca(r: ByteReader): { version: number; algorithms: AlgorithmsMessage } {
  r.header(SPDM_CODE.GET_VERSION, "GET_VERSION", 0x10);
  r.header(SPDM_CODE.VERSION, "VERSION", 0x10);
  r.u8("VERSION: Reserved");
  const count = r.u8("VERSION: VersionNumberEntryCount");
  const offered: number[] = [];
  for (let i = 0; i < count; i++) offered.push(r.u16(`VERSION: VersionNumberEntry ${i + 1}`) >> 8);
  r.need(1, "GET_CAPABILITIES: SPDMVersion");
  const version = r.buf[r.offset];
  if (!offered.includes(version)) {
    r.fail(
      `GET_CAPABILITIES uses version ${versionText(version)}, which VERSION did not offer (${offered.map(versionText).join(", ")})`,
    );
  }
  if (version > 0x12) r.fail(`SPDM ${versionText(version)} is not supported (1.0 to 1.2 are)`);
  readCapabilities(r, version);
  readNegotiate(r, version);
  return { version, algorithms: readAlgorithms(r, version) };
}

function readGetMeasurements(r: ByteReader, version: number): MeasurementRequest {
  const h = r.header(SPDM_CODE.GET_MEASUREMENTS, "GET_MEASUREMENTS", version);
  const signatureRequested = (h.param1 & 0x01) !== 0;
  if (!signatureRequested) return { version, signatureRequested, operation: h.param2 };
  const nonce = Buffer.from(r.bytes(32, "GET_MEASUREMENTS: Nonce"));
  const slotId = version >= 0x11 ? r.u8("GET_MEASUREMENTS: SlotIDParam") & 0x0f : undefined;
  return { version, signatureRequested, operation: h.param2, nonce, ...(slotId !== undefined ? { slotId } : {}) };
}

function readMeasurements(
  r: ByteReader,
  version: number,
  request: MeasurementRequest,
  sigSize: number | undefined,
): { response: MeasurementResponse; signatureAt: number } {
  const h = r.header(SPDM_CODE.MEASUREMENTS, "MEASUREMENTS", version);
  const count = r.u8("MEASUREMENTS: NumberOfBlocks");
  const recordLength = r.u24("MEASUREMENTS: MeasurementRecordLength");
  const recordAt = r.offset;
  const record = new ByteReader(r.bytes(recordLength, "MEASUREMENTS: MeasurementRecord"));
  const blocks: MeasurementBlock[] = [];
  for (let i = 0; i < count; i++) blocks.push(readBlock(record, recordAt, i + 1));
  if (record.left > 0) {
    r.fail(`MeasurementRecord holds ${record.left} bytes after its ${count} blocks`, recordAt + record.offset);
  }
  const nonce = Buffer.from(r.bytes(32, "MEASUREMENTS: Nonce"));
  const opaqueLength = r.u16("MEASUREMENTS: OpaqueDataLength");
  if (opaqueLength > 1024)
    r.fail(`OpaqueDataLength ${opaqueLength} exceeds the 1024 bytes DSP0274 allows`, r.offset - 2);
  const opaque = Buffer.from(r.bytes(opaqueLength, "MEASUREMENTS: OpaqueData"));
  const signatureAt = r.offset;
  let signature = Buffer.alloc(0);
  if (request.signatureRequested) {
    if (sigSize !== undefined && r.left !== sigSize) {
      r.fail(`expected a ${sigSize}-byte Signature (per ALGORITHMS) ending the transcript, found ${r.left} bytes`);
    }
    if (r.left === 0) r.fail("expected MEASUREMENTS: Signature, found the end of the transcript");
    signature = Buffer.from(r.bytes(r.left, "MEASUREMENTS: Signature"));
  }
  const slotId = h.param2 & 0x0f;
  return {
    response: { version, param1: h.param1, slotId, blocks, nonce, opaque, signature },
    signatureAt,
  };
}

/** One measurement block: Index, MeasurementSpecification, MeasurementSize, then the DMTF measurement. */
function readBlock(rec: ByteReader, base: number, n: number): MeasurementBlock {
  const at = rec.offset;
  const fail = (what: string): never => rec.fail(what, base + at);
  const index = rec.u8(`block ${n}: Index`);
  const spec = rec.u8(`block ${n}: MeasurementSpecification`);
  const size = rec.u16(`block ${n}: MeasurementSize`);
  if (spec !== 0x01) fail(`block ${n} (index ${index}) uses MeasurementSpecification 0x${hex2(spec)}, not DMTF (0x01)`);
  const body = new ByteReader(rec.bytes(size, `block ${n}: Measurement`));
  const type = body.u8(`block ${n}: DMTFSpecMeasurementValueType`);
  const valueSize = body.u16(`block ${n}: DMTFSpecMeasurementValueSize`);
  if (3 + valueSize !== size) {
    fail(
      `block ${n} (index ${index}): MeasurementSize ${size} does not match 3 + DMTFSpecMeasurementValueSize ${valueSize}`,
    );
  }
  const value = Buffer.from(body.bytes(valueSize, `block ${n}: DMTFSpecMeasurementValue`));
  return { index, type: type & 0x7f, raw: (type & 0x80) !== 0, value };
}

/** Signature size in bytes of a BaseAsymSel, when rackform verifies that algorithm (ECDSA P-256/P-384). */
export function signatureSize(baseAsymSel: number): number | undefined {
  if (baseAsymSel === 1 << 7) return 96;
  if (baseAsymSel === 1 << 4) return 64;
  return undefined;
}
