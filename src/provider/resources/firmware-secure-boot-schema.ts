/**
 * rackform_firmware's UEFI Secure Boot attributes: what the flavor wants (`secure_boot`) and what the node reports
 * (`secure_boot_status`). The certificates and hashes are checked when the configuration is validated, before any
 * request to a BMC.
 */
import { X509Certificate } from "node:crypto";
import { attr, validator } from "../../framework/index.js";

/** A SHA-256 digest as UEFI's EFI_CERT_SHA256_GUID signatures hold it. */
const SHA256_HEX = /^[0-9a-fA-F]{64}$/;

/** Each entry must be one PEM X.509 certificate. */
const pemCertificates = validator("PEM X.509 certificates", (req, resp) => {
  if (!Array.isArray(req.value)) return;
  for (const [i, pem] of req.value.entries()) {
    if (typeof pem !== "string") continue;
    const blocks = pem.match(/-----BEGIN CERTIFICATE-----/g)?.length ?? 0;
    let problem = blocks === 1 ? "" : `holds ${blocks} certificates; give one per entry`;
    if (!problem) {
      try {
        new X509Certificate(pem);
      } catch (e) {
        problem = `is not a readable X.509 certificate (${(e as Error).message})`;
      }
    }
    if (problem) {
      resp.diagnostics.error(
        "Invalid Secure Boot certificate",
        `Entry ${i} ${problem}. Give the certificate as PEM text ("-----BEGIN CERTIFICATE-----"), e.g. file("db.pem"). Nothing was sent to any BMC.`,
        req.path,
      );
    }
  }
});

/** Each entry must be a SHA-256 digest of 64 hex digits. */
const sha256List = validator("SHA-256 digests", (req, resp) => {
  if (!Array.isArray(req.value)) return;
  for (const [i, h] of req.value.entries()) {
    if (typeof h === "string" && !SHA256_HEX.test(h)) {
      resp.diagnostics.error(
        "Invalid dbx entry",
        `Entry ${i} (${JSON.stringify(h.slice(0, 80))}) is not a SHA-256 digest of 64 hex digits (the hash of a binary UEFI must refuse to run).`,
        req.path,
      );
    }
  }
});

/** The Secure Boot attributes of rackform_firmware. */
export const secureBootAttributes = {
  secure_boot: attr.single(
    {
      enabled: attr.bool({
        required: true,
        description:
          "UEFI Secure Boot enforced (SecureBootEnable). Turned on or off at the node's next reset, the one this " +
          "apply runs for the firmware baseline (or its cluster member runs inside the disruption budget).",
      }),
      db: attr.list("string", {
        optional: true,
        description:
          "Certificates (PEM) that must be in the allowed-signature database `db`, e.g. the key that signs your " +
          "golden image's boot chain. Enrolled when missing; certificates already there stay.",
        validators: [pemCertificates],
      }),
      kek: attr.list("string", {
        optional: true,
        description:
          "Certificates (PEM) that must be in the Key Exchange Key database `KEK`. Enrolled when missing, before db.",
        validators: [pemCertificates],
      }),
      dbx: attr.list("string", {
        optional: true,
        description:
          "SHA-256 digests (hex) of binaries that must be in the forbidden-signature database `dbx` (revocations). " +
          "Added when missing.",
        validators: [sha256List],
      }),
    },
    {
      optional: true,
      description:
        "UEFI Secure Boot as part of the node's flavor, converged through Redfish (Systems/{id}/SecureBoot and its " +
        "SecureBootDatabases): the certificates and revocations enrolled, then Secure Boot enabled, all activated " +
        "by the same single reset as the firmware and BIOS settings. Read back on every refresh: Secure Boot turned " +
        "off by hand, or a certificate removed, plans an in-place fix (and moves `ref`, so the node's cluster member " +
        "and gate follow). A node in Setup Mode (no Platform Key) cannot enforce Secure Boot: the apply fails before " +
        "any write, naming the fix. The golden image must be signed by a key in db, or the node will not boot it.",
    },
  ),
  secure_boot_status: attr.object(
    { enabled: "bool", current_boot: "string", mode: "string", missing: ["list", "string"] },
    {
      computed: true,
      description:
        "Secure Boot as the node reports it: `enabled` (SecureBootEnable, what the next boot enforces), " +
        '`current_boot` ("Enabled" when this boot enforced it), `mode` (SecureBootMode, e.g. UserMode, SetupMode) and ' +
        "`missing`: the wanted entries not in the node's databases (`db:<sha256 of the certificate>`, " +
        "`kek:<…>`, `dbx:<digest>`). Null when `secure_boot` is not set.",
    },
  ),
} as const;
