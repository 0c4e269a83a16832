/** PEM text split into CERTIFICATE blocks (no parsing: the Redfish client uses it without loading X.509 code). */

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;

/** The CERTIFICATE blocks of a PEM text (a PEM or a PEM chain), in order, each ending in a newline. */
export function splitPem(text: string): string[] {
  return (text.match(PEM_BLOCK) ?? []).map((b) => `${b.replace(/\r\n/g, "\n")}\n`);
}
