/** core/v1 Node and Pod objects of the lab Kubernetes API, the Status error body and node validation. */
import { randomUUID } from "node:crypto";

/** A Kubernetes object as stored (JSON). */
export type K8sObject = Record<string, unknown> & {
  metadata: Record<string, unknown> & { name: string; resourceVersion: string };
};

/** What the kubelet reports when it registers a node. */
export interface KubeletRegistration {
  readonly labels?: Readonly<Record<string, string>>;
  /** Extended resources, e.g. { "nvidia.com/gpu": "8" }. */
  readonly capacity?: Readonly<Record<string, string>>;
  /** Node registers with spec.unschedulable (kubelet --register-schedulable=false). @default false */
  readonly unschedulable?: boolean;
}

/** A pod the lab places on a node. */
export interface LabPodSpec {
  readonly namespace: string;
  readonly name: string;
  readonly node: string;
  /** Owner controller kind: DaemonSet pods are not evicted by a drain. @default "ReplicaSet" */
  readonly ownerKind?: "ReplicaSet" | "DaemonSet" | "StatefulSet" | "Job" | "None";
  /** A static (mirror) pod, created by the kubelet from a manifest. @default false */
  readonly mirror?: boolean;
  /** status.phase; a pod that is not Running is evicted whatever its PodDisruptionBudget says. @default "Running" */
  readonly phase?: "Pending" | "Running" | "Succeeded" | "Failed";
}

/** A kind: Status error body (metav1.Status). */
export class K8sStatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The JSON body the API server sends. */
  body(): Record<string, unknown> {
    return {
      kind: "Status",
      apiVersion: "v1",
      metadata: {},
      status: "Failure",
      message: this.message,
      reason: this.reason,
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }
}

/** 404 in the API server's words: `nodes "x" not found`. */
export function notFound(kind: "nodes" | "pods" | "leases.coordination.k8s.io", name: string): K8sStatusError {
  return new K8sStatusError(404, "NotFound", `${kind} "${name}" not found`, { name, kind });
}

/** A new Node object as the kubelet would create it. */
export function newNode(name: string, reg: KubeletRegistration, rv: string, nowIso: string): K8sObject {
  const capacity = { cpu: "112", memory: "2113464272Ki", pods: "110", ...reg.capacity };
  return {
    kind: "Node",
    apiVersion: "v1",
    metadata: {
      name,
      uid: randomUUID(),
      resourceVersion: rv,
      creationTimestamp: nowIso,
      labels: {
        "kubernetes.io/arch": "amd64",
        "kubernetes.io/hostname": name,
        "kubernetes.io/os": "linux",
        "beta.kubernetes.io/arch": "amd64",
        "beta.kubernetes.io/os": "linux",
        ...reg.labels,
      },
      annotations: {
        "node.alpha.kubernetes.io/ttl": "0",
        "volumes.kubernetes.io/controller-managed-attach-detach": "true",
      },
    },
    spec: {
      podCIDR: "10.244.1.0/24",
      podCIDRs: ["10.244.1.0/24"],
      ...(reg.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      capacity,
      allocatable: { ...capacity },
      conditions: [
        {
          type: "Ready",
          status: "True",
          lastHeartbeatTime: nowIso,
          lastTransitionTime: nowIso,
          reason: "KubeletReady",
          message: "kubelet is posting ready status",
        },
      ],
      addresses: [
        { type: "InternalIP", address: "10.0.0.10" },
        { type: "Hostname", address: name },
      ],
      nodeInfo: {
        architecture: "amd64",
        containerRuntimeVersion: "containerd://1.7.22",
        kernelVersion: "6.8.0-45-generic",
        kubeProxyVersion: "v1.31.2",
        kubeletVersion: "v1.31.2",
        operatingSystem: "linux",
        osImage: "Ubuntu 24.04.1 LTS",
      },
    },
  };
}

/** A new Pod bound to a node (Running unless `phase` says otherwise). */
export function newPod(p: LabPodSpec, rv: string, nowIso: string): K8sObject {
  const owner = p.mirror ? "Node" : (p.ownerKind ?? "ReplicaSet");
  const ownerReferences =
    owner === "None"
      ? undefined
      : [
          {
            apiVersion: owner === "Node" ? "v1" : owner === "Job" ? "batch/v1" : "apps/v1",
            kind: owner,
            name: owner === "Node" ? p.node : `${p.name.replace(/-[^-]+$/, "")}`,
            uid: randomUUID(),
            controller: true,
            blockOwnerDeletion: owner !== "Node",
          },
        ];
  return {
    kind: "Pod",
    apiVersion: "v1",
    metadata: {
      name: p.name,
      namespace: p.namespace,
      uid: randomUUID(),
      resourceVersion: rv,
      creationTimestamp: nowIso,
      ...(p.mirror
        ? { annotations: { "kubernetes.io/config.mirror": randomUUID(), "kubernetes.io/config.source": "file" } }
        : {}),
      ...(ownerReferences ? { ownerReferences } : {}),
    },
    spec: { nodeName: p.node, containers: [{ name: "main", image: "registry.k8s.io/pause:3.10" }] },
    status: { phase: p.phase ?? "Running", hostIP: "10.0.0.10", podIP: "10.244.1.7" },
  };
}

const TAINT_EFFECTS = new Set(["NoSchedule", "PreferNoSchedule", "NoExecute"]);
const LABEL_KEY =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** Field errors of a node after a patch, in the API server's `field: Invalid value` style; empty when valid. */
export function validateNode(n: K8sObject): string[] {
  const errs: string[] = [];
  const labels = (n.metadata.labels ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(labels)) {
    if (!LABEL_KEY.test(k))
      errs.push(`metadata.labels: Invalid value: "${k}": name part must consist of alphanumeric characters`);
    if (typeof v !== "string" || v.length > 63 || !LABEL_VALUE.test(v)) {
      errs.push(
        `metadata.labels: Invalid value: ${JSON.stringify(v)}: a valid label must be an empty string or consist of alphanumeric characters`,
      );
    }
  }
  const spec = (n.spec ?? {}) as Record<string, unknown>;
  if (spec.unschedulable !== undefined && typeof spec.unschedulable !== "boolean") {
    errs.push(`spec.unschedulable: Invalid value: ${JSON.stringify(spec.unschedulable)}: must be a boolean`);
  }
  const taints = spec.taints ?? [];
  if (!Array.isArray(taints)) errs.push("spec.taints: Invalid value: must be a list");
  else
    taints.forEach((t, i) => {
      const taint = (t ?? {}) as Record<string, unknown>;
      if (typeof taint.key !== "string" || !LABEL_KEY.test(taint.key)) {
        errs.push(`spec.taints[${i}].key: Invalid value: ${JSON.stringify(taint.key)}`);
      }
      if (!TAINT_EFFECTS.has(String(taint.effect))) {
        errs.push(
          `spec.taints[${i}].effect: Unsupported value: ${JSON.stringify(taint.effect)}: supported values: "NoExecute", "NoSchedule", "PreferNoSchedule"`,
        );
      }
    });
  return errs;
}
