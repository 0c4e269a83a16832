/** JSON shapes of slurmrestd with data_parser v0.0.41 (schemas v0.0.41_node, v0.0.41_openapi_*_resp). */
import { type LabSlurmNode, nodeStates } from "./slurm-nodes.js";

/** The data_parser version the lab speaks. */
export const SLURM_API_VERSION = "v0.0.41";
/** The Slurm release the lab claims to be (the first release with data_parser v0.0.41). */
export const SLURM_RELEASE = { major: "24", minor: "05", micro: "4" } as const;

/** A v0.0.41_uint64_no_val_struct / uint32_no_val_struct. */
export function noVal(n: number | undefined): { set: boolean; infinite: boolean; number: number } {
  return n === undefined ? { set: false, infinite: false, number: 0 } : { set: true, infinite: false, number: n };
}

/** The `meta` block of every response. */
export function meta(client: { source: string; user: string }): Record<string, unknown> {
  return {
    plugin: {
      type: "openapi/slurmctld",
      name: "Slurm OpenAPI slurmctld",
      data_parser: `data_parser/${SLURM_API_VERSION}`,
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
