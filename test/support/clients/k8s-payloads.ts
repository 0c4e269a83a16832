/**
 * Small Kubernetes API payload excerpts, written for rackform's tests (not copied files). Provenance of each shape:
 * - Node: core/v1 Node as `kubectl get node -o json` prints it for a cordoned GPU node (spec.unschedulable and the
 *   node.kubernetes.io/unschedulable taint the node lifecycle controller adds; NVIDIA device plugin capacity).
 * - Pods: a DaemonSet pod (ownerReferences kind DaemonSet, controller true) and a static pod's mirror
 *   (annotation kubernetes.io/config.mirror), the two kinds `kubectl drain --ignore-daemonsets` leaves alone.
 * - Status bodies: metav1.Status of the eviction subresource refused by a PodDisruptionBudget (429, reason
 *   TooManyRequests, cause DisruptionBudget — wording of kubernetes pkg/registry/core/pod/storage/eviction.go),
 *   and a 409 Conflict on a stale resourceVersion (wording of apiserver's optimistic concurrency error).
 */

/** A cordoned H100 node. */
export const NODE_CORDONED = {
  kind: "Node",
  apiVersion: "v1",
  metadata: {
    name: "gpu-a01",
    uid: "2b8f6d3e-8c1a-4a51-9d0e-5b7f1f3c9a10",
    resourceVersion: "918273",
    creationTimestamp: "2026-01-05T09:12:44Z",
    labels: {
      "kubernetes.io/hostname": "gpu-a01",
      "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
      "rackform.io/rack": "r12",
    },
  },
  spec: {
    podCIDR: "10.244.3.0/24",
    unschedulable: true,
    taints: [
      { key: "node.kubernetes.io/unschedulable", effect: "NoSchedule", timeAdded: "2026-01-06T10:00:00Z" },
      { key: "rackform.io/acceptance", value: "pending", effect: "NoSchedule" },
    ],
  },
  status: {
    capacity: { cpu: "112", memory: "2113464272Ki", "nvidia.com/gpu": "8", pods: "110" },
    conditions: [
      { type: "MemoryPressure", status: "False", reason: "KubeletHasSufficientMemory" },
      { type: "Ready", status: "True", reason: "KubeletReady", message: "kubelet is posting ready status" },
    ],
  },
} as const;

/** A DaemonSet pod and a mirror pod on the node. */
export const POD_DAEMONSET = {
  kind: "Pod",
  apiVersion: "v1",
  metadata: {
    name: "nvidia-device-plugin-daemonset-x7k2p",
    namespace: "gpu-operator",
    ownerReferences: [
      {
        apiVersion: "apps/v1",
        kind: "DaemonSet",
        name: "nvidia-device-plugin-daemonset",
        uid: "u1",
        controller: true,
        blockOwnerDeletion: true,
      },
    ],
  },
  spec: { nodeName: "gpu-a01" },
  status: { phase: "Running" },
} as const;

/** A static pod's mirror. */
export const POD_MIRROR = {
  kind: "Pod",
  apiVersion: "v1",
  metadata: {
    name: "kube-proxy-gpu-a01",
    namespace: "kube-system",
    annotations: {
      "kubernetes.io/config.mirror": "8f14e45fceea167a5a36dedd4bea2543",
      "kubernetes.io/config.source": "file",
    },
    ownerReferences: [{ apiVersion: "v1", kind: "Node", name: "gpu-a01", uid: "u2", controller: true }],
  },
  spec: { nodeName: "gpu-a01" },
  status: { phase: "Running" },
} as const;

/** An eviction refused by a PodDisruptionBudget. */
export const STATUS_EVICTION_429 = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message: "Cannot evict pod as it would violate the pod's disruption budget.",
  reason: "TooManyRequests",
  details: {
    causes: [
      {
        reason: "DisruptionBudget",
        message: "The disruption budget trainer-pdb needs 2 healthy pods and has 2 currently",
      },
    ],
  },
  code: 429,
} as const;

/** A patch with a stale resourceVersion. */
export const STATUS_CONFLICT_409 = {
  kind: "Status",
  apiVersion: "v1",
  metadata: {},
  status: "Failure",
  message:
    'Operation cannot be fulfilled on nodes "gpu-a01": the object has been modified; please apply your changes to the latest version and try again',
  reason: "Conflict",
  details: { name: "gpu-a01", kind: "nodes" },
  code: 409,
} as const;
