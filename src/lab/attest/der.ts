/**
 * A small DER encoder and an X.509 v3 certificate builder on node:crypto (ITU-T X.690, RFC 5280). Synchronous on
 * purpose: a BMC's Redfish handlers answer synchronously, and a device's certificate is made on first use. Only what the
 * lab's certificates need: ECDSA P-384 keys signed with ecdsa-with-SHA384, names of CN/O, basicConstraints, keyUsage,
 * subject and authority key identifiers.
 */
import { createHash, type KeyObject, sign } from "node:crypto";

function len(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One TLV. */
export const tlv = (tag: number, value: Buffer): Buffer =>
  Buffer.concat([Buffer.from([tag]), len(value.length), value]);
export const seq = (...items: Buffer[]): Buffer => tlv(0x30, Buffer.concat(items));
const set = (...items: Buffer[]): Buffer => tlv(0x31, Buffer.concat(items));
const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0x00]));
const octets = (v: Buffer): Buffer => tlv(0x04, v);
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, "utf8"));
const bits = (v: Buffer, unused = 0): Buffer => tlv(0x03, Buffer.concat([Buffer.from([unused]), v]));
/** A context-specific constructed (explicit) tag. */
const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);

/** A non-negative INTEGER from big-endian bytes (a leading zero added when the top bit is set). */
function uint(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && b[1] < 0x80) b = b.subarray(1);
  if (b[0] >= 0x80) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split(".").map(Number);
  const out: number[] = [parts[0] * 40 + parts[1]];
  for (const p of parts.slice(2)) {
    const chunk: number[] = [p & 0x7f];
    for (let v = Math.floor(p / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime before 2050, GeneralizedTime from then (RFC 5280 §4.1.2.5). */
function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

const OID = {
  cn: "2.5.4.3",
  o: "2.5.4.10",
  ecdsaSha384: "1.2.840.10045.4.3.3",
  basicConstraints: "2.5.29.19",
  keyUsage: "2.5.29.15",
  ski: "2.5.29.14",
  aki: "2.5.29.35",
} as const;

/** A distinguished name of CN and O (both UTF8String). */
export interface DistinguishedName {
  readonly cn: string;
  readonly o: string;
}

function name(n: DistinguishedName): Buffer {
  return seq(set(seq(oid(OID.o), utf8(n.o))), set(seq(oid(OID.cn), utf8(n.cn))));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
}

/** RFC 5280 §4.2.1.2 method (1): SHA-1 of the subjectPublicKey BIT STRING's value. */
export function keyIdentifier(spkiDer: Buffer): Buffer {
  // SubjectPublicKeyInfo ::= SEQUENCE { algorithm SEQUENCE, subjectPublicKey BIT STRING }: the key is the last TLV.
  const bitString = spkiDer.subarray(lastTlvStart(spkiDer));
  const headerLen = bitString[1] < 0x80 ? 2 : 2 + (bitString[1] & 0x7f);
  return createHash("sha1")
    .update(bitString.subarray(headerLen + 1))
    .digest();
}

/** Offset of the last element inside a SEQUENCE. */
function lastTlvStart(der: Buffer): number {
  let off = der[1] < 0x80 ? 2 : 2 + (der[1] & 0x7f);
  let last = off;
  while (off < der.length) {
    last = off;
    const l = der[off + 1];
    const hl = l < 0x80 ? 2 : 2 + (l & 0x7f);
    const vl = l < 0x80 ? l : der.subarray(off + 2, off + hl).reduce((a, b) => a * 256 + b, 0);
    off += hl + vl;
  }
  return last;
}

/** keyUsage bits (RFC 5280 §4.2.1.3), as a BIT STRING of one byte. */
const KEY_USAGE = { digitalSignature: 0x80, keyCertSign: 0x04, cRLSign: 0x02 } as const;

/** What a certificate says. */
export interface CertificateRequest {
  readonly serial: Buffer;
  readonly subject: DistinguishedName;
  readonly issuer: DistinguishedName;
  readonly notBefore: Date;
  readonly notAfter: Date;
  /** The subject's public key. */
  readonly publicKey: KeyObject;
  /** The issuer's public key (its key identifier becomes the authority key identifier). */
  readonly issuerPublicKey: KeyObject;
  readonly signingKey: KeyObject;
  /** A CA certificate (basicConstraints cA, keyCertSign) or an end-entity one (digitalSignature). */
  readonly ca: boolean;
}

/** A DER X.509 v3 certificate signed with ecdsa-with-SHA384. */
export function buildCertificate(r: CertificateRequest): Buffer {
  const spki = r.publicKey.export({ format: "der", type: "spki" });
  const issuerSpki = r.issuerPublicKey.export({ format: "der", type: "spki" });
  const usage = r.ca ? KEY_USAGE.keyCertSign | KEY_USAGE.cRLSign : KEY_USAGE.digitalSignature;
  const sigAlg = seq(oid(OID.ecdsaSha384));
  const extensions = seq(
    extension(OID.basicConstraints, true, r.ca ? seq(bool(true)) : seq()),
    extension(OID.keyUsage, true, bits(Buffer.from([usage]), r.ca ? 1 : 7)),
    extension(OID.ski, false, octets(keyIdentifier(spki))),
    extension(OID.aki, false, seq(tlv(0x80, keyIdentifier(issuerSpki)))),
  );
  const tbs = seq(
    explicit(0, uint(Buffer.from([2]))),
    uint(r.serial),
    sigAlg,
    name(r.issuer),
    seq(time(r.notBefore), time(r.notAfter)),
    name(r.subject),
    spki,
    explicit(3, extensions),
  );
  const signature = sign("sha384", tbs, r.signingKey);
  return seq(tbs, sigAlg, bits(signature));
}

/** PEM of a DER certificate. */
export function certificatePem(der: Buffer): string {
  const b64 = der.toString("base64").replace(/(.{64})/g, "$1\n");
  return `-----BEGIN CERTIFICATE-----\n${b64.replace(/\n$/, "")}\n-----END CERTIFICATE-----\n`;
}
