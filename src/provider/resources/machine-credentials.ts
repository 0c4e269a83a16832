/**
 * rackform_machine's BMC credentials. The backend powers the node with the provider's redfish username and password,
 * handed over at enrollment; a rotated password must reach it too, or its power calls fail with 401. The state keeps a
 * scrypt-keyed HMAC fingerprint of them (credential-fingerprint.ts), never the credentials: the plan recomputes it from the
 * provider configuration (known at plan time), so a rotation plans an in-place update of every machine and apply
 * sends the new credentials to the backend.
 */
import {
  type Diagnostics,
  getString,
  isUnknown,
  type ObjectValue,
  path,
  UNKNOWN,
  type Value,
} from "../../framework/index.js";
import type { PowerCredentials } from "../backends/index.js";
import type { ProviderData } from "../config/config.js";
import { CredentialFingerprints } from "../shared/credential-fingerprint.js";

/** The attribute holding the fingerprint. */
export const FINGERPRINT = "bmc_credentials_fingerprint";

/** How the backend reaches the BMC at `endpoint`, with the provider's credentials; undefined after a diagnostic. */
export function powerCredentials(
  data: ProviderData,
  endpoint: string,
  diags: Diagnostics,
): PowerCredentials | undefined {
  const { username, password, insecure } = data.redfish;
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
export function plannedFingerprint(data: ProviderData, state: ObjectValue): Value {
  const recorded = getString(state, FINGERPRINT);
  const fps = data.bmcFingerprints();
  if (fps === "unknown") return UNKNOWN;
  if (fps === undefined || recorded === null) return recorded;
  return fps.against(recorded);
}

/** True when apply must hand the backend the credentials: the plan's fingerprint is not the state's. */
export function credentialsChanged(state: ObjectValue, plan: ObjectValue): boolean {
  const planned = plan[FINGERPRINT] ?? null;
  return isUnknown(planned) || planned !== getString(state, FINGERPRINT);
}

/**
 * The fingerprint of the credentials now, with the salt of `recorded` (a fresh salt when none): what create, an update
 * that sent the credentials, and a first refresh after an import record. Undefined without credentials.
 */
export function currentFingerprint(data: ProviderData, recorded: string | null): string | undefined {
  const fps = data.bmcFingerprints();
  if (!(fps instanceof CredentialFingerprints)) return undefined;
  return recorded ? fps.against(recorded) : fps.of();
}
