/**
 * JSON shapes of slurmrestd per release: 24.05 (data_parser v0.0.39–v0.0.41, schemas v0.0.41_node,
 * v0.0.41_openapi_*_resp) and 22.05 (openapi/v0.0.36–v0.0.38, before data_parser: read-only nodes, state as a
 * lower-case string plus state_flags, errors with `errno`). The 22.05 shapes are those Debian's 22.05.8 sends.
 */
import { type LabSlurmNode, nodeStates } from "./slurm-nodes.js";

/** The newest version the lab speaks as 24.05. */
export const SLURM_API_VERSION = "v0.0.41";
/** The Slurm release the lab claims to be by default (the first release with data_parser v0.0.41). */
export const SLURM_RELEASE = { major: "24", minor: "05", micro: "4" } as const;

/** The slurmrestd releases the lab can be. */
export type SlurmRestRelease = "24.05" | "22.05";

/** The versions each release serves, oldest first (as its slurmrestd registers them). */
export const SERVED_VERSIONS: Readonly<Record<SlurmRestRelease, readonly string[]>> = {
  "24.05": ["v0.0.39", "v0.0.40", "v0.0.41"],
  "22.05": ["v0.0.36", "v0.0.37", "v0.0.38"],
};

/** The OpenAPI document of GET /openapi/v3: the node paths and methods each served version has. */
export function openapiDocument(release: SlurmRestRelease): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  const writes = release !== "22.05";
  for (const v of SERVED_VERSIONS[release]) {
    paths[`/slurm/${v}/nodes`] = { get: { operationId: `slurm_${v}_get_nodes` } };
    paths[`/slurm/${v}/node/{node_name}`] = {
      get: { operationId: `slurm_${v}_get_node` },
      ...(writes
        ? { post: { operationId: `slurm_${v}_post_node` }, delete: { operationId: `slurm_${v}_delete_node` } }
        : {}),
    };
  }
  return {
    openapi: "3.0.2",
    info: { title: "Slurm REST API", version: release === "22.05" ? "0.0.36" : "Slurm-24.05.4" },
    paths,
  };
}

/** A GET /nodes node as 22.05's openapi/v0.0.38 sends it (lower-case base state, flags apart, csv features). */
export function renderNode0038(n: LabSlurmNode): Record<string, unknown> {
  const [base, ...flags] = nodeStates(n);
  const r = renderNode(n);
  return {
    ...r,
    state: base.toLowerCase(),
    state_flags: flags,
    next_state_after_reboot: "invalid",
    next_state_after_reboot_flags: [],
    features: n.features.join(","),
    active_features: n.activeFeatures.join(","),
    boot_time: n.bootTime,
    last_busy: n.bootTime,
    reason_changed_at: n.reasonChangedAt,
    slurmd_start_time: n.bootTime,
    free_memory: n.realMemoryMiB - 4096,
    reason_set_by_user: n.reasonSetByUser || null,
    owner: null,
    slurmd_version: "22.05.8",
  };
}

/** The `meta` block of a 22.05 response. */
export function meta0038(version: string): Record<string, unknown> {
  return {
    plugin: { type: `openapi/${version}`, name: `Slurm OpenAPI ${version}` },
    Slurm: { version: { major: 22, micro: 8, minor: 5 }, release: "22.05.8" },
  };
}

/** A v0.0.41_uint64_no_val_struct / uint32_no_val_struct. */
export function noVal(n: number | undefined): { set: boolean; infinite: boolean; number: number } {
  return n === undefined ? { set: false, infinite: false, number: 0 } : { set: true, infinite: false, number: n };
}

/** The `meta` block of every 24.05 response (`version`: the data_parser the request named). */
export function meta(client: { source: string; user: string }, version = SLURM_API_VERSION): Record<string, unknown> {
  return {
    plugin: {
      type: "openapi/slurmctld",
      name: "Slurm OpenAPI slurmctld",
      data_parser: `data_parser/${version}`,
      accounting_storage: "",
    },
    client: { source: client.source, user: client.user, group: client.user },
    command: [],
    slurm: {
      version: { ...SLURM_RELEASE },
      release: `${SLURM_RELEASE.major}.${SLURM_RELEASE.minor}.${SLURM_RELEASE.micro}`,
      cluster: "lab",
    },
  };
}

/** One v0.0.41_openapi_error. */
export interface SlurmRestError {
  readonly description: string;
  readonly error_number: number;
  readonly error: string;
  readonly source: string;
}

/** A v0.0.41_node as GET /nodes returns it (the fields a real 24.05 slurmrestd fills for a configured node). */
export function renderNode(n: LabSlurmNode): Record<string, unknown> {
  const gpus = /^gpu(?::[^:,(]+)?:(\d+)/.exec(n.gres)?.[1];
  const tres = `cpu=${n.cpus},mem=${n.realMemoryMiB}M,billing=${n.cpus}${gpus ? `,gres/gpu=${gpus}` : ""}`;
  const busy = n.jobs.size > 0;
  return {
    architecture: "x86_64",
    burstbuffer_network_address: "",
    boards: 1,
    boot_time: noVal(n.bootTime),
    cluster_name: "",
    cores: Math.max(1, Math.floor(n.cpus / 4)),
    specialized_cores: 0,
    cpu_binding: 0,
    cpu_load: busy ? n.cpus * 100 : 3,
    free_mem: noVal(n.realMemoryMiB - 4096),
    cpus: n.cpus,
    effective_cpus: n.cpus,
    specialized_cpus: "",
    energy: {},
    external_sensors: {},
    extra: "",
    power: {},
    features: [...n.features],
    active_features: [...n.activeFeatures],
    gpu_spec: "",
    gres: n.gres,
    gres_drained: "N/A",
    gres_used: busy && n.gres ? n.gres.replace(/:(\d+)$/, ":$1(IDX:0-7)") : n.gres.replace(/:(\d+)$/, ":0(IDX:N/A)"),
    instance_id: "",
    instance_type: "",
    last_busy: noVal(n.bootTime),
    mcs_label: "",
    specialized_memory: 0,
    name: n.name,
    next_state_after_reboot: ["INVALID"],
    address: n.name,
    hostname: n.name,
    state: nodeStates(n),
    operating_system: "Linux 6.8.0-45-generic #45-Ubuntu SMP",
    owner: "",
    partitions: [...n.partitions],
    port: 6818,
    real_memory: n.realMemoryMiB,
    res_cores_per_gpu: 0,
    comment: n.comment,
    reason: n.reason,
    reason_changed_at: noVal(n.reasonChangedAt),
    reason_set_by_user: n.reasonSetByUser,
    resume_after: noVal(0),
    reservation: "",
    alloc_memory: busy ? n.realMemoryMiB : 0,
    alloc_cpus: busy ? n.cpus : 0,
    alloc_idle_cpus: busy ? 0 : n.cpus,
    tres_used: busy ? tres : "",
    tres_weighted: busy ? n.cpus : 0,
    slurmd_start_time: noVal(n.bootTime),
    sockets: 2,
    threads: 2,
    temporary_disk: 0,
    weight: 1,
    tres,
    version: `${SLURM_RELEASE.major}.${SLURM_RELEASE.minor}.${SLURM_RELEASE.micro}`,
  };
}
