/**
 * What rackform_cluster_member does in each scheduler, behind one small seam: look the node up, join it, drain it.
 * The handlers (cluster-member-ops.ts) turn these into state and diagnostics; here only client calls and what they
 * observed.
 */
import { isConflict, isNotFound, unlessNotFound } from "../../clients/classify.js";
import { isClientError } from "../../clients/errors.js";
import type { KubernetesClient, KubernetesNode, Taint } from "../../clients/kubernetes/index.js";
import { type SlurmClient, SlurmError, type SlurmNode } from "../../clients/slurm/index.js";
import {
  type BudgetNode,
  RESERVATION_LABEL,
  RESERVATION_NAMESPACE,
  reservationIn,
  reservationLease,
  type SharedBudget,
  withReservation,
} from "../budget/budget-shared.js";
import { DRAIN_REASON, REMOVED_REASON, type SchedulerKind } from "./cluster-member-schema.js";

/** The node as the scheduler reports it, in the resource's terms. */
export interface Observed {
  /** Slurm: slurmd answers (a node slurm.conf lists may be known before it ever boots). Kubernetes: always. */
  readonly registered: boolean;
  readonly state: string;
  /** Slurm: why it is DOWN or drained, as sinfo -R shows it. */
  readonly reason?: string;
  /**
   * Slurm: slurmctld refused slurmd's last registration (flag INVALID_REG: it reported less than slurm.conf
   * configures). Only a later registration, when slurmd starts again, clears it.
   */
  readonly invalidRegistration?: boolean;
  /** Slurm: when slurmd last started (ms since the epoch), where slurmrestd reports it. */
  readonly startedAt?: number;
  /**
   * Slurm: a person's drain — the DRAIN flag with a reason neither rackform (its reasons start "rackform") nor
   * slurmctld itself (reason set by "slurm") wrote — as "<reason> (by <user>)". rackform leaves such a node out.
   */
  readonly heldBy?: string;
  readonly joined: boolean;
  /** Slurm: available features. */
  readonly features?: readonly string[];
  /** Slurm: partitions. */
  readonly partitions?: readonly string[];
  /** Kubernetes: every label of the node. */
  readonly labels?: Readonly<Record<string, string>>;
  /** Kubernetes: every taint of the node. */
  readonly taints?: readonly Taint[];
}

/** What the user asked for (from the plan), and what rackform managed before (from the prior state) to remove. */
export interface JoinSpec {
  readonly features: readonly string[] | null;
  readonly labels: Readonly<Record<string, string>> | null;
  readonly taints: readonly Taint[] | null;
  readonly priorLabelKeys: readonly string[];
  readonly priorTaintKeys: readonly string[];
}

/** A drain that ran out of time; `running` names what is still there (Slurm state, or pending pods). */
export class DrainTimeoutError extends Error {
  override readonly name = "DrainTimeoutError";
  constructor(
    readonly node: string,
    readonly running: string,
    override readonly cause: unknown,
  ) {
    super(`node ${node} did not drain in time: ${running}`);
  }
}

/**
 * What became of a drained node removed from the rack for good: deleted from the scheduler, already gone, or kept
 * (the scheduler refuses; `why` says what stays behind, for a warning).
 */
export type Removal =
  | { readonly outcome: "deleted" | "gone" }
  | { readonly outcome: "kept"; readonly why: string; readonly fix: string };

/**
 * A node the scheduler forgot (deleted outside rackform) that rackform cannot bring back itself: `fix` says what
 * brings it back (Slurm: restarting slurmd, as nothing else makes a running slurmd register again).
 */
export class NodeGoneError extends Error {
  override readonly name = "NodeGoneError";
  constructor(
    readonly node: string,
    override readonly message: string,
    readonly fix: string,
  ) {
    super(message);
  }
}

/** One scheduler, as the resource uses it. */
export interface SchedulerOps {
  readonly kind: SchedulerKind;
  /** The node, or undefined when the scheduler does not know it. `fresh` skips the shared read window. */
  lookup(node: string, fresh: boolean): Promise<Observed | undefined>;
  /** What the scheduler knows instead of `node`, for the never-registered diagnostic. */
  whatIsThere(node: string): Promise<string>;
  /**
   * Brings back the object of a node deleted from the scheduler by hand while its daemon runs, so that the daemon's
   * next status update fills it in (Kubernetes: create the Node). Throws NodeGoneError where the scheduler offers no
   * way (Slurm: only a restarted slurmd registers again).
   */
  recreate(node: string, spec: JoinSpec): Promise<void>;
  /** Admits the node (idempotent) and reports it afterwards. */
  join(node: string, spec: JoinSpec): Promise<Observed>;
  /** The budget `key` as the scheduler holds it for every run: its nodes and their reservations (budget-shared.ts). */
  shared(key: string): SharedBudget;
  /** Drains without killing anything; throws DrainTimeoutError after `timeoutMs`. Resolves at once when the node is gone. */
  drain(node: string, timeoutMs: number, pollMs: number, signal: AbortSignal): Promise<void>;
  /** Deletes a drained node that leaves the rack for good, where the scheduler allows it. */
  remove(node: string): Promise<Removal>;
}

const ESLURM_INVALID_NODE_STATE = 2028;

function names(all: readonly { name: string }[]): string {
  if (all.length === 0) return "no node at all";
  const shown = all.slice(0, 8).map((n) => n.name);
  return `${all.length} node${all.length > 1 ? "s" : ""} (${shown.join(", ")}${all.length > 8 ? ", …" : ""})`;
}

/** The budget key of Slurm nodes in `partitions` (as budgetKey computes it from a member's state). */
export const slurmKey = (partitions: readonly string[]): string => `slurm:${[...partitions].sort().join(",")}`;

/** A Slurm node has registered once slurmctld knows it and its slurmd answers. */
function slurmRegistered(n: SlurmNode): boolean {
  return !n.state.includes("NOT_RESPONDING") && n.baseState !== "FUTURE" && n.baseState !== "UNKNOWN";
}

/** Whether a Slurm node's reason is rackform's own (its drains and removals write reasons starting "rackform"). */
const rackformReason = (reason: string): boolean => /^rackform\b/i.test(reason);

/** Whether slurmctld itself set the node's reason (user "slurm", or no user reported), not a person nor rackform. */
export const reasonBySlurmctld = (n: SlurmNode): boolean =>
  (n.reasonSetByUser === "" || n.reasonSetByUser === "slurm") && !rackformReason(n.reason);

/** A person's drain of a Slurm node (see Observed.heldBy), or undefined. */
function personsDrain(n: SlurmNode): string | undefined {
  if (!n.drain || n.reason === "" || rackformReason(n.reason) || reasonBySlurmctld(n)) return undefined;
  return `${n.reason} (by ${n.reasonSetByUser})`;
}

function slurmObserved(n: SlurmNode): Observed {
  const heldBy = personsDrain(n);
  return {
    registered: slurmRegistered(n),
    state: n.state.join("+"),
    ...(heldBy ? { heldBy } : {}),
    reason: n.reason,
    ...(n.state.includes("INVALID_REG") ? { invalidRegistration: true } : {}),
    ...(n.slurmdStartedAt !== undefined ? { startedAt: n.slurmdStartedAt } : {}),
    joined: n.schedulable,
    features: [...n.features].sort(),
    partitions: [...n.partitions].sort(),
  };
}

/** Slurm through slurmrestd. */
export function slurmOps(client: SlurmClient): SchedulerOps {
  return {
    kind: "slurm",
    async lookup(node, fresh) {
      const n = await unlessNotFound(client.getNode(node, { fresh }));
      return n && slurmObserved(n);
    },
    async whatIsThere(node) {
      const all = await client.listNodes();
      const n = all.find((x) => x.name === node);
      if (n)
        return `slurmctld lists ${node} as ${n.state.join("+")} (reason: ${n.reason || "none"}): its slurmd has not registered`;
      return `slurmctld knows ${names(all)}, none named ${node}`;
    },
    shared(key) {
      const comment = async (node: string) => (await client.getNode(node, { fresh: true })).comment;
      return {
        async survey() {
          // A node rackform removed from the rack but slurm.conf still lists is no longer one of the partition's nodes.
          return (await client.listNodes())
            .filter((n) => slurmKey(n.partitions) === key && n.reason !== REMOVED_REASON)
            .map(
              (n): BudgetNode => ({
                name: n.name,
                out: !n.schedulable,
                why: `${n.state.join("+")}${n.reason ? ` (reason: ${n.reason})` : ""}`,
                reservation: reservationIn(n.comment),
              }),
            );
        },
        async reserve(node, r) {
          await client.setComment(node, withReservation(await comment(node), r));
        },
        async unreserve(node) {
          const now = await comment(node).catch((e: unknown) => (isNotFound(e) ? undefined : Promise.reject(e)));
          if (now !== undefined && reservationIn(now)) await client.setComment(node, withReservation(now, null));
        },
      };
    },
    async recreate(node) {
      // slurmctld lets only a dynamic node be deleted; slurmrestd cannot create one, and a running slurmd registers
      // only when it starts.
      throw new NodeGoneError(
        node,
        `slurmctld no longer knows node ${node}: it was deleted outside rackform (scontrol delete, or slurmrestd's DELETE /node), and a running slurmd does not register again`,
        `Restart slurmd on ${node} (systemctl restart slurmd, or reboot the host); it registers again as a dynamic node, then apply again to re-join it.`,
      );
    },
    async join(node, spec) {
      const n = await client.resume(node, spec.features ? { features: spec.features } : {});
      return slurmObserved(n);
    },
    async drain(node, timeoutMs, pollMs, signal) {
      try {
        await client.drain(node, DRAIN_REASON);
        await client.waitDrained(node, { timeoutMs, pollMs, signal });
      } catch (e) {
        if (isNotFound(e)) return;
        if (isClientError(e, "RACKFORM_ERR_SLURM_DRAIN_TIMEOUT")) {
          const state = (e as { details?: { state?: string[] } }).details?.state ?? [];
          throw new DrainTimeoutError(
            node,
            `it is still ${state.join("+") || "draining"}: jobs are running on it (list them with squeue -w ${node})`,
            e,
          );
        }
        throw e;
      }
    },
    async remove(node) {
      try {
        await client.deleteNode(node);
        return { outcome: "deleted" };
      } catch (e) {
        if (isNotFound(e)) return { outcome: "gone" };
        const refused =
          isClientError(e, "RACKFORM_ERR_SLURM_REJECTED") &&
          e instanceof SlurmError &&
          e.slurmErrors.some((x) => x.error_number === ESLURM_INVALID_NODE_STATE);
        if (!refused) throw e;
      }
      // slurmctld deletes only dynamic nodes: one slurm.conf lists stays, DOWN with a reason that says why.
      await client.down(node, REMOVED_REASON);
      return {
        outcome: "kept",
        why: `slurmctld cannot delete it: slurm.conf lists it (only dynamic nodes, started with slurmd -Z, can be deleted). It stays DOWN with reason "${REMOVED_REASON}", and counts as out of service in its partitions`,
        fix: `Remove ${node} from slurm.conf (its NodeName= line and its partitions' Nodes=) and restart slurmctld.`,
      };
    },
  };
}

function kubeObserved(n: KubernetesNode): Observed {
  return {
    // The kubelet has posted status (capacity): a Node created by hand has none until the kubelet's next update.
    registered: Object.keys(n.capacity).length > 0,
    state: `${n.ready ? "Ready" : "NotReady"}${n.unschedulable ? ",SchedulingDisabled" : ""}`,
    joined: !n.unschedulable,
    labels: n.labels,
    taints: n.taints,
  };
}

/** The budget `key` as the API server holds it: its nodes, and reservations as Leases in kube-system. */
function kubernetesShared(client: KubernetesClient, key: string): SharedBudget {
  const labels = { [RESERVATION_LABEL]: key };
  return {
    async survey() {
      if (key !== "kubernetes") return [];
      const [nodes, leases] = await Promise.all([client.listNodes(), client.listLeases(RESERVATION_NAMESPACE, labels)]);
      const held = new Map(
        leases
          .filter((l) => l.name.startsWith(reservationLease("")) && Number.isFinite(l.renewTime))
          .map((l) => [
            l.name.slice(reservationLease("").length),
            { owner: l.holder, until: l.renewTime + l.durationSeconds * 1000 },
          ]),
      );
      const listed = nodes.map(
        (n): BudgetNode => ({
          name: n.name,
          out: n.unschedulable || !n.ready,
          why: `${n.ready ? "Ready" : "NotReady"}${n.unschedulable ? ",SchedulingDisabled" : ""}`,
          reservation: held.get(n.name),
        }),
      );
      // A reserved node whose Node object is gone (deleted while its machine is reimaged) is out, and reserved.
      const gone = [...held]
        .filter(([name, r]) => r.until > Date.now() && !nodes.some((n) => n.name === name))
        .map(([name, reservation]): BudgetNode => ({ name, out: true, why: "no Node object", reservation }));
      return [...listed, ...gone];
    },
    async reserve(node, r) {
      const durationSeconds = Math.max(1, Math.ceil((r.until - Date.now()) / 1000));
      await client.putLease(RESERVATION_NAMESPACE, reservationLease(node), {
        holder: r.owner,
        durationSeconds,
        labels,
      });
    },
    async unreserve(node) {
      await client.deleteLease(RESERVATION_NAMESPACE, reservationLease(node));
    },
  };
}

/** Kubernetes through the API server. */
export function kubernetesOps(client: KubernetesClient): SchedulerOps {
  return {
    kind: "kubernetes",
    async lookup(node, fresh) {
      const n = await unlessNotFound(client.getNode(node, { fresh }));
      return n && kubeObserved(n);
    },
    shared: (key) => kubernetesShared(client, key),
    async whatIsThere(node) {
      return `the API server knows ${names(await client.listNodes())}, none named ${node}: its kubelet has not registered`;
    },
    async recreate(node, spec) {
      try {
        await client.createNode(node, { labels: spec.labels ?? undefined, taints: spec.taints ?? undefined });
      } catch (e) {
        // A restarted kubelet registered it meanwhile.
        if (!isConflict(e)) throw e;
      }
    },
    async join(node, spec) {
      if (spec.labels || spec.priorLabelKeys.length) {
        const patch: Record<string, string | null> = {};
        for (const k of spec.priorLabelKeys) patch[k] = null;
        Object.assign(patch, spec.labels ?? {});
        await client.setLabels(node, patch);
      }
      if (spec.taints || spec.priorTaintKeys.length) {
        await client.setTaints(node, spec.taints ?? [], { removeKeys: spec.priorTaintKeys });
      }
      const n = await client.getNode(node, { fresh: true });
      return kubeObserved(n.unschedulable ? await client.uncordon(node) : n);
    },
    async drain(node, timeoutMs, pollMs, signal) {
      try {
        await client.drain(node, { timeoutMs, pollMs, signal });
      } catch (e) {
        if (isNotFound(e)) return;
        if (isClientError(e, "RACKFORM_ERR_KUBERNETES_DRAIN_TIMEOUT")) {
          const details = (e as { details?: { pending?: string[]; refused?: string } }).details;
          const pending = details?.pending ?? [];
          const why = details?.refused;
          throw new DrainTimeoutError(
            node,
            `evictions of ${pending.length} pod${pending.length === 1 ? "" : "s"} are still refused: ${why ?? pending.join(", ")} (a PodDisruptionBudget allows no disruption now)`,
            e,
          );
        }
        throw e;
      }
    },
    async remove(node) {
      try {
        await client.deleteNode(node);
        return { outcome: "deleted" };
      } catch (e) {
        if (isNotFound(e)) return { outcome: "gone" };
        if (!isClientError(e, "RACKFORM_ERR_KUBERNETES_FORBIDDEN")) throw e;
        return {
          outcome: "kept",
          why: "the token may not delete nodes (HTTP 403). It stays cordoned, and counts as out of service",
          fix: `Grant the token's identity the delete verb on nodes, or delete it yourself: kubectl delete node ${node}.`,
        };
      }
    },
  };
}
