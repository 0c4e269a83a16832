/** The lab Kubernetes API's stored objects, and the route shape its route families share. */
import type { IncomingMessage } from "node:http";
import type { SchedulerClock } from "./http-io.js";
import { type K8sObject, notFound } from "./k8s-objects.js";

const UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";

/** The taint the API server's admission puts on every new Node, lifted once it is Ready. */
const NOT_READY_TAINT = "node.kubernetes.io/not-ready";

/** The taint the node lifecycle controller puts on a node whose kubelet stopped posting status. */
const UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";

/** Nodes, pods and eviction blocks, with one resourceVersion counter for every write. */

export class K8sCluster {
  readonly nodes = new Map<string, K8sObject>();
  readonly pods = new Map<string, K8sObject>();
  /** Evictions a PodDisruptionBudget still refuses, by "namespace/name". */
  readonly blocked = new Map<string, number>();
  private rv = 1000;

  constructor(private readonly clock: SchedulerClock) {}

  /** The resourceVersion of the newest write (what a list answers). */
  get resourceVersion(): string {
    return String(this.rv);
  }

  /** The resourceVersion of a new write. */
  nextRv(): string {
    return String(++this.rv);
  }

  /** The clock's time as Kubernetes writes timestamps (whole seconds, Z). */
  iso(): string {
    return new Date(this.clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  /** The node, or Kubernetes's 404. */
  getNode(name: string): K8sObject {
    const n = this.nodes.get(name);
    if (!n) throw notFound("nodes", name);
    return n;
  }

  /**
   * Deletes the Node object; its pods go with it, as the pod garbage collector deletes pods bound to a node that no
   * longer exists. Returns the node as it was.
   */
  deleteNode(name: string): K8sObject {
    const n = this.getNode(name);
    this.nodes.delete(name);
    for (const [k, p] of this.pods)
      if ((p.spec as { nodeName?: string } | undefined)?.nodeName === name) this.pods.delete(k);
    this.nextRv();
    return n;
  }

  /**
   * The node lifecycle controller's view of the kubelet: `false` (no status posted within --node-monitor-grace-period)
   * sets the Ready condition Unknown (NodeStatusUnknown) and adds the node.kubernetes.io/unreachable taints; `true`
   * (the kubelet posts again) sets Ready True and removes them.
   */
  setKubeletPosting(name: string, posting: boolean): void {
    const n = this.nodes.get(name);
    if (!n) return;
    const status = (n.status ?? {}) as { conditions?: Record<string, unknown>[] };
    const now = this.iso();
    const ready = posting
      ? { status: "True", reason: "KubeletReady", message: "kubelet is posting ready status" }
      : { status: "Unknown", reason: "NodeStatusUnknown", message: "Kubelet stopped posting node status." };
    const others = (status.conditions ?? []).filter((c) => c.type !== "Ready");
    const old = (status.conditions ?? []).find((c) => c.type === "Ready");
    const changed = old?.status !== ready.status;
    status.conditions = [
      ...others,
      { type: "Ready", ...ready, lastHeartbeatTime: now, lastTransitionTime: changed ? now : old?.lastTransitionTime },
    ];
    n.status = status;
    const spec = (n.spec ?? {}) as Record<string, unknown>;
    const taints = ((spec.taints as Record<string, unknown>[] | undefined) ?? []).filter(
      (t) => t.key !== UNREACHABLE_TAINT,
    );
    if (!posting) {
      taints.push({ key: UNREACHABLE_TAINT, effect: "NoSchedule", timeAdded: now });
      taints.push({ key: UNREACHABLE_TAINT, effect: "NoExecute", timeAdded: now });
    }
    if (taints.length) spec.taints = taints;
    else delete spec.taints;
    n.spec = spec;
    n.metadata.resourceVersion = this.nextRv();
  }

  /**
   * The kubelet's periodic node status update (tryUpdateNodeStatus): it GETs its Node and patches the status. A Node an
   * admin created by hand has no status yet: this fills in capacity, addresses, nodeInfo and Ready True. A Node that
   * carries status already is left alone (the lab's kubelet has nothing new to say), and a missing one stays missing:
   * a running kubelet does not register again (kubernetes/kubernetes#71398). Returns whether it wrote.
   */
  kubeletStatusUpdate(name: string, status: () => Record<string, unknown>): boolean {
    const n = this.nodes.get(name);
    const has = (n?.status as { conditions?: unknown[] } | undefined)?.conditions?.length;
    if (!n || has) return false;
    n.status = status();
    // Ready now: the node lifecycle controller lifts the not-ready taint the API server's admission put on at create.
    const spec = (n.spec ?? {}) as { taints?: Record<string, unknown>[] };
    spec.taints = spec.taints?.filter((t) => t.key !== NOT_READY_TAINT);
    if (!spec.taints?.length) delete spec.taints;
    n.spec = spec;
    n.metadata.resourceVersion = this.nextRv();
    return true;
  }

  /**
   * TaintNodesByCondition, an admission plugin of kube-apiserver: every Node created gets node.kubernetes.io/not-ready
   * NoSchedule unless it carries it already (a kubelet-registered Node loses it once Ready, which the lab's
   * registration already is; a Node created by hand keeps it until its kubelet posts status).
   */
  addNotReadyTaint(n: K8sObject): void {
    const spec = (n.spec ?? {}) as { taints?: Record<string, unknown>[] };
    const taints = spec.taints ?? [];
    if (!taints.some((t) => t.key === NOT_READY_TAINT && t.effect === "NoSchedule"))
      taints.push({ key: NOT_READY_TAINT, effect: "NoSchedule" });
    spec.taints = taints;
    n.spec = spec;
  }

  /**
   * A device plugin's ListAndWatch update: the kubelet sets the Node's allocatable `resource` to the healthy devices
   * (capacity keeps the devices registered). Returns whether it wrote; no-op for a missing Node or one without status.
   */
  setAllocatable(name: string, resource: string, healthy: number): boolean {
    const status = this.nodes.get(name)?.status as { allocatable?: Record<string, string> } | undefined;
    const n = this.nodes.get(name);
    if (!n || !status?.allocatable || status.allocatable[resource] === String(healthy)) return false;
    status.allocatable = { ...status.allocatable, [resource]: String(healthy) };
    n.metadata.resourceVersion = this.nextRv();
    return true;
  }

  /** Keeps the unschedulable taint in step with spec.unschedulable, as the node lifecycle controller does. */
  syncUnschedulableTaint(n: K8sObject): void {
    const spec = (n.spec ?? {}) as Record<string, unknown>;
    const taints = ((spec.taints as Record<string, unknown>[] | undefined) ?? []).filter(
      (t) => t.key !== UNSCHEDULABLE_TAINT,
    );
    if (spec.unschedulable === true)
      taints.push({ key: UNSCHEDULABLE_TAINT, effect: "NoSchedule", timeAdded: this.iso() });
    if (taints.length) spec.taints = taints;
    else delete spec.taints;
    n.spec = spec;
  }
}

/** What a route's handler gets: the request, its URL, and the bearer-token check for its verb. */
export interface K8sRequest {
  readonly req: IncomingMessage;
  readonly url: URL;
  auth(write: boolean, verb: string, resource: string): void;
}

/** One route: method, path pattern (trailing slashes stripped), and a handler answering [status, body]. */
export interface K8sRoute {
  readonly method: string;
  readonly pattern: RegExp;
  run(r: K8sRequest, match: RegExpExecArray): Promise<[status: number, body: unknown]>;
}
