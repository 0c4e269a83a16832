/** What rackform reads of Kubernetes nodes and pods. */

/** A node taint (core/v1 Taint). */
export interface Taint {
  readonly key: string;
  readonly value?: string;
  readonly effect: "NoSchedule" | "PreferNoSchedule" | "NoExecute";
}

/** A Kubernetes node as rackform sees it. */
export interface KubernetesNode {
  readonly name: string;
  readonly uid: string;
  readonly resourceVersion: string;
  /** spec.unschedulable (cordoned). */
  readonly unschedulable: boolean;
  readonly labels: Readonly<Record<string, string>>;
  readonly taints: readonly Taint[];
  /** The Ready condition is True. */
  readonly ready: boolean;
  /** The Ready condition's reason and its lastTransitionTime (ms since the epoch), where the node reports them. */
  readonly readyReason?: string;
  readonly readySince?: number;
  /** status.capacity, e.g. { "nvidia.com/gpu": "8" }. */
  readonly capacity: Readonly<Record<string, string>>;
}

/** A pod on a node, with what a drain needs to know. */
export interface KubernetesPod {
  readonly namespace: string;
  readonly name: string;
  /** metadata.uid: a pod recreated under the same name is another pod. */
  readonly uid?: string;
  readonly nodeName: string;
  readonly phase: string;
  /** Owned by a DaemonSet: its controller would recreate it on the node, so a drain leaves it. */
  readonly daemonSet: boolean;
  /** A static pod's mirror (kubernetes.io/config.mirror): only the kubelet can remove it. */
  readonly mirror: boolean;
}

/** Options of KubernetesClient.drain. */
export interface DrainOptions {
  /** Give up after this long. */
  readonly timeoutMs: number;
  /** Wait between eviction retries refused by a PodDisruptionBudget (429). @default 5_000 */
  readonly pollMs?: number;
  readonly signal?: AbortSignal;
}

/** What a drain did. */
export interface DrainResult {
  /** "namespace/name" of every pod evicted (or already gone). */
  readonly evicted: readonly string[];
  /** "namespace/name" of DaemonSet and mirror pods left on the node. */
  readonly skipped: readonly string[];
}

/** A coordination.k8s.io/v1 Lease, as rackform's disruption budget uses one. */
export interface KubernetesLease {
  readonly name: string;
  readonly resourceVersion: string;
  readonly labels: Readonly<Record<string, string>>;
  /** spec.holderIdentity. */
  readonly holder: string;
  /** spec.renewTime as epoch milliseconds (NaN when absent). */
  readonly renewTime: number;
  /** spec.leaseDurationSeconds. */
  readonly durationSeconds: number;
}
