/**
 * The scheduler operations of rackform_cluster_member (kubernetesOps, what the resource calls for a Kubernetes
 * member) against a real kube-apiserver: a node whose kubelet has not posted status is not registered; one that has
 * is joined (labels, taints, uncordon) over a person's cordon; its drain is refused by a PodDisruptionBudget and then
 * done; it is removed, recreated by hand as an admin would for a kubelet that still runs, and a token without the
 * delete verb keeps it. The test plays the kubelet (Node status) and the controllers (the not-ready taint's removal,
 * the PDB's status); everything else is the API server's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubernetesClient } from "../../../src/clients/kubernetes/index.js";
import {
  DrainTimeoutError,
  type JoinSpec,
  kubernetesOps,
  type SchedulerOps,
} from "../../../src/provider/resources/cluster-member-scheduler.js";
import { kubeMust, kubeRequest, type RealKubeInfo } from "../../support/real-kube.js";
import { client, markRunning, namespace, pdbStatus, pod, realKube } from "./support.js";

const NODE = "ct-k-member";
const NS = "ct-k-member";
const GPU_TAINT = { key: "nvidia.com/gpu", value: "present", effect: "NoSchedule" as const };
const SPEC: JoinSpec = {
  features: null,
  labels: { "rackform.io/pool": "gpu" },
  taints: [GPU_TAINT],
  priorLabelKeys: [],
  priorTaintKeys: [],
};
let info: RealKubeInfo;
let c: KubernetesClient;
let ops: SchedulerOps;

/** What the kubelet's status update writes (capacity, Ready), and the node lifecycle controller's lifting of not-ready. */
async function kubeletPosts(node: string): Promise<void> {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const ready = {
    type: "Ready",
    status: "True",
    reason: "KubeletReady",
    lastHeartbeatTime: now,
    lastTransitionTime: now,
  };
  const status = { capacity: { cpu: "64", "nvidia.com/gpu": "8" }, allocatable: { cpu: "64" }, conditions: [ready] };
  await kubeMust(info, "PATCH", `/api/v1/nodes/${node}/status`, { status }, [200], "application/merge-patch+json");
  const n = await c.getNode(node, { fresh: true });
  await c.setTaints(node, [], { removeKeys: ["node.kubernetes.io/not-ready"] });
  expect(n.ready).toBe(true);
}

beforeAll(async () => {
  info = await realKube();
  c = client(info);
  ops = kubernetesOps(c);
  await namespace(info, NS);
});
afterAll(async () => {
  await c?.close();
});

describe("rackform_cluster_member's Kubernetes operations against a real kube-apiserver", () => {
  it("does not know a node that never registered, and says what the API server knows instead", async () => {
    expect(await ops.lookup(NODE, true)).toBeUndefined();
    expect(await ops.whatIsThere(NODE)).toMatch(new RegExp(`none named ${NODE}: its kubelet has not registered`));
  });

  it("sees a Node without kubelet status as not registered, then registered and Ready once the kubelet posts", async () => {
    await c.createNode(NODE);
    expect((await ops.lookup(NODE, true))?.registered).toBe(false);
    await kubeletPosts(NODE);
    expect(await ops.lookup(NODE, true)).toMatchObject({ registered: true, state: "Ready", joined: true, taints: [] });
  });

  it("joins over a person's cordon: labels and taints set, schedulable again", async () => {
    await c.cordon(NODE);
    expect((await ops.lookup(NODE, true))?.state).toBe("Ready,SchedulingDisabled");
    const joined = await ops.join(NODE, SPEC);
    expect(joined).toMatchObject({ joined: true, state: "Ready", taints: [GPU_TAINT] });
    expect(joined.labels?.["rackform.io/pool"]).toBe("gpu");
  });

  it("reports a drain a PodDisruptionBudget refuses as DrainTimeoutError with its reason, then drains", async () => {
    await pod(info, NS, "train-1", NODE, { labels: { app: "train" } });
    await markRunning(info, NS, "train-1");
    await kubeMust(info, "POST", `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`, {
      metadata: { name: "train-pdb" },
      spec: { minAvailable: 1, selector: { matchLabels: { app: "train" } } },
    });
    await pdbStatus(info, NS, "train-pdb", {
      disruptionsAllowed: 0,
      currentHealthy: 1,
      desiredHealthy: 1,
      expectedPods: 1,
    });
    const e = await ops.drain(NODE, 1_000, 300, new AbortController().signal).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(e).toBeInstanceOf(DrainTimeoutError);
    expect((e as Error).message).toContain("The disruption budget train-pdb needs 1 healthy pods and has 1 currently");
    await pdbStatus(info, NS, "train-pdb", {
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
    });
    // The kubelet's part (none runs here): the evicted pod, being deleted, is stopped and removed; the drain waits.
    const kubelet = setInterval(() => {
      void kubeRequest(info, "DELETE", `/api/v1/namespaces/${NS}/pods/train-1?gracePeriodSeconds=0`);
    }, 200);
    try {
      await ops.drain(NODE, 5_000, 300, new AbortController().signal);
    } finally {
      clearInterval(kubelet);
    }
    expect((await ops.lookup(NODE, true))?.joined).toBe(false);
  });

  it("keeps the node when the token may not delete nodes (403), removes it with one that may, then 'gone'", async () => {
    const reader = client(info, info.readerToken);
    try {
      expect(await kubernetesOps(reader).remove(NODE)).toMatchObject({ outcome: "kept" });
    } finally {
      await reader.close();
    }
    expect(await ops.remove(NODE)).toEqual({ outcome: "deleted" });
    expect(await ops.remove(NODE)).toEqual({ outcome: "gone" });
    expect(await ops.lookup(NODE, true)).toBeUndefined();
    // A node already gone drains at once.
    await ops.drain(NODE, 1_000, 300, new AbortController().signal);
  });

  it("recreates a Node deleted by hand with its labels and taints; not registered until the kubelet posts again", async () => {
    await ops.recreate(NODE, SPEC);
    await ops.recreate(NODE, SPEC); // a second recreate meets 409 AlreadyExists and is content
    const back = await ops.lookup(NODE, true);
    expect(back).toMatchObject({ registered: false, state: "NotReady", joined: true });
    expect(back?.labels).toEqual({ "rackform.io/pool": "gpu" });
    expect(back?.taints).toEqual([GPU_TAINT, { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" }]);
    await kubeletPosts(NODE);
    expect(await ops.lookup(NODE, true)).toMatchObject({ registered: true, state: "Ready", taints: [GPU_TAINT] });
  });
});
