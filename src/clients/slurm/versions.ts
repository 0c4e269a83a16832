/**
 * The slurmrestd API versions rackform speaks, newest first, and what differs between them — the one place where a
 * request or response shape depends on the version. A SlurmClient reads the versions a server offers
 * (negotiate.ts) and speaks the newest one listed here.
 *
 * Evidence: v0.0.36–v0.0.38 from Debian's Slurm 22.05.8 (its /openapi/v3 and its answers, test/contract/slurm);
 * v0.0.39–v0.0.42 from SchedMD's openapi_spec_v39…v42 (node update and delete were added in 23.02's v0.0.39).
 */

/** What rackform asks of a node update, whatever the version. */
export interface NodeUpdate {
  /** Node states to set, e.g. ["DRAIN"], ["RESUME"]. */
  readonly state?: readonly string[];
  readonly reason?: string;
  /** Available (and active) features. */
  readonly features?: readonly string[];
  readonly comment?: string;
}

/** One slurmrestd API version as rackform speaks it. */
export interface SlurmApiVersion {
  /** Path segment, e.g. "v0.0.41". */
  readonly name: string;
  /** The Slurm releases that serve it. */
  readonly releases: string;
  /**
   * The body of POST /node/{name}; undefined when the version has no node update (22.05 and older answer 405:
   * drain, resume, features and comments are only possible with scontrol there).
   */
  readonly updateBody?: (u: NodeUpdate) => Record<string, unknown>;
  /** DELETE /node/{name} exists (dynamic nodes). */
  readonly nodeDelete: boolean;
  /**
   * Slurm's error number when slurmctld refused the JWT and slurmrestd passed that on as a plain failure: 22.05 answers
   * a forged or expired token with HTTP 500 and errno -1 ("Unspecified error"), not 401.
   */
  readonly authFailureErrno?: number;
}

/** v0.0.39 and later: `state` an array of flags, features as an array (csv_string in the schema; active follow). */
const arrayUpdate = (u: NodeUpdate): Record<string, unknown> => ({
  ...(u.state ? { state: [...u.state] } : {}),
  ...(u.reason !== undefined ? { reason: u.reason } : {}),
  ...(u.features ? { features: [...u.features] } : {}),
  ...(u.comment !== undefined ? { comment: u.comment } : {}),
});

const readOnly = (name: string): SlurmApiVersion => ({
  name,
  releases: "22.05",
  nodeDelete: false,
  authFailureErrno: -1,
});

/** Every version rackform speaks, newest first. */
export const SLURM_API_VERSIONS: readonly SlurmApiVersion[] = [
  { name: "v0.0.42", releases: "24.11, 25.05", updateBody: arrayUpdate, nodeDelete: true },
  { name: "v0.0.41", releases: "24.05, 24.11, 25.05", updateBody: arrayUpdate, nodeDelete: true },
  { name: "v0.0.40", releases: "23.11, 24.05, 24.11", updateBody: arrayUpdate, nodeDelete: true },
  { name: "v0.0.39", releases: "23.02, 23.11, 24.05", updateBody: arrayUpdate, nodeDelete: true },
  readOnly("v0.0.38"),
  readOnly("v0.0.37"),
  readOnly("v0.0.36"),
];

/** The version spoken when the server does not list its versions (no /openapi/v3): the one rackform spoke before. */
export const DEFAULT_SLURM_API_VERSION = "v0.0.41";

/** The entry for `name`, or undefined when rackform does not speak it. */
export function slurmApiVersion(name: string): SlurmApiVersion | undefined {
  return SLURM_API_VERSIONS.find((v) => v.name === name);
}

/** The versions an OpenAPI document offers node reads in (paths /slurm/vX.Y.Z/nodes, trailing slash or not). */
export function offeredVersions(openapi: unknown): string[] {
  const paths = (openapi as { paths?: unknown } | null)?.paths;
  if (typeof paths !== "object" || paths === null) return [];
  const found = new Set<string>();
  for (const p of Object.keys(paths)) {
    const m = /^\/slurm\/(v\d+\.\d+\.\d+)\/nodes\/?$/.exec(p);
    if (m) found.add(m[1]);
  }
  return [...found];
}

/** The newest version both sides speak, or undefined. */
export function pickVersion(offered: readonly string[]): SlurmApiVersion | undefined {
  return SLURM_API_VERSIONS.find((v) => offered.includes(v.name));
}
