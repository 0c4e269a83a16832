/**
 * API version negotiation: slurmrestd lists the paths it serves in its OpenAPI document (GET /openapi/v3, which needs
 * the same JWT headers as every other request); the client speaks the newest version it knows among those.
 */
import type { HttpCore } from "../http/core.js";
import { safeUrl } from "../redact.js";
import { SlurmError } from "./errors.js";
import {
  DEFAULT_SLURM_API_VERSION,
  offeredVersions,
  pickVersion,
  SLURM_API_VERSIONS,
  type SlurmApiVersion,
  slurmApiVersion,
} from "./versions.js";

/**
 * The version to speak with the slurmrestd at `base`. A server without an OpenAPI document (404, or not JSON) gets
 * DEFAULT_SLURM_API_VERSION, as before negotiation existed; one that offers none of ours fails with
 * RACKFORM_ERR_SLURM_REJECTED naming both lists; a refused token fails with RACKFORM_ERR_SLURM_AUTH.
 */
export async function negotiateVersion(
  core: HttpCore,
  base: string,
  headers: Readonly<Record<string, string>>,
  user: string,
): Promise<SlurmApiVersion> {
  const url = `${base}/openapi/v3`;
  const res = await core.request({ method: "GET", url, headers, idempotent: true, okStatus: () => true });
  const ctx = { method: "GET", url: safeUrl(url), status: res.status, attempts: res.attempts };
  if (res.status === 401 || res.status === 403) {
    throw core.redactor.scrub(
      new SlurmError(
        "RACKFORM_ERR_SLURM_AUTH",
        `GET ${safeUrl(url)}: slurmrestd refused user ${user} and its token (HTTP ${res.status}); issue a new JWT with scontrol token`,
        ctx,
      ),
    );
  }
  const fallback = slurmApiVersion(DEFAULT_SLURM_API_VERSION) as SlurmApiVersion;
  if (res.status !== 200) return fallback;
  let doc: unknown;
  try {
    doc = JSON.parse(res.body);
  } catch {
    return fallback;
  }
  const offered = offeredVersions(doc);
  if (offered.length === 0) return fallback;
  const v = pickVersion(offered);
  if (v) return v;
  throw core.redactor.scrub(
    new SlurmError(
      "RACKFORM_ERR_SLURM_REJECTED",
      `slurmrestd at ${safeUrl(base)} offers ${offered.sort().join(", ")}; rackform speaks ${SLURM_API_VERSIONS.map((x) => x.name).join(", ")}`,
      ctx,
      [],
      { offered },
    ),
  );
}
