/**
 * rackform_cluster_member with scheduler = "kubernetes", through the provider server against the lab's API server:
 * join (labels, taints, uncordon), cordon drift → re-join, managed labels and taints only, node gone, drain by eviction
 * with a PodDisruptionBudget refusing (retried, then the timeout message).
 */
import { describe, expect, it } from "vitest";
import { KubernetesClient } from "../../../src/clients/kubernetes/index.js";
import { isUnknown, type ObjectValue, UNKNOWN } from "../../../src/framework/index.js";
import {
  apply,
  destroy,
  destroyForReplacement,
  expectNoSecrets,
  KUBE_TOKEN,
  lines,
  member,
  plan,
  read,
  rigPerTest,
  T,
  timeouts,
} from "./cluster-member-support.js";

const rig = rigPerTest();

const taint = (key: string, effect: string, value: string | null = null) => ({ key, value, effect });
const gpu01 = (set: Record<string, unknown> = {}) =>
  member({
    node: "gpu-01",
    scheduler: "kubernetes",
    labels: { "nvidia.com/gpu.product": "H100", "rackform.io/rack": "r01" },
    taints: [taint("nvidia.com/gpu", "NoSchedule", "present")],
    ...(set as object),
  });

async function kubectl<R>(fn: (c: KubernetesClient) => Promise<R>): Promise<R> {
  const c = new KubernetesClient({ url: rig.kubeUrl, token: KUBE_TOKEN });
  try {
    return await fn(c);
  } finally {
    await c.close();
  }
}

const labNode = (name: string) => {
  const n = rig.kube.hooks.node(name)!;
  return {
    labels: (n.metadata.labels ?? {}) as Record<string, string>,
    spec: (n as unknown as { spec: { unschedulable?: boolean; taints?: { key: string; effect: string }[] } }).spec,
  };
};

describe("rackform_cluster_member (kubernetes)", () => {
  it("joins a cordoned node: sets labels and taints, then uncordons it", async () => {
    rig.kube.hooks.registerNode("gpu-01", { labels: { "kubernetes.io/hostname": "gpu-01" }, unschedulable: true });
    const r = await apply(rig.srv, gpu01());
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toMatchObject({
      id: "kubernetes:gpu-01",
      joined: true,
      state: "Ready",
      labels: { "nvidia.com/gpu.product": "H100", "rackform.io/rack": "r01" },
      taints: [taint("nvidia.com/gpu", "NoSchedule", "present")],
      partitions: null,
    });
    const n = labNode("gpu-01");
    expect(n.spec.unschedulable ?? false).toBe(false);
    expect(n.labels).toMatchObject({ "kubernetes.io/hostname": "gpu-01", "nvidia.com/gpu.product": "H100" });
    expect(n.spec.taints?.map((t) => t.key)).toEqual(["nvidia.com/gpu"]);
    expectNoSecrets(r);
  });

  it("fails naming the node and what the API server knows when the kubelet never registers", async () => {
    rig.kube.hooks.registerNode("gpu-02");
    const r = await apply(rig.srv, gpu01({ timeouts: timeouts({ create: "250ms" }) }));
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Node never registered with Kubernetes"]);
    expect(r.diagnostics[0].detail).toContain("Kubernetes node gpu-01 did not register within 0.25s");
    expect(r.diagnostics[0].detail).toContain("the API server knows 1 node (gpu-02), none named gpu-01");
    expect(r.diagnostics[0].detail).toContain("kubelet");
  });

  it("shows a hand cordon as joined = false and uncordons it with an in-place update", async () => {
    rig.kube.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    await kubectl((c) => c.cordon("gpu-01"));
    const refreshed = await read(rig.srv, s);
    expect(refreshed.newState).toMatchObject({ joined: false, state: "Ready,SchedulingDisabled" });
    expect(refreshed.diagnostics.map((d) => d.summary)).toEqual(["Node no longer accepts work in Kubernetes: gpu-01"]);
    const p = await plan(rig.srv, gpu01(), refreshed.newState);
    expect(p.requiresReplace).toEqual([]);
    expect((p.plannedState as ObjectValue).joined).toBe(true);
    expect(isUnknown((p.plannedState as ObjectValue).state)).toBe(true);
    const a = await apply(rig.srv, gpu01(), refreshed.newState);
    expect(lines(a.diagnostics)).toBe("");
    expect(a.newState).toMatchObject({ joined: true, state: "Ready" });
    expect(labNode("gpu-01").spec.unschedulable ?? false).toBe(false);
  });

  it("manages only its own labels and taints: removing one from config removes it from the node, others stay", async () => {
    rig.kube.hooks.registerNode("gpu-01", { labels: { "team.example.com/owner": "ml" } });
    const s = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    await kubectl((c) => c.setTaints("gpu-01", [{ key: "example.com/maintenance", effect: "NoSchedule" }]));
    const next = gpu01({ labels: { "nvidia.com/gpu.product": "H100" }, taints: null });
    const p = await plan(rig.srv, next, s);
    expect(p.requiresReplace).toEqual([]);
    const a = await apply(rig.srv, next, s);
    expect(lines(a.diagnostics)).toBe("");
    const n = labNode("gpu-01");
    expect(n.labels["rackform.io/rack"]).toBeUndefined();
    expect(n.labels).toMatchObject({ "team.example.com/owner": "ml", "nvidia.com/gpu.product": "H100" });
    expect(n.spec.taints?.map((t) => t.key)).toEqual(["example.com/maintenance"]);
  });

  it("shows a label changed by hand as drift", async () => {
    rig.kube.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    await kubectl((c) => c.setLabels("gpu-01", { "nvidia.com/gpu.product": "A100" }));
    const r = await read(rig.srv, s);
    expect((r.newState as ObjectValue).labels).toEqual({ "nvidia.com/gpu.product": "A100", "rackform.io/rack": "r01" });
  });

  it("re-creates a Node deleted by hand in place, and waits for its running kubelet's status before uncordoning", async () => {
    rig.kube.hooks.registerNode("gpu-01", { capacity: { "nvidia.com/gpu": "8" } });
    const s = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    // GIVEN an operator deleted the Node (kubectl delete node); its kubelet runs on but never registers again
    await kubectl((c) => c.deleteNode("gpu-01"));
    // WHEN refreshing: not joined, state "absent", a warning naming the node
    const gone = await read(rig.srv, s);
    expect(gone.newState).toMatchObject({ joined: false, state: "absent" });
    expect(gone.diagnostics.map((d) => d.summary)).toEqual(["Node gone from Kubernetes: gpu-01"]);
    // THEN the plan is this member's in-place re-join
    const p = await plan(rig.srv, gpu01(), gone.newState);
    expect(p.requiresReplace).toEqual([]);
    expect((p.plannedState as ObjectValue).joined).toBe(true);
    // AND apply creates the Node with rackform's labels and taints; the kubelet's next status update fills it in
    const kubelet = setInterval(
      () => rig.kube.hooks.kubeletStatusUpdate("gpu-01", { capacity: { "nvidia.com/gpu": "8" } }),
      30,
    );
    const a = await apply(rig.srv, gpu01(), gone.newState).finally(() => clearInterval(kubelet));
    expect(lines(a.diagnostics)).toBe("");
    expect(a.newState).toMatchObject({ joined: true, state: "Ready" });
    expect(rig.kube.requests.filter((q) => q.method === "POST").map((q) => `${q.path} ${q.status}`)).toEqual([
      "/api/v1/nodes 201",
    ]);
    const n = labNode("gpu-01");
    expect(n.labels).toMatchObject({ "nvidia.com/gpu.product": "H100", "rackform.io/rack": "r01" });
    expect(n.spec.taints?.map((t) => t.key)).toEqual(["nvidia.com/gpu"]);
    expect(n.spec.unschedulable).toBeUndefined();
  });

  it("drains on destroy by eviction, retrying while a PodDisruptionBudget refuses; DaemonSet pods stay", async () => {
    rig.kube.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01({ gate_id: "maas:gpu-01" }))).newState as ObjectValue;
    rig.kube.hooks.addPod({ namespace: "ml", name: "trainer-0", node: "gpu-01" });
    rig.kube.hooks.addPod({
      namespace: "kube-system",
      name: "dcgm-exporter-x",
      node: "gpu-01",
      ownerKind: "DaemonSet",
    });
    rig.kube.hooks.blockEviction("ml", "trainer-0", 3);
    // The destroy half of a reimage: the node comes back, so it is only drained.
    const r = await destroyForReplacement(rig.srv, s, gpu01({ gate_id: UNKNOWN }));
    expect(lines(r.diagnostics)).toBe("");
    expect(rig.kube.hooks.pods("gpu-01").map((p) => p.metadata.name)).toEqual(["dcgm-exporter-x"]);
    expect(labNode("gpu-01").spec.unschedulable).toBe(true);
    expect(rig.kube.requests.filter((q) => q.method === "DELETE")).toEqual([]);
    const evictions = rig.kube.requests.filter((q) => q.path.endsWith("/trainer-0/eviction"));
    expect(evictions.map((q) => q.status)).toEqual([429, 429, 429, 201]);
  });

  it("deletes the Node object of a node removed from the rack for good, after its drain", async () => {
    rig.kube.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    rig.kube.hooks.addPod({ namespace: "ml", name: "trainer-0", node: "gpu-01" });
    const r = await destroy(rig.srv, s);
    expect(lines(r.diagnostics)).toBe("");
    expect(rig.kube.hooks.node("gpu-01")).toBeUndefined();
    const writes = rig.kube.requests.filter((q) => q.method !== "GET").map((q) => `${q.method} ${q.status}`);
    // cordon, evict, delete
    expect(writes.slice(-3)).toEqual(["PATCH 200", "POST 201", "DELETE 200"]);
  });

  it("fails a destroy whose evictions stay refused past timeouts.delete, naming the pods; nothing is deleted by force", async () => {
    rig.kube.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01({ timeouts: timeouts({ delete: "200ms" }) }))).newState as ObjectValue;
    rig.kube.hooks.addPod({ namespace: "ml", name: "trainer-0", node: "gpu-01" });
    rig.kube.hooks.blockEviction("ml", "trainer-0");
    const r = await destroy(rig.srv, s);
    expect(r.diagnostics.map((d) => d.summary)).toEqual(["Node did not drain in time"]);
    const detail = r.diagnostics[0].detail;
    expect(detail).toContain("Kubernetes node gpu-01 did not drain within 0.2s");
    expect(detail).toContain("evictions of 1 pod are still refused: ml/trainer-0");
    expect(detail).toContain("Nothing was killed or evicted by force");
    expect(detail).toContain("cordoned");
    expect(rig.kube.hooks.pods("gpu-01").map((p) => p.metadata.name)).toEqual(["trainer-0"]);
    expectNoSecrets(r);
  });

  it("destroys a member whose node already left the cluster without error", async () => {
    rig.kube.hooks.registerNode("gpu-01");
    const s = (await apply(rig.srv, gpu01())).newState as ObjectValue;
    rig.kube.hooks.deleteNode("gpu-01");
    const r = await destroy(rig.srv, s);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toBeNull();
  });

  it("imports kubernetes:<node>", async () => {
    rig.kube.hooks.registerNode("gpu-01");
    const imp = await rig.srv.importResourceState({ typeName: T, id: "kubernetes:gpu-01" });
    const r = await read(rig.srv, imp.imported[0].state);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toMatchObject({
      id: "kubernetes:gpu-01",
      scheduler: "kubernetes",
      joined: true,
      state: "Ready",
    });
    const bad = await rig.srv.importResourceState({ typeName: T, id: "gpu-01" });
    expect(bad.diagnostics.map((d) => d.summary)).toEqual(["Invalid import id for rackform_cluster_member"]);
  });
});
