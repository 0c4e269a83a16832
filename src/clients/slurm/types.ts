/** What rackform reads of a Slurm node, independent of the data_parser version that served it. */

/** A Slurm node as slurmctld reports it. */
export interface SlurmNode {
  readonly name: string;
  /** Raw state array as slurmrestd v0.0.41 sends it, upper case: base state first, then flags, e.g. ["IDLE","DRAIN"]. */
  readonly state: readonly string[];
  /** Base state: IDLE, ALLOCATED, MIXED, DOWN, FUTURE, UNKNOWN… */
  readonly baseState: string;
  /** Carries the DRAIN flag (sinfo: drng or drain). */
  readonly drain: boolean;
  /** DRAIN flag and no job left (sinfo "drained"): safe to reimage. */
  readonly drained: boolean;
  /** DRAIN flag and jobs still running or completing (sinfo "draining"). */
  readonly draining: boolean;
  /** DOWN, or FAIL-flagged: takes no job until resumed. */
  readonly down: boolean;
  /** Accepts jobs: neither DOWN, DRAIN, FAIL nor a future/unknown node. */
  readonly schedulable: boolean;
  readonly reason: string;
  /** Who set the reason: the user of the scontrol or REST call, "slurm" for slurmctld itself; "" when unknown. */
  readonly reasonSetByUser: string;
  /** When the reason was set (reason_changed_at, ms since the epoch); undefined when not reported. */
  readonly reasonChangedAt?: number;
  readonly features: readonly string[];
  readonly activeFeatures: readonly string[];
  readonly partitions: readonly string[];
  /** Generic resources, e.g. "gpu:h100:8". */
  readonly gres: string;
  readonly comment: string;
  /** When slurmd on the node last started (slurmd_start_time, ms since the epoch); undefined when not reported. */
  readonly slurmdStartedAt?: number;
}

/** Options of SlurmClient.waitDrained. */
export interface WaitDrainedOptions {
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** Time between polls. @default 5_000 */
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
}
