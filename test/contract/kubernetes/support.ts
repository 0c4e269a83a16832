/** What the real-kube-apiserver contract files share: the injected instance (a failure when absent), clients, objects. */
import { inject } from "vitest";
import { KubernetesClient, KubernetesError } from "../../../src/clients/kubernetes/index.js";
import { kubeMust, type RealKubeInfo, waitForKube } from "../../support/real-kube.js";

/** The run's real API server, once ready; throws (never skips) when the global setup did not start one. */
export async function realKube(): Promise<RealKubeInfo> {
  const info = inject("realKube");
  if (!info)
    throw new Error(
      "no real kube-apiserver: test/setup/kube.ts starts it for the contract project (scripts/build-kube.sh builds it)",
    );
  await waitForKube(info);
  return info;
}

/** A client of the real API server (the admin token unless another is given) that reads fresh every time. */
export function client(info: RealKubeInfo, token = info.adminToken): KubernetesClient {
  return new KubernetesClient({
    url: info.url,
    token,
    ca: info.caPem,
    http: { retry: { maxAttempts: 1 } },
    sleep: (ms) => new Promise((r) => setTimeout(r, Math.min(ms, 200))),
  });
}

/** The KubernetesError `p` rejects with. */
export async function caught(p: Promise<unknown>): Promise<KubernetesError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof KubernetesError) return e;
    throw e;
  }
  throw new Error("expected a KubernetesError");
}

/**
 * A namespace of the test's own with its `default` ServiceAccount, which the ServiceAccount admission plugin needs
 * before it admits a pod (kube-controller-manager's service account controller makes it in a full cluster).
 */
export async function namespace(info: RealKubeInfo, name: string): Promise<void> {
  await kubeMust(info, "POST", "/api/v1/namespaces", { metadata: { name } });
  await kubeMust(info, "POST", `/api/v1/namespaces/${name}/serviceaccounts`, { metadata: { name: "default" } });
}

/** Creates a pod bound to `node` by spec.nodeName (no scheduler), as the API stores it (Pending: no kubelet runs it). */
export async function pod(
  info: RealKubeInfo,
  ns: string,
  name: string,
  node: string,
  opts: { labels?: Record<string, string>; owner?: Record<string, unknown>; gracePeriod?: number } = {},
): Promise<Record<string, unknown>> {
  return kubeMust(info, "POST", `/api/v1/namespaces/${ns}/pods`, {
    metadata: {
      name,
      labels: opts.labels ?? {},
      ...(opts.owner ? { ownerReferences: [opts.owner] } : {}),
    },
    spec: {
      nodeName: node,
      automountServiceAccountToken: false,
      ...(opts.gracePeriod !== undefined ? { terminationGracePeriodSeconds: opts.gracePeriod } : {}),
      containers: [{ name: "app", image: "registry.invalid/app:1" }],
    },
  });
}

/** Writes a pod's status Running and Ready, as its kubelet would once the containers started. */
export async function markRunning(info: RealKubeInfo, ns: string, name: string): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const cond = (type: string) => ({ type, status: "True", lastTransitionTime: now });
  await kubeMust(
    info,
    "PATCH",
    `/api/v1/namespaces/${ns}/pods/${name}/status`,
    { status: { phase: "Running", conditions: ["Initialized", "ContainersReady", "Ready", "PodScheduled"].map(cond) } },
    [200],
    "application/merge-patch+json",
  );
}

/** Writes a PodDisruptionBudget's status, as the disruption controller of kube-controller-manager would. */
export async function pdbStatus(
  info: RealKubeInfo,
  ns: string,
  name: string,
  s: { disruptionsAllowed: number; currentHealthy: number; desiredHealthy: number; expectedPods: number },
): Promise<Record<string, unknown>> {
  const path = `/apis/policy/v1/namespaces/${ns}/poddisruptionbudgets/${name}`;
  const pdb = await kubeMust(info, "GET", path);
  const generation = (pdb.metadata as { generation: number }).generation;
  return kubeMust(
    info,
    "PATCH",
    `${path}/status`,
    { status: { observedGeneration: generation, ...s } },
    [200],
    "application/merge-patch+json",
  );
}
