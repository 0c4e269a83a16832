/**
 * The capability and algorithm messages of SPDM's VCA (DSP0274 1.2, "GET_CAPABILITIES", "NEGOTIATE_ALGORITHMS"),
 * read with their lengths checked. Only ALGORITHMS matters to the verifier (which signature and hash the responder
 * selected); the others are walked so that each message's layout, and so the transcript, is checked.
 */
import type { ByteReader } from "./spdm-transcript.js";

/** What the responder selected in ALGORITHMS (bit masks as DSP0274 numbers them). */
export interface AlgorithmsMessage {
  /** MeasurementSpecificationSel: bit 0 = DMTF. */
  readonly measurementSpecSel: number;
  /** MeasurementHashAlgo: bit 0 raw bit stream only, bit 1 SHA-256, bit 2 SHA-384, bit 3 SHA-512, … */
  readonly measurementHashAlgo: number;
  /** BaseAsymSel: bit 4 ECDSA P-256, bit 7 ECDSA P-384, … */
  readonly baseAsymSel: number;
  /** BaseHashSel: bit 0 SHA-256, bit 1 SHA-384, bit 2 SHA-512, … */
  readonly baseHashSel: number;
}

const GET_CAPABILITIES = 0xe1;
const CAPABILITIES = 0x61;
const NEGOTIATE_ALGORITHMS = 0xe3;
const ALGORITHMS = 0x63;

/** GET_CAPABILITIES and CAPABILITIES: 4/12 bytes (1.0), 12/12 (1.1), 20/20 (1.2: DataTransferSize, MaxSPDMmsgSize). */
export function readCapabilities(r: ByteReader, version: number): void {
  r.header(GET_CAPABILITIES, "GET_CAPABILITIES", version);
  if (version >= 0x11) r.bytes(8, "GET_CAPABILITIES: Reserved, CTExponent, Reserved, Flags");
  if (version >= 0x12) r.bytes(8, "GET_CAPABILITIES: DataTransferSize, MaxSPDMmsgSize");
  r.header(CAPABILITIES, "CAPABILITIES", version);
  r.bytes(8, "CAPABILITIES: Reserved, CTExponent, Reserved, Flags");
  if (version >= 0x12) r.bytes(8, "CAPABILITIES: DataTransferSize, MaxSPDMmsgSize");
}

/** NEGOTIATE_ALGORITHMS: 32 fixed bytes, extended algorithms, AlgStructs; Length must cover exactly that. */
export function readNegotiate(r: ByteReader, version: number): void {
  const start = r.offset;
  const h = r.header(NEGOTIATE_ALGORITHMS, "NEGOTIATE_ALGORITHMS", version);
  const length = r.u16("NEGOTIATE_ALGORITHMS: Length");
  r.bytes(22, "NEGOTIATE_ALGORITHMS: MeasurementSpecification … Reserved");
  const extAsym = r.u8("NEGOTIATE_ALGORITHMS: ExtAsymCount");
  const extHash = r.u8("NEGOTIATE_ALGORITHMS: ExtHashCount");
  r.bytes(2, "NEGOTIATE_ALGORITHMS: Reserved");
  r.bytes(4 * (extAsym + extHash), "NEGOTIATE_ALGORITHMS: ExtAsym and ExtHash");
  readAlgStructs(r, version >= 0x11 ? h.param1 : 0, "NEGOTIATE_ALGORITHMS");
  checkLength(r, start, length, "NEGOTIATE_ALGORITHMS");
}

/** ALGORITHMS: 36 fixed bytes, extended selections, AlgStructs; Length must cover exactly that. */
export function readAlgorithms(r: ByteReader, version: number): AlgorithmsMessage {
  const start = r.offset;
  const h = r.header(ALGORITHMS, "ALGORITHMS", version);
  const length = r.u16("ALGORITHMS: Length");
  const measurementSpecSel = r.u8("ALGORITHMS: MeasurementSpecificationSel");
  r.u8("ALGORITHMS: OtherParamsSelection");
  const measurementHashAlgo = r.u32("ALGORITHMS: MeasurementHashAlgo");
  const baseAsymSel = r.u32("ALGORITHMS: BaseAsymSel");
  const baseHashSel = r.u32("ALGORITHMS: BaseHashSel");
  r.bytes(12, "ALGORITHMS: Reserved");
  const extAsym = r.u8("ALGORITHMS: ExtAsymSelCount");
  const extHash = r.u8("ALGORITHMS: ExtHashSelCount");
  r.bytes(2, "ALGORITHMS: Reserved");
  r.bytes(4 * (extAsym + extHash), "ALGORITHMS: ExtAsymSel and ExtHashSel");
  readAlgStructs(r, version >= 0x11 ? h.param1 : 0, "ALGORITHMS");
  checkLength(r, start, length, "ALGORITHMS");
  return { measurementSpecSel, measurementHashAlgo, baseAsymSel, baseHashSel };
}

/** AlgStructs: AlgType, AlgCount (bits 7:4 fixed-algorithm bytes, bits 3:0 external count), then both. */
function readAlgStructs(r: ByteReader, count: number, name: string): void {
  for (let i = 1; i <= count; i++) {
    r.u8(`${name}: AlgStruct ${i} AlgType`);
    const algCount = r.u8(`${name}: AlgStruct ${i} AlgCount`);
    r.bytes((algCount >> 4) + 4 * (algCount & 0x0f), `${name}: AlgStruct ${i} algorithms`);
  }
}

function checkLength(r: ByteReader, start: number, length: number, name: string): void {
  const read = r.offset - start;
  if (read !== length) r.fail(`${name} Length says ${length} bytes, its fields take ${read}`, start + 4);
}
