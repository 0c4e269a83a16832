/**
 * Small slurmrestd payload excerpts, written for rackform's tests (not copied files). Provenance of each shape:
 * - V41_*: field names and encodings of data_parser v0.0.41 from SchedMD's OpenAPI description
 *   (SchedMD/slurm testsuite/python/data/openapi_specs/openapi_spec_v41.json: v0.0.41_node, v0.0.41_openapi_error):
 *   `state` is an array (base then flags), features are arrays, times are {set, infinite, number} structs.
 *   The DOWN+NOT_RESPONDING and IDLE examples follow node dumps published with Slurm 24.11/25.11 slurmrestd
 *   (SchedMD rest_quickstart documentation; a charmed-slurm bug report), trimmed to what rackform reads.
 * - V38_*: captured by hand from Debian bookworm's slurmrestd 22.05.8 (openapi/v0.0.38) on loopback on 2026-11-22:
 *   `state` is a lower-case string with `state_flags`, features a comma-separated string, errors carry `errno`.
 */

/** A v0.0.41 GET /nodes answer: one idle GPU node, one draining, one down and not responding. */
export const V41_NODES = {
  nodes: [
    {
      name: "gpu-a01",
      state: ["IDLE"],
      features: ["h100", "ib-ndr"],
      active_features: ["h100", "ib-ndr"],
      partitions: ["gpu", "debug"],
      gres: "gpu:h100:8(S:0-1)",
      gres_used: "gpu:h100:0(IDX:N/A)",
      reason: "",
      reason_changed_at: { set: true, infinite: false, number: 0 },
      comment: "",
      tres: "cpu=112,mem=2000000M,billing=112,gres/gpu=8",
      version: "24.05.4",
    },
    {
      name: "gpu-a02",
      state: ["MIXED", "DRAIN"],
      features: ["h100"],
      active_features: ["h100"],
      partitions: ["gpu"],
      gres: "gpu:h100:8(S:0-1)",
      reason: "rackform: reimage to 2026.06.2",
      reason_set_by_user: "rackform",
      comment: "",
    },
    {
      name: "gpu-a03",
      state: ["DOWN", "NOT_RESPONDING"],
      features: [],
      active_features: [],
      partitions: ["gpu"],
      gres: "",
      reason: "Not responding",
      reason_set_by_user: "slurm",
      comment: "",
    },
  ],
  last_update: { set: true, infinite: false, number: 1767225600 },
  meta: { plugin: { type: "openapi/slurmctld", data_parser: "data_parser/v0.0.41" } },
  errors: [],
  warnings: [],
} as const;

/** A v0.0.41 node update refused by slurmctld (RESUME of a node that is up). */
export const V41_UPDATE_REFUSED = {
  meta: {},
  errors: [
    {
      description: "Failure to update node gpu-a01",
      error_number: 2028,
      error: "Invalid node state specified",
      source: "slurm_update_node",
    },
  ],
  warnings: [],
} as const;

/** A v0.0.38 node (Slurm 22.05) with the DRAIN flag set and no job: drained. */
export const V38_DRAINED_NODE = {
  name: "labgpu1",
  state: "idle",
  state_flags: ["DRAIN"],
  features: "h100",
  active_features: "h100",
  partitions: ["gpu"],
  gres: "",
  reason: "rackform contract",
  reason_set_by_user: "root",
  reason_changed_at: 1795314483,
  comment: "",
} as const;

/** A v0.0.38 GET /node/{unknown} answer (HTTP 500). */
export const V38_UNKNOWN_NODE = {
  meta: { plugin: { type: "openapi/v0.0.38", name: "Slurm OpenAPI v0.0.38" } },
  errors: [{ error: "Invalid node name specified", errno: 2018 }],
  nodes: [],
} as const;
