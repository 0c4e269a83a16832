/** Certificate resource fields (DSP0268 Certificate) read from an X.509 certificate. */
import type { X509Certificate } from "node:crypto";

/** Subject/Issuer as Redfish names them, from an X.509 distinguished name (CN and O only). */
export function dnFields(text: string): Record<string, string> {
  const pick = (k: string) => new RegExp(`^${k}=(.*)$`, "m").exec(text)?.[1];
  const cn = pick("CN");
  const o = pick("O");
  return { ...(o ? { Organization: o } : {}), ...(cn ? { CommonName: cn } : {}) };
}

/** ISO 8601 in UTC without milliseconds. */
const utc = (t: string) => new Date(t).toISOString().replace(/\.\d{3}Z$/, "Z");

/** SerialNumber as the schema's pattern has it: hex byte pairs separated by colons. */
function serial(hex: string): string {
  const even = hex.length % 2 === 1 ? `0${hex}` : hex;
  return (even.toLowerCase().match(/../g) ?? []).join(":");
}

/** Subject, Issuer, validity and serial number of a certificate. */
export function certificateFields(c: X509Certificate): Record<string, unknown> {
  return {
    Subject: dnFields(c.subject),
    Issuer: dnFields(c.issuer),
    ValidNotBefore: utc(c.validFrom),
    ValidNotAfter: utc(c.validTo),
    SerialNumber: serial(c.serialNumber),
  };
}
