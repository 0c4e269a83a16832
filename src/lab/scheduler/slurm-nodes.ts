/**
 * The lab slurmctld's node table and the state rules of `scontrol update node` that slurmrestd forwards:
 * a base state (IDLE, ALLOCATED, DOWN) plus flags (DRAIN). Slurm has no DRAINING/DRAINED base state: sinfo derives
 * them from DRAIN with or without running jobs, and slurmrestd v0.0.41 shows the raw array, e.g. ["ALLOCATED","DRAIN"].
 */
import type { SchedulerClock } from "./http-io.js";

/** Slurm error numbers (slurm/slurm_errno.h) the lab answers with. */
export const SLURM_ERRNO = {
  ESLURM_ACCESS_DENIED: 2002,
  ESLURM_NODES_BUSY: 2016,
  ESLURM_INVALID_NODE_NAME: 2018,
  ESLURM_INVALID_NODE_STATE: 2028,
  ESLURM_REST_INVALID_QUERY: 9000,
  ESLURM_REST_FAIL_PARSING: 9001,
} as const;

/** The text slurm_strerror() gives for each number above. */
export const SLURM_STRERROR: Readonly<Record<number, string>> = {
  2002: "Access/permission denied",
  2016: "Requested nodes are busy",
  2018: "Invalid node name specified",
  2028: "Invalid node state specified",
  9000: "Rejecting request. Failure parsing query.",
  9001: "Unable to parse query",
};

/**
 * A failure slurmctld reports; slurmrestd puts it in `errors[]`. Slurm 24.05 (the home of data_parser v0.0.41) answers
 * HTTP 500 for every slurmctld error; only parse failures are 400 (newer releases moved these to 422).
 */
export class SlurmCtldError extends Error {
  constructor(
    readonly errorNumber: number,
    readonly description: string,
    readonly httpStatus = 500,
  ) {
    super(SLURM_STRERROR[errorNumber] ?? `Unknown error ${errorNumber}`);
  }
}

/** What slurmd reports when it registers a node. */
export interface NodeRegistration {
  /** Generic resources, e.g. "gpu:h100:8". @default "" */
  readonly gres?: string;
  /** Available features (slurm.conf Features=). @default [] */
  readonly features?: readonly string[];
  /** Partitions the node is in. @default ["gpu"] */
  readonly partitions?: readonly string[];
  /** Initial state: a new node is IDLE; "DOWN" models a node configured but not yet admitted. @default "IDLE" */
  readonly state?: "IDLE" | "DOWN";
  /** Reason shown with a DOWN initial state. */
  readonly reason?: string;
  readonly cpus?: number;
  readonly realMemoryMiB?: number;
  /**
   * A dynamic node (`slurmd -Z`: it is in no NodeName= line of slurm.conf and slurmctld created it when slurmd
   * registered). Only dynamic nodes can be deleted. @default false (a node slurm.conf lists)
   */
  readonly dynamic?: boolean;
}

/** The lab's record of one node. */
export interface LabSlurmNode {
  readonly name: string;
  gres: string;
  features: string[];
  activeFeatures: string[];
  partitions: string[];
  down: boolean;
  drain: boolean;
  reason: string;
  reasonSetByUser: string;
  reasonChangedAt: number;
  comment: string;
  readonly jobs: Set<number>;
  readonly cpus: number;
  readonly realMemoryMiB: number;
  /** When slurmd last started (its last registration is at a boot in the lab): boot_time, slurmd_start_time. */
  bootTime: number;
  /** Created by a `slurmd -Z` registration rather than listed in slurm.conf. */
  readonly dynamic: boolean;
  /** slurmd's last registration did not match slurm.conf (fewer GRES): flag INVALID_REG, drained by slurmctld. */
  invalidReg?: boolean;
  /**
   * slurmd stopped answering pings (flag NOT_RESPONDING, beside DOWN once SlurmdTimeout passed), until it registers
   * again; a RESUME does not clear it (seen on Debian's real 22.05 slurmctld, test/contract/slurm).
   */
  notResponding?: boolean;
}

/** The body of POST /slurm/v0.0.41/node/{name} (v0.0.41_update_node_msg), the fields the lab honours. */
export interface UpdateNodeMsg {
  readonly state?: readonly string[];
  readonly reason?: string;
  readonly features?: readonly string[] | string;
  readonly features_act?: readonly string[] | string;
  readonly comment?: string;
}

const KNOWN_UPDATE_FIELDS = new Set([
  "comment",
  "cpu_bind",
  "extra",
  "features",
  "features_act",
  "gres",
  "address",
  "hostname",
  "name",
  "state",
  "reason",
  "reason_uid",
  "resume_after",
  "weight",
]);

/**
 * One line of slurmctld's log of node transitions (what `slurmctld.log` records as "update_node: node X state set
 * to DRAINED", "node X not responding, setting DOWN", a comment set): every change of a node's state or comment, in
 * the order slurmctld applied them, so a reader can replay who was out of service at every instant — a poller could
 * miss an outage shorter than its period.
 */
export interface SlurmTransition {
  /** Position in the log (0, 1, …). */
  readonly seq: number;
  /** Wall-clock time (ms since the epoch) it was applied. */
  readonly at: number;
  readonly node: string;
  readonly partitions: readonly string[];
  /** The v0.0.41 state array after it, e.g. ["IDLE","DRAIN"]; [] once the node is deleted. */
  readonly state: readonly string[];
  /** Out of service after it: DOWN or DRAIN-flagged, or deleted. */
  readonly out: boolean;
  readonly reason: string;
  readonly comment: string;
  /** What made it: slurmd registering, slurmd lost, an update through slurmrestd (by `user`), a delete. */
  readonly cause: "register" | "lost" | "update" | "remove";
  /** The slurmrestd user of an update. */
  readonly user?: string;
}

/** The node table with slurmctld's update rules. */
export class SlurmNodeTable {
  readonly nodes = new Map<string, LabSlurmNode>();
  /** Every transition of a node's state or comment, oldest first. */
  readonly transitions: SlurmTransition[] = [];
  /** Each node's latest line of `transitions`. */
  private readonly lastOf = new Map<string, SlurmTransition>();
  lastUpdate: number;
  private nextJob = 1000;

  constructor(private readonly clock: SchedulerClock) {
    this.lastUpdate = Math.floor(clock.now() / 1000);
  }

  /**
   * slurmd registration: creates the node, or refreshes gres/features of a known one (as on a slurmd restart) and its
   * start time; a registration judged valid clears INVALID_REG (validate_node_specs), the state stays.
   */
  register(name: string, reg: NodeRegistration): LabSlurmNode {
    const known = this.nodes.get(name);
    const features = [...(reg.features ?? known?.features ?? [])];
    const node: LabSlurmNode = known ?? {
      name,
      gres: "",
      features: [],
      activeFeatures: [],
      partitions: [],
      down: reg.state === "DOWN",
      drain: false,
      reason: reg.state === "DOWN" ? (reg.reason ?? "Not responding") : "",
      reasonSetByUser: reg.state === "DOWN" ? "slurm" : "",
      reasonChangedAt: reg.state === "DOWN" ? this.nowSec() : 0,
      comment: "",
      jobs: new Set(),
      cpus: reg.cpus ?? 112,
      realMemoryMiB: reg.realMemoryMiB ?? 2_000_000,
      bootTime: this.nowSec(),
      dynamic: reg.dynamic ?? false,
    };
    node.gres = reg.gres ?? node.gres;
    node.bootTime = this.nowSec();
    node.invalidReg = false;
    node.notResponding = false;
    node.features = features;
    node.activeFeatures = [...features];
    node.partitions = [...(reg.partitions ?? (known ? known.partitions : ["gpu"]))];
    this.nodes.set(name, node);
    this.touch();
    this.record(node, "register");
    return node;
  }

  /**
   * slurmctld's reaction to a slurmd that stopped answering: DOWN (jobs killed). As set_node_down_ptr() does, the
   * reason becomes `reason` (set by slurm) only when the node has none or a "Not responding" one: an operator's reason
   * stays. No-op if unknown.
   */
  lost(name: string, reason = "Not responding"): void {
    const n = this.nodes.get(name);
    if (!n) return;
    n.down = true;
    n.notResponding = true;
    n.jobs.clear();
    if (!n.reason || n.reason.startsWith("Not responding")) {
      n.reason = reason;
      n.reasonSetByUser = "slurm";
      n.reasonChangedAt = this.nowSec();
    }
    this.touch();
    this.record(n, "lost");
  }

  /**
   * A registration slurmctld refuses as invalid (gres_node_config_validate(): fewer GRES than configured): the node is
   * DRAIN-flagged with INVALID_REG and `reason`, set by slurm — unless a person's reason is there already, which stays.
   * The flag goes at the next valid registration; the drain stays until someone resumes the node. No-op if unknown.
   */
  invalidRegistration(name: string, reason: string): void {
    const n = this.nodes.get(name);
    if (!n) return;
    n.drain = true;
    n.invalidReg = true;
    if (!n.reason || n.reasonSetByUser === "slurm") {
      n.reason = reason;
      n.reasonSetByUser = "slurm";
      n.reasonChangedAt = this.nowSec();
    }
    this.touch();
    this.record(n, "register");
  }

  /**
   * `scontrol delete nodename=` as slurmctld's delete_nodes() does it: only a dynamic node can go ("Can't delete
   * non-dynamic node": a slurm.conf node stays until slurm.conf no longer lists it and slurmctld restarts), and not
   * while a job runs on it.
   */
  remove(name: string): void {
    const desc = `Failure to delete node ${name}`;
    const n = this.get(name, desc);
    if (!n.dynamic) {
      throw new SlurmCtldError(
        SLURM_ERRNO.ESLURM_INVALID_NODE_STATE,
        `${desc}: Can't delete non-dynamic node '${name}'.`,
      );
    }
    if (n.jobs.size > 0) {
      throw new SlurmCtldError(
        SLURM_ERRNO.ESLURM_NODES_BUSY,
        `${desc}: Node '${name}' can't be delete because it's still in use.`,
      );
    }
    this.nodes.delete(name);
    this.touch();
    this.record(n, "remove", "", true);
  }

  /** The node, or slurmctld's "Invalid node name specified". */
  get(name: string, description = `Failure to query node ${name}`): LabSlurmNode {
    const n = this.nodes.get(name);
    if (!n) throw new SlurmCtldError(SLURM_ERRNO.ESLURM_INVALID_NODE_NAME, description);
    return n;
  }

  /** Starts a simulated job on the node; returns its job id. */
  startJob(name: string): number {
    const n = this.get(name);
    if (n.down || n.drain) throw new Error(`lab: node ${name} is ${n.down ? "DOWN" : "DRAIN"} and takes no new job`);
    const id = this.nextJob++;
    n.jobs.add(id);
    this.touch();
    return id;
  }

  /** Ends a simulated job wherever it runs. */
  endJob(id: number): void {
    for (const n of this.nodes.values()) if (n.jobs.delete(id)) this.touch();
  }

  /** Applies an update_node_msg as slurmctld's update_node() would; `user` is the authenticated user. */
  update(name: string, msg: UpdateNodeMsg, user: string): void {
    const desc = `Failure to update node ${name}`;
    const n = this.get(name, desc);
    for (const k of Object.keys(msg)) {
      if (!KNOWN_UPDATE_FIELDS.has(k))
        throw new SlurmCtldError(SLURM_ERRNO.ESLURM_REST_FAIL_PARSING, `Unknown field "${k}"`, 400);
    }
    const states = (msg.state ?? []).map((s) => String(s).toUpperCase());
    if (states.length > 1) throw new SlurmCtldError(SLURM_ERRNO.ESLURM_INVALID_NODE_STATE, desc);
    const state = states[0];
    if ((state === "DRAIN" || state === "DOWN") && !msg.reason?.trim()) {
      throw new SlurmCtldError(
        SLURM_ERRNO.ESLURM_INVALID_NODE_STATE,
        `${desc}: a reason is required to ${state} a node`,
      );
    }
    if (state !== undefined) this.applyState(n, state, desc);
    if (msg.features !== undefined) {
      n.features = csv(msg.features);
      if (msg.features_act === undefined) n.activeFeatures = [...n.features];
    }
    if (msg.features_act !== undefined) n.activeFeatures = csv(msg.features_act);
    if (msg.comment !== undefined) n.comment = msg.comment;
    if (msg.reason !== undefined && (n.drain || n.down)) {
      n.reason = msg.reason;
      n.reasonSetByUser = user;
      n.reasonChangedAt = this.nowSec();
    }
    this.touch();
    this.record(n, "update", user);
  }

  /** Logs the node's state and comment when either changed since its last line (or it was deleted). */
  private record(n: LabSlurmNode, cause: SlurmTransition["cause"], user = "", removed = false): void {
    const state = removed ? [] : nodeStates(n);
    const comment = removed ? "" : n.comment;
    const last = this.lastOf.get(n.name);
    if (!removed && last && last.state.join("+") === state.join("+") && last.comment === comment) return;
    const t: SlurmTransition = {
      seq: this.transitions.length,
      at: Date.now(),
      node: n.name,
      partitions: [...n.partitions],
      state,
      out: removed || n.down || n.drain,
      reason: removed ? "" : n.reason,
      comment,
      cause,
      ...(user ? { user } : {}),
    };
    this.transitions.push(t);
    this.lastOf.set(n.name, t);
  }

  private applyState(n: LabSlurmNode, state: string, desc: string): void {
    switch (state) {
      case "RESUME":
        // slurmctld refuses RESUME of a node that is neither DOWN nor DRAIN-flagged.
        if (!n.down && !n.drain) throw new SlurmCtldError(SLURM_ERRNO.ESLURM_INVALID_NODE_STATE, desc);
        n.down = false;
        n.drain = false;
        this.clearReason(n);
        return;
      case "UNDRAIN":
        n.drain = false;
        if (!n.down) this.clearReason(n);
        return;
      case "DRAIN":
        n.drain = true;
        return;
      case "DOWN":
        // Jobs on a node set DOWN are killed.
        n.down = true;
        n.jobs.clear();
        return;
      case "IDLE":
        if (!n.down) throw new SlurmCtldError(SLURM_ERRNO.ESLURM_INVALID_NODE_STATE, desc);
        n.down = false;
        this.clearReason(n);
        return;
      default:
        throw new SlurmCtldError(SLURM_ERRNO.ESLURM_INVALID_NODE_STATE, `${desc}: state ${state} cannot be set`);
    }
  }

  private clearReason(n: LabSlurmNode): void {
    n.reason = "";
    n.reasonSetByUser = "";
    n.reasonChangedAt = 0;
  }

  private nowSec(): number {
    return Math.floor(this.clock.now() / 1000);
  }

  private touch(): void {
    this.lastUpdate = this.nowSec();
  }
}

/** The v0.0.41 `state` array: base state then flags. */
export function nodeStates(n: LabSlurmNode): string[] {
  const base = n.down ? "DOWN" : n.jobs.size > 0 ? "ALLOCATED" : "IDLE";
  // A node slurmd -Z created carries the DYNAMIC_NORM flag (scontrol shows State=IDLE+DYNAMIC_NORM).
  return [
    base,
    ...(n.drain ? ["DRAIN"] : []),
    ...(n.dynamic ? ["DYNAMIC_NORM"] : []),
    ...(n.invalidReg ? ["INVALID_REG"] : []),
    ...(n.notResponding ? ["NOT_RESPONDING"] : []),
  ];
}

function csv(v: readonly string[] | string): string[] {
  const list = typeof v === "string" ? v.split(",") : [...v];
  return list.map((s) => String(s).trim()).filter((s) => s.length > 0);
}
