/** The lab Kubernetes API: bearer auth, Status errors, node patches (merge and strategic), pods by node, evictions. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createKubernetesApi, type KubernetesApi, type ListeningServer } from "../../../src/lab/scheduler/index.js";

// biome-ignore lint/suspicious/noExplicitAny: JSON from the wire; each test asserts the shape it reads.
type Wire = Record<string, any>;

const TOKEN = "k8s-admin-token-abc123";
let api: KubernetesApi;
let srv: ListeningServer;

beforeEach(async () => {
  api = createKubernetesApi({
    token: TOKEN,
    readOnlyToken: "reader-token",
    clock: { now: () => Date.UTC(2026, 0, 1) },
  });
  srv = await api.listen("127.0.0.1", 0);
  api.hooks.registerNode("gpu-001", {
    labels: { "nvidia.com/gpu.product": "H100" },
    capacity: { "nvidia.com/gpu": "8" },
  });
});
afterEach(async () => {
  await srv.close();
  api.stop();
});

async function call(method: string, path: string, body?: unknown, opts: { token?: string; type?: string } = {}) {
  const res = await fetch(`${srv.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${opts.token ?? TOKEN}`,
      ...(body !== undefined ? { "content-type": opts.type ?? "application/json" } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as Wire };
}

const merge = { type: "application/merge-patch+json" };
const strategic = { type: "application/strategic-merge-patch+json" };

describe("lab Kubernetes API authentication", () => {
  it("fails with 401 Status Unauthorized for a missing or wrong token", async () => {
    const r = await call("GET", "/api/v1/nodes", undefined, { token: "wrong" });
    expect(r.status).toBe(401);
    expect(r.json).toMatchObject({
      kind: "Status",
      apiVersion: "v1",
      status: "Failure",
      reason: "Unauthorized",
      code: 401,
    });
    expect((await fetch(`${srv.url}/api/v1/nodes`)).status).toBe(401);
  });

  it("lets a read-only token list but fails its patches with 403 Forbidden", async () => {
    expect((await call("GET", "/api/v1/nodes", undefined, { token: "reader-token" })).status).toBe(200);
    const r = await call(
      "PATCH",
      "/api/v1/nodes/gpu-001",
      { spec: { unschedulable: true } },
      { token: "reader-token", ...strategic },
    );
    expect(r.status).toBe(403);
    expect(r.json).toMatchObject({ reason: "Forbidden", code: 403 });
    expect(r.json.message).toContain('cannot patch resource "nodes"');
  });
});

describe("lab Kubernetes API nodes", () => {
  it("lists and gets nodes with kind, resourceVersion, labels, capacity and a Ready condition", async () => {
    const list = await call("GET", "/api/v1/nodes");
    expect(list.json).toMatchObject({ kind: "NodeList", apiVersion: "v1" });
    const node = (await call("GET", "/api/v1/nodes/gpu-001")).json;
    expect(node).toMatchObject({
      kind: "Node",
      metadata: { name: "gpu-001", labels: { "kubernetes.io/hostname": "gpu-001", "nvidia.com/gpu.product": "H100" } },
    });
    expect(node.metadata.resourceVersion).toMatch(/^\d+$/);
    expect(node.status.capacity["nvidia.com/gpu"]).toBe("8");
    expect(node.status.conditions).toContainEqual(expect.objectContaining({ type: "Ready", status: "True" }));
  });

  it("keeps a Node deleted by hand gone while its kubelet runs; one created again by hand gets the kubelet's status", async () => {
    expect((await call("DELETE", "/api/v1/nodes/gpu-001")).status).toBe(200);
    // A running kubelet's status update finds no Node and does not register again (kubernetes/kubernetes#71398).
    api.hooks.kubeletStatusUpdate("gpu-001", { capacity: { "nvidia.com/gpu": "8" } });
    expect((await call("GET", "/api/v1/nodes/gpu-001")).status).toBe(404);
    // An admin creates it again (kubectl create -f node.yaml): labels and taints kept, no status yet, so not Ready.
    const body = {
      apiVersion: "v1",
      kind: "Node",
      metadata: { name: "gpu-001", labels: { "rackform.io/rack": "r01" } },
      spec: { taints: [{ key: "nvidia.com/gpu", value: "present", effect: "NoSchedule" }] },
    };
    const created = await call("POST", "/api/v1/nodes", body);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      kind: "Node",
      metadata: { name: "gpu-001", labels: { "rackform.io/rack": "r01" } },
    });
    expect(created.json.status.conditions).toBeUndefined();
    // The API server's TaintNodesByCondition admission adds the not-ready taint to every new Node.
    expect(created.json.spec.taints).toEqual([
      ...body.spec.taints,
      { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" },
    ]);
    expect((await call("POST", "/api/v1/nodes", body)).json).toMatchObject({ code: 409, reason: "AlreadyExists" });
    // The kubelet's next status update fills it in; Ready, it loses the not-ready taint (the node lifecycle controller).
    api.hooks.kubeletStatusUpdate("gpu-001", { capacity: { "nvidia.com/gpu": "8" } });
    const node = (await call("GET", "/api/v1/nodes/gpu-001")).json;
    expect(node.status.capacity["nvidia.com/gpu"]).toBe("8");
    expect(node.status.conditions).toContainEqual(expect.objectContaining({ type: "Ready", status: "True" }));
    expect(node.spec.taints).toEqual(body.spec.taints);
    expect((await call("POST", "/api/v1/nodes", body, { token: "reader-token" })).status).toBe(403);
  });

  it("fails with 404 NotFound naming the node", async () => {
    const r = await call("GET", "/api/v1/nodes/nope");
    expect(r.json).toMatchObject({
      code: 404,
      reason: "NotFound",
      message: 'nodes "nope" not found',
      details: { name: "nope", kind: "nodes" },
    });
  });

  it("cordons with a strategic merge patch: unschedulable plus the controller's unschedulable taint, and bumps resourceVersion", async () => {
    const before = (await call("GET", "/api/v1/nodes/gpu-001")).json.metadata.resourceVersion;
    const r = await call("PATCH", "/api/v1/nodes/gpu-001", { spec: { unschedulable: true } }, strategic);
    expect(r.status).toBe(200);
    expect(r.json.spec.unschedulable).toBe(true);
    expect(r.json.spec.taints).toContainEqual(
      expect.objectContaining({ key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" }),
    );
    expect(Number(r.json.metadata.resourceVersion)).toBeGreaterThan(Number(before));
    const un = await call("PATCH", "/api/v1/nodes/gpu-001", { spec: { unschedulable: null } }, strategic);
    expect(un.json.spec.unschedulable).toBeUndefined();
    expect(un.json.spec.taints).toBeUndefined();
  });

  it("merges labels with a merge patch (null removes) and taints by key with a strategic patch ($patch: delete)", async () => {
    const l = await call(
      "PATCH",
      "/api/v1/nodes/gpu-001",
      { metadata: { labels: { "rackform.io/rack": "r12", "nvidia.com/gpu.product": null } } },
      merge,
    );
    expect(l.json.metadata.labels["rackform.io/rack"]).toBe("r12");
    expect(l.json.metadata.labels).not.toHaveProperty("nvidia.com/gpu.product");
    await call("PATCH", "/api/v1/nodes/gpu-001", { spec: { taints: [{ key: "a", effect: "NoSchedule" }] } }, strategic);
    const t = await call(
      "PATCH",
      "/api/v1/nodes/gpu-001",
      { spec: { taints: [{ key: "b", value: "1", effect: "NoExecute" }] } },
      strategic,
    );
    expect(t.json.spec.taints.map((x: { key: string }) => x.key)).toEqual(["a", "b"]);
    const d = await call(
      "PATCH",
      "/api/v1/nodes/gpu-001",
      { spec: { taints: [{ key: "a", $patch: "delete" }] } },
      strategic,
    );
    expect(d.json.spec.taints.map((x: { key: string }) => x.key)).toEqual(["b"]);
    const m = await call(
      "PATCH",
      "/api/v1/nodes/gpu-001",
      { spec: { taints: [{ key: "c", effect: "NoSchedule" }] } },
      merge,
    );
    expect(m.json.spec.taints.map((x: { key: string }) => x.key)).toEqual(["c"]);
  });

  it("fails with 409 Conflict on a stale resourceVersion, 415 on JSON patch, 422 Invalid on a bad taint effect", async () => {
    const stale = await call(
      "PATCH",
      "/api/v1/nodes/gpu-001",
      { metadata: { resourceVersion: "1" }, spec: { unschedulable: true } },
      merge,
    );
    expect(stale.json).toMatchObject({ code: 409, reason: "Conflict" });
    const jp = await call("PATCH", "/api/v1/nodes/gpu-001", [{ op: "add", path: "/spec/unschedulable", value: true }], {
      type: "application/json-patch+json",
    });
    expect(jp.json).toMatchObject({ code: 415, reason: "UnsupportedMediaType" });
    const bad = await call(
      "PATCH",
      "/api/v1/nodes/gpu-001",
      { spec: { taints: [{ key: "x", effect: "Sometimes" }] } },
      merge,
    );
    expect(bad.json).toMatchObject({ code: 422, reason: "Invalid" });
    expect(bad.json.message).toContain("spec.taints[0].effect");
  });
});

describe("lab Kubernetes API pods and evictions", () => {
  beforeEach(() => {
    api.hooks.addPod({ namespace: "ml", name: "trainer-7d9f-abcde", node: "gpu-001" });
    api.hooks.addPod({
      namespace: "kube-system",
      name: "nvidia-device-plugin-x1",
      node: "gpu-001",
      ownerKind: "DaemonSet",
    });
    api.hooks.addPod({ namespace: "ml", name: "other-1", node: "gpu-002" });
  });

  it("lists the pods of one node with fieldSelector=spec.nodeName", async () => {
    const r = await call("GET", "/api/v1/pods?fieldSelector=spec.nodeName%3Dgpu-001");
    expect(r.json.kind).toBe("PodList");
    expect(r.json.items.map((p: Wire) => p.metadata.name).sort()).toEqual([
      "nvidia-device-plugin-x1",
      "trainer-7d9f-abcde",
    ]);
    const ds = r.json.items.find((p: Wire) => p.metadata.name.startsWith("nvidia"));
    expect(ds.metadata.ownerReferences[0]).toMatchObject({ kind: "DaemonSet", controller: true });
  });

  it("evicts with policy/v1 Eviction (201 Success), then 404 for the gone pod", async () => {
    const body = {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "trainer-7d9f-abcde", namespace: "ml" },
    };
    const r = await call("POST", "/api/v1/namespaces/ml/pods/trainer-7d9f-abcde/eviction", body);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ kind: "Status", status: "Success" });
    expect(api.hooks.pods("gpu-001").map((p) => p.metadata.name)).toEqual(["nvidia-device-plugin-x1"]);
    expect((await call("POST", "/api/v1/namespaces/ml/pods/trainer-7d9f-abcde/eviction", body)).status).toBe(404);
  });

  it("fails with 429 TooManyRequests and a DisruptionBudget cause while a PDB blocks the eviction", async () => {
    api.hooks.blockEviction("ml", "trainer-7d9f-abcde", 1);
    const body = {
      apiVersion: "policy/v1",
      kind: "Eviction",
      metadata: { name: "trainer-7d9f-abcde", namespace: "ml" },
    };
    const r = await call("POST", "/api/v1/namespaces/ml/pods/trainer-7d9f-abcde/eviction", body);
    expect(r.status).toBe(429);
    expect(r.json).toMatchObject({
      reason: "TooManyRequests",
      details: { causes: [expect.objectContaining({ reason: "DisruptionBudget" })] },
    });
    expect((await call("POST", "/api/v1/namespaces/ml/pods/trainer-7d9f-abcde/eviction", body)).status).toBe(201);
  });

  it("evicts a Pending pod whatever its PDB says, as the API server does not ask the budget for it", async () => {
    api.hooks.addPod({ namespace: "ml", name: "queued-1", node: "gpu-001", phase: "Pending" });
    api.hooks.blockEviction("ml", "queued-1");
    const body = { apiVersion: "policy/v1", kind: "Eviction", metadata: { name: "queued-1", namespace: "ml" } };
    expect((await call("POST", "/api/v1/namespaces/ml/pods/queued-1/eviction", body)).status).toBe(201);
  });
});
