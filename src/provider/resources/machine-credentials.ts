/**
 * rackform_machine's BMC credentials. The backend powers the node with the provider's redfish username and password,
 * handed over at enrollment; a rotated password must reach it too, or its power calls fail with 401. The state keeps a
 * scrypt-keyed HMAC fingerprint of them (credential-fingerprint.ts), never the credentials: the plan recomputes it from the
 * provider configuration (known at plan time), so a rotation plans an in-place update of every machine and apply
 * sends the new credentials to the backend.
 */
import { type Diagnostics, isUnknownValue, path, UNKNOWN, type Unknowable } from "../../framework/index.js";
import type { PowerCredentials } from "../backends/index.js";
import type { RedfishSettings } from "../config/config.js";
import { CredentialFingerprints } from "../shared/credential-fingerprint.js";

/** The provider's redfish settings the backend is handed. */
export type BmcCredentials = Pick<RedfishSettings, "username" | "password" | "insecure">;

/** Where the provider's credential fingerprints come from (ProviderData.bmcFingerprints). */
export type Fingerprints = () => CredentialFingerprints | "unknown" | undefined;

/** How the backend reaches the BMC at `endpoint`, with the provider's credentials; undefined after a diagnostic. */
export function powerCredentials(
  redfish: BmcCredentials,
  endpoint: string,
  diags: Diagnostics,
): PowerCredentials | undefined {
  const { username, password, insecure } = redfish;
  if (!username || !password) {
    diags.error(
      "BMC credentials missing",
      "The backend powers the node through its BMC with the provider's redfish username and password; set them in " +
        "the provider's redfish block (or RACKFORM_REDFISH_USERNAME / RACKFORM_REDFISH_PASSWORD).",
      path("bmc_endpoint"),
    );
    return undefined;
  }
  return { bmcAddress: new URL(endpoint).origin, bmcUsername: username, bmcPassword: password, bmcInsecure: insecure };
}

/**
 * The fingerprint a plan records: the state's while the credentials are the ones it was made from, the new
 * credentials' (same salt) once they changed, unknown while the provider configuration is not known yet. Without
 * credentials (create reports that) or without a recorded fingerprint, the state's value stands.
 */
export function plannedFingerprint(fingerprints: Fingerprints, recorded: string | null): Unknowable<string | null> {
  const fps = fingerprints();
  if (fps === "unknown") return UNKNOWN;
  if (fps === undefined || recorded === null) return recorded;
  return fps.against(recorded);
}

/** True when apply must hand the backend the credentials: the plan's fingerprint is not the state's. */
export function credentialsChanged(recorded: string | null, planned: Unknowable<string | null>): boolean {
  return isUnknownValue(planned) || planned !== recorded;
}

/**
 * The fingerprint of the credentials now, with the salt of `recorded` (a fresh salt when none): what create, an update
 * that sent the credentials, and a first refresh after an import record. Undefined without credentials.
 */
export function currentFingerprint(fingerprints: Fingerprints, recorded: string | null): string | undefined {
  const fps = fingerprints();
  if (!(fps instanceof CredentialFingerprints)) return undefined;
  return recorded ? fps.against(recorded) : fps.of();
}
