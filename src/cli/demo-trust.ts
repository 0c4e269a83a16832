/**
 * Trust at join in the demo configuration: Secure Boot in every node's rackform_firmware and attestation in every
 * gate. Certificates and the reference values are files in the working directory, read with file() — the HCL names
 * them, never embeds them.
 */

/** The demo's trust settings. */
export interface DemoTrust {
  /** Secure Boot on every node (rackform_firmware `secure_boot`); db certificates as file names. */
  readonly secureBoot?: { readonly enabled: boolean; readonly dbFiles?: readonly string[] };
  /** Attest every gate: the trust anchors' and reference values' files, and the reference's pinned sha256. */
  readonly attestation?: {
    readonly anchorsFile: string;
    readonly referenceFile: string;
    readonly referenceSha256: string;
    readonly components?: readonly string[];
  };
}

const q = JSON.stringify;

/** rackform_firmware's secure_boot block ("" without Secure Boot). */
export function secureBootBlock(t: DemoTrust | undefined): string {
  const sb = t?.secureBoot;
  if (!sb) return "";
  const db = (sb.dbFiles ?? []).map((f) => `file(${q(f)})`).join(", ");
  return `  secure_boot = {
    enabled = ${sb.enabled} # enforced from the node's next reset (inside the budget on a running node)
${db ? `    db      = [${db}] # the key that signs the golden image's boot chain\n` : ""}  }
`;
}

/** The attestation lines of node `id`'s gate ("" without attestation). */
export function attestationLines(id: string, t: DemoTrust | undefined): string {
  const a = t?.attestation;
  if (!a) return "";
  const kinds = a.components?.length ? `    components       = ${q(a.components)}\n` : "";
  return `  attestation = { # every SPDM component's signed measurements, verified before the node joins
    bmc_endpoint     = rackform_bmc.${id}.endpoint
    trust_anchors    = [file(${q(a.anchorsFile)})]
    reference_values = file(${q(a.referenceFile)})
    reference_sha256 = ${q(a.referenceSha256)}
${kinds}  }
`;
}
