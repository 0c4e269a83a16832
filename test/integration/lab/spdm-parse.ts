/**
 * An SPDM 1.2 measurement transcript parser written from DSP0274 1.2's message layouts, for tests — independent of the
 * lab's generator (src/lab/attest/spdm.ts) on purpose — plus the signature check (node:crypto) and the certificate
 * chain check (@peculiar/x509) a verifier makes.
 */
import "reflect-metadata";
import { createHash, X509Certificate as NodeX509, verify, webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** One measurement block as DSP0274 1.2 §10.11.1 lays it out (DMTF measurement specification). */
export interface Block {
  index: number;
  spec: number;
  valueType: number;
  value: Buffer;
}
/** What the parser finds. */
export interface Transcript {
  versions: number[];
  responderFlags: number;
  algorithms: { measSpec: number; measHash: number; asym: number; hash: number };
  requests: { param1: number; param2: number; nonce?: Buffer; slot?: number }[];
  responses: { param2: number; blocks: Block[]; nonce: Buffer; opaque: Buffer }[];
  /** Everything before the signature (L2). */
  l2: Buffer;
  signature: Buffer;
}

/** A reader over the transcript that fails loudly on a short buffer or an unexpected header. */
class Reader {
  off = 0;
  constructor(readonly buf: Buffer) {}
  take(n: number): Buffer {
    if (this.off + n > this.buf.length) throw new Error(`transcript too short at ${this.off} (+${n})`);
    const b = this.buf.subarray(this.off, this.off + n);
    this.off += n;
    return b;
  }
  u8 = () => this.take(1)[0];
  u16 = () => this.take(2).readUInt16LE(0);
  u24 = () => this.take(3).readUIntLE(0, 3);
  u32 = () => this.take(4).readUInt32LE(0);
  header(version: number, code: number): [number, number] {
    const [v, c, p1, p2] = this.take(4);
    if (v !== version || c !== code)
      throw new Error(`expected ${version.toString(16)}/${code.toString(16)}, got ${v.toString(16)}/${c.toString(16)}`);
    return [p1, p2];
  }
}

/** Parses VCA || (GET_MEASUREMENTS || MEASUREMENTS)+ || Signature(96) per DSP0274 1.2. */
export function parseTranscript(buf: Buffer): Transcript {
  const r = new Reader(buf);
  r.header(0x10, 0x84); // GET_VERSION
  r.header(0x10, 0x04); // VERSION
  r.u8(); // Reserved
  const count = r.u8();
  const versions = Array.from({ length: count }, () => r.u16());
  const caps = (code: number) => {
    r.header(0x12, code);
    r.take(1); // Reserved
    r.u8(); // CTExponent
    r.take(2); // Reserved
    const flags = r.u32();
    r.u32(); // DataTransferSize
    r.u32(); // MaxSPDMmsgSize
    return flags;
  };
  caps(0xe1); // GET_CAPABILITIES
  const responderFlags = caps(0x61); // CAPABILITIES
  const negStart = r.off;
  r.header(0x12, 0xe3); // NEGOTIATE_ALGORITHMS
  const negLength = r.u16();
  r.off = negStart + negLength;
  const algStart = r.off;
  r.header(0x12, 0x63); // ALGORITHMS
  const algLength = r.u16();
  const measSpec = r.u8();
  r.u8(); // OtherParamsSelection
  const measHash = r.u32();
  const asym = r.u32();
  const hash = r.u32();
  r.off = algStart + algLength;
  const requests: Transcript["requests"] = [];
  const responses: Transcript["responses"] = [];
  for (;;) {
    const [param1, param2] = r.header(0x12, 0xe0); // GET_MEASUREMENTS
    const signed = (param1 & 1) === 1;
    requests.push(signed ? { param1, param2, nonce: Buffer.from(r.take(32)), slot: r.u8() } : { param1, param2 });
    const [, rParam2] = r.header(0x12, 0x60); // MEASUREMENTS
    const nBlocks = r.u8();
    const record = new Reader(r.take(r.u24()));
    const blocks: Block[] = [];
    for (let i = 0; i < nBlocks; i++) {
      const index = record.u8();
      const spec = record.u8();
      const size = record.u16();
      const m = new Reader(record.take(size));
      const valueType = m.u8();
      const value = Buffer.from(m.take(m.u16()));
      blocks.push({ index, spec, valueType, value });
    }
    const nonce = Buffer.from(r.take(32));
    const opaque = Buffer.from(r.take(r.u16()));
    responses.push({ param2: rParam2, blocks, nonce, opaque });
    if (signed) break;
  }
  const l2 = buf.subarray(0, r.off);
  const signature = r.take(96);
  if (r.off !== buf.length) throw new Error(`${buf.length - r.off} bytes after the signature`);
  return {
    versions,
    responderFlags,
    algorithms: { measSpec, measHash, asym, hash },
    requests,
    responses,
    l2,
    signature,
  };
}

/** DSP0274 1.2 combined_spdm_prefix for the MEASUREMENTS signature, built here from the spec's words. */
export function prefix(): Buffer {
  const ctx = Buffer.from("responder-measurements signing");
  return Buffer.concat([Buffer.from("dmtf-spdm-v1.2.*".repeat(4)), Buffer.alloc(36 - ctx.length), ctx]);
}

export function signatureValid(t: Transcript, leaf: NodeX509): boolean {
  const m = Buffer.concat([prefix(), createHash("sha384").update(t.l2).digest()]);
  return verify("sha384", m, { key: leaf.publicKey, dsaEncoding: "ieee-p1363" }, t.signature);
}

export const pemBlocks = (pem: string): string[] =>
  pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
/** The leaf (first) certificate of a PEM chain. */
export function leafOf(pem: string): NodeX509 {
  const first = pemBlocks(pem)[0];
  if (!first) throw new Error("no certificate in the chain");
  return new NodeX509(first);
}

/** Whether the PEM chain (leaf first) is a valid chain whose last certificate is `rootPem`. */
export async function chainsTo(chainPem: string, rootPem: string): Promise<boolean> {
  const certs = pemBlocks(chainPem).map((p) => new x509.X509Certificate(p));
  const root = new x509.X509Certificate(rootPem);
  const builder = new x509.X509ChainBuilder({ certificates: [...certs.slice(1, -1), root] });
  const chain = await builder.build(certs[0]);
  if (chain.length < 2 || !chain[chain.length - 1].equal(root)) return false;
  for (let i = 0; i < chain.length; i++) {
    const issuer = chain[Math.min(i + 1, chain.length - 1)];
    if (!(await chain[i].verify({ publicKey: issuer.publicKey, signatureOnly: true }))) return false;
  }
  const bc = chain[1].getExtension(x509.BasicConstraintsExtension);
  return bc?.ca === true && chain[0].getExtension(x509.BasicConstraintsExtension)?.ca !== true;
}
