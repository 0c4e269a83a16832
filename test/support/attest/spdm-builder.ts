/**
 * Test support: builds SPDM transcripts and certificate chains from DSP0274's message layouts with node:crypto and
 * @peculiar/x509, as a responder and its BMC would, so the parser and verifier meet bytes they did not produce.
 * Faults are switches on the builder: a tampered measurement, another nonce, a chain from another CA, an expired leaf.
 */
// @peculiar/x509 resolves its algorithm providers through tsyringe, which needs the Reflect metadata polyfill first.
import "reflect-metadata";
import { createHash, createPrivateKey, type KeyObject, sign, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

const crypto = webcrypto as unknown as Crypto;

/** ECDSA parameters per curve. */
const CURVE = {
  "P-384": { namedCurve: "P-384", hash: "SHA-384", node: "sha384", asymBit: 7, hashBit: 1 },
  "P-256": { namedCurve: "P-256", hash: "SHA-256", node: "sha256", asymBit: 4, hashBit: 0 },
} as const;
export type Curve = keyof typeof CURVE;

/** A certificate with its key pair. */
export interface Issued {
  readonly cert: x509.X509Certificate;
  readonly keys: CryptoKeyPair;
  readonly pem: string;
  /** The private key as a node KeyObject (for signing transcripts). */
  readonly privateKey: KeyObject;
}

let serial = 1;

/** Issues a certificate: self-signed when `issuer` is left out; a CA when `ca`. */
export async function issue(opts: {
  readonly subject: string;
  readonly issuer?: Issued;
  readonly ca: boolean;
  readonly curve?: Curve;
  readonly notBefore?: Date;
  readonly notAfter?: Date;
}): Promise<Issued> {
  const c = CURVE[opts.curve ?? "P-384"];
  const alg = { name: "ECDSA", namedCurve: c.namedCurve, hash: c.hash };
  const keys = (await crypto.subtle.generateKey(alg, true, ["sign", "verify"])) as CryptoKeyPair;
  const issuerAlg = opts.issuer
    ? {
        name: "ECDSA",
        hash: (opts.issuer.keys.privateKey.algorithm as EcKeyAlgorithm).namedCurve === "P-256" ? "SHA-256" : "SHA-384",
      }
    : alg;
  const extensions = [
    new x509.BasicConstraintsExtension(opts.ca, undefined, true),
    new x509.KeyUsagesExtension(
      opts.ca ? x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign : x509.KeyUsageFlags.digitalSignature,
      true,
    ),
  ];
  const cert = await x509.X509CertificateGenerator.create(
    {
      serialNumber: (serial++).toString(16).padStart(2, "0"),
      subject: opts.subject,
      issuer: opts.issuer ? opts.issuer.cert.subject : opts.subject,
      notBefore: opts.notBefore ?? new Date("2026-01-01T00:00:00Z"),
      notAfter: opts.notAfter ?? new Date("2036-01-01T00:00:00Z"),
      signingAlgorithm: issuerAlg,
      publicKey: keys.publicKey,
      signingKey: opts.issuer ? opts.issuer.keys.privateKey : keys.privateKey,
      extensions,
    },
    crypto,
  );
  const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", keys.privateKey));
  const privateKey = createPrivateKey({ key: pkcs8, format: "der", type: "pkcs8" });
  return { cert, keys, pem: `${cert.toString("pem")}\n`, privateKey };
}

/** A lab-like PKI: root CA → vendor intermediate CA → device leaf. */
export async function makePki(
  opts: { readonly curve?: Curve; readonly leafNotAfter?: Date; readonly rootName?: string } = {},
) {
  const curve = opts.curve ?? "P-384";
  const root = await issue({ subject: `CN=${opts.rootName ?? "Lab Root CA"}`, ca: true, curve });
  const vendor = await issue({ subject: "CN=Vendor CA,O=GPU Vendor", issuer: root, ca: true, curve });
  const leaf = await issue({
    subject: "CN=GPU0 serial 1234,O=GPU Vendor",
    issuer: vendor,
    ca: false,
    curve,
    ...(opts.leafNotAfter ? { notAfter: opts.leafNotAfter } : {}),
  });
  return { root, vendor, leaf, chainPem: leaf.pem + vendor.pem + root.pem };
}

/** One measurement block to report. */
export interface Block {
  readonly index: number;
  /** DMTFSpecMeasurementValueType including the raw bit (0x86 = raw | version). */
  readonly type: number;
  readonly value: Buffer;
}

/** The blocks the lab's devices report: indices 1–4 digests (SHA-384) and 5 the version text. */
export function labBlocks(version: string, seed = "fw"): Block[] {
  const d = (s: string) => createHash("sha384").update(`${seed}:${s}`).digest();
  return [
    { index: 1, type: 0x00, value: d("rom") },
    { index: 2, type: 0x01, value: d("firmware") },
    { index: 3, type: 0x02, value: d("hw-config") },
    { index: 4, type: 0x03, value: d("fw-config") },
    { index: 5, type: 0x86, value: Buffer.from(version, "ascii") },
  ];
}

const u16 = (n: number) => {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
};
const u24 = (n: number) => {
  const b = Buffer.alloc(3);
  b.writeUIntLE(n, 0, 3);
  return b;
};
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n >>> 0);
  return b;
};
const bytes = (...xs: number[]) => Buffer.from(xs);

/** DSP0274 1.2 VCA: GET_VERSION, VERSION, GET_CAPABILITIES, CAPABILITIES, NEGOTIATE_ALGORITHMS, ALGORITHMS. */
export function vca(curve: Curve): Buffer {
  const c = CURVE[curve];
  const v = 0x12;
  // AlgStructs: DHE (2), AEAD (3), ReqBaseAsymAlg (4), KeySchedule (5); AlgCount 0x20 = two fixed bytes, no external.
  const structs = Buffer.concat([2, 3, 4, 5].map((type) => bytes(type, 0x20, 0x01, 0x00)));
  const negotiateFixed = (length: number) =>
    Buffer.concat([
      bytes(v, 0xe3, 4, 0),
      u16(length),
      bytes(0x01, 0x02),
      u32((1 << 7) | (1 << 4)),
      u32(0b11),
      Buffer.alloc(12),
      bytes(0, 0, 0, 0),
    ]);
  const negotiate = Buffer.concat([negotiateFixed(32 + structs.length), structs]);
  const algorithms = Buffer.concat([
    bytes(v, 0x63, 4, 0),
    u16(36 + structs.length),
    bytes(0x01, 0x02),
    u32(1 << 2),
    u32(1 << c.asymBit),
    u32(1 << c.hashBit),
    Buffer.alloc(12),
    bytes(0, 0, 0, 0),
    structs,
  ]);
  return Buffer.concat([
    bytes(0x10, 0x84, 0, 0),
    bytes(0x10, 0x04, 0, 0, 0, 2, 0x00, 0x11, 0x00, 0x12),
    Buffer.concat([bytes(v, 0xe1, 0, 0, 0, 12, 0, 0), u32(0x000002c6), u32(4096), u32(4096)]),
    Buffer.concat([bytes(v, 0x61, 0, 0, 0, 12, 0, 0), u32(0x0000fbf6 & ~0x08), u32(4096), u32(4096)]),
    negotiate,
    algorithms,
  ]);
}

/** What to build. */
export interface TranscriptOptions {
  readonly signer: KeyObject;
  readonly nonceHex: string;
  readonly blocks: readonly Block[];
  /** 0x12 (with VCA), 0x11 or 0x10 (without). @default 0x12 */
  readonly version?: number;
  readonly curve?: Curve;
  readonly slotId?: number;
  readonly opaque?: Buffer;
  /** Ask for no signature (an unsigned answer). */
  readonly unsigned?: boolean;
}

/** GET_MEASUREMENTS || MEASUREMENTS without the signature (what L1/L2 holds of one exchange). */
export function measurementPair(o: Omit<TranscriptOptions, "signer">): Buffer {
  const version = o.version ?? 0x12;
  const slot = o.slotId ?? 0;
  const signed = !o.unsigned;
  const request = Buffer.concat([
    bytes(version, 0xe0, signed ? 0x01 : 0x00, 0xff),
    ...(signed ? [Buffer.from(o.nonceHex, "hex"), ...(version >= 0x11 ? [bytes(slot)] : [])] : []),
  ]);
  const record = Buffer.concat(
    o.blocks.map((b) =>
      Buffer.concat([bytes(b.index, 0x01), u16(3 + b.value.length), bytes(b.type), u16(b.value.length), b.value]),
    ),
  );
  const opaque = o.opaque ?? Buffer.alloc(0);
  const response = Buffer.concat([
    bytes(version, 0x60, 0, version >= 0x11 ? slot : 0),
    bytes(o.blocks.length),
    u24(record.length),
    record,
    createHash("sha256").update(`responder nonce ${o.nonceHex}`).digest(),
    u16(opaque.length),
    opaque,
  ]);
  return Buffer.concat([request, response]);
}

/** The SPDM transcript a BMC would put in SignedMeasurements: VCA (1.2), `before` (earlier exchanges), the last pair. */
export function buildTranscript(o: TranscriptOptions & { readonly before?: Buffer }): { bytes: Buffer; b64: string } {
  const version = o.version ?? 0x12;
  const c = CURVE[o.curve ?? "P-384"];
  const l = Buffer.concat([
    version >= 0x12 ? vca(o.curve ?? "P-384") : Buffer.alloc(0),
    o.before ?? Buffer.alloc(0),
    measurementPair(o),
  ]);
  if (o.unsigned) return { bytes: l, b64: l.toString("base64") };
  const message = version >= 0x12 ? Buffer.concat([prefix12(), createHash(c.node).update(l).digest()]) : l;
  const signature = sign(c.node, message, { key: o.signer, dsaEncoding: "ieee-p1363" });
  const all = Buffer.concat([l, signature]);
  return { bytes: all, b64: all.toString("base64") };
}

/** combined_spdm_prefix of DSP0274 1.2 for "responder-measurements signing", written out from the spec's text. */
function prefix12(): Buffer {
  const context = "responder-measurements signing";
  return Buffer.concat([
    Buffer.from("dmtf-spdm-v1.2.*dmtf-spdm-v1.2.*dmtf-spdm-v1.2.*dmtf-spdm-v1.2.*"),
    Buffer.alloc(36 - context.length),
    Buffer.from(context),
  ]);
}

/** The offset of the first byte of measurement block `index`'s value in a built transcript. */
export function valueOffset(blocks: readonly Block[], index: number, version = 0x12, curve: Curve = "P-384"): number {
  const head = (version >= 0x12 ? vca(curve).length : 0) + 4 + 32 + (version >= 0x11 ? 1 : 0) + 8;
  let at = head;
  for (const b of blocks) {
    if (b.index === index) return at + 7;
    at += 7 + b.value.length;
  }
  throw new Error(`no block ${index}`);
}
