/** Reading the CA bundles that `ca_file` settings name (Redfish, Kubernetes). */
import { readFileSync } from "node:fs";
import type { AttributePath, Diagnostics } from "../../framework/index.js";

/**
 * Reads a PEM CA bundle named by a `ca_file` setting: undefined when none is set, null after a diagnostic naming the
 * file, the attribute and which CA belongs there.
 */
export function readCaBundle(
  file: string | undefined,
  service: string,
  whichCa: string,
  attribute: AttributePath,
  diags: Diagnostics,
): string | undefined | null {
  if (!file) return undefined;
  try {
    const pem = readFileSync(file, "utf8");
    if (!pem.includes("-----BEGIN CERTIFICATE-----")) throw new Error("it holds no PEM certificate");
    return pem;
  } catch (e) {
    diags.error(
      `Cannot read the ${service} CA bundle`,
      `ca_file ${JSON.stringify(file)}: ${(e as Error).message}. Point ca_file at the PEM file of ${whichCa}.`,
      attribute,
    );
    return null;
  }
}
