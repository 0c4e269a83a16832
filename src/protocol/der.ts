/**
 * The few DER encodings a self-signed X.509 certificate needs (ITU-T X.690). Written here because importing an ASN.1
 * library stack slows every start-up, and the engine launches a provider process for every plan and apply.
 */

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** A TLV with the given tag byte. */
export function tlv(tag: number, content: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

/** SEQUENCE of the given encodings. */
export const seq = (...items: Uint8Array[]): Buffer => tlv(0x30, Buffer.concat(items));
/** SET of the given encodings (one item in a certificate name). */
export const set = (...items: Uint8Array[]): Buffer => tlv(0x31, Buffer.concat(items));
/** Context-specific constructed [n]. */
export const explicit = (n: number, inner: Uint8Array): Buffer => tlv(0xa0 | n, inner);

/** INTEGER from big-endian unsigned bytes (a leading zero is added when the high bit is set). */
export function uint(bytes: Uint8Array): Buffer {
  let b = Buffer.from(bytes);
  while (b.length > 1 && b[0] === 0 && b[1] < 0x80) b = b.subarray(1);
  return tlv(0x02, b[0] >= 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

/** OBJECT IDENTIFIER from dotted text. */
export function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split(".").map(Number);
  const out: number[] = [40 * a + b];
  for (const n of rest) {
    const groups: number[] = [];
    for (let v = n; ; v = Math.floor(v / 128)) {
      groups.unshift(v & 0x7f);
      if (v < 128) break;
    }
    out.push(...groups.map((g, i) => (i < groups.length - 1 ? g | 0x80 : g)));
  }
  return tlv(0x06, Buffer.from(out));
}

export const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, "utf8"));
export const bool = (v: boolean): Buffer => tlv(0x01, Buffer.from([v ? 0xff : 0]));
export const octets = (b: Uint8Array): Buffer => tlv(0x04, b);
/** BIT STRING with no unused bits. */
export const bits = (b: Uint8Array): Buffer => tlv(0x03, Buffer.concat([Buffer.from([0]), b]));

/** GeneralizedTime (valid for any year; X.509 asks for UTCTime before 2050, which Go and OpenSSL accept either way). */
export function time(d: Date): Buffer {
  const iso = d.toISOString().replace(/[-:T]/g, "").slice(0, 14);
  return d.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}
