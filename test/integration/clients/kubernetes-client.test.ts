/** KubernetesClient against the lab Kubernetes API on loopback: batching, cordon, labels, taints, drain, errors. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubernetesClient, KubernetesError } from "../../../src/clients/kubernetes/index.js";
import { createKubernetesApi, type KubernetesApi, type ListeningServer } from "../../../src/lab/scheduler/index.js";
import { makeTestPki } from "../../support/clients/tls.js";

const TOKEN = "k8s-sa-token-0123456789abcdef";
let api: KubernetesApi;
let srv: ListeningServer;
let client: KubernetesClient;
const logs: string[] = [];

beforeEach(async () => {
  api = createKubernetesApi({ token: TOKEN, readOnlyToken: "reader-token-secret" });
  srv = await api.listen("127.0.0.1", 0);
  for (const n of ["gpu-001", "gpu-002", "gpu-003"]) api.hooks.registerNode(n, { capacity: { "nvidia.com/gpu": "8" } });
  logs.length = 0;
  client = new KubernetesClient({ url: srv.url, token: TOKEN, http: { log: (l) => logs.push(l) } });
});
afterEach(async () => {
  await client.close();
  await srv.close();
});

async function caught(p: Promise<unknown>): Promise<KubernetesError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof KubernetesError) return e;
    throw e;
  }
  throw new Error("expected a KubernetesError");
}

describe("KubernetesClient nodes", () => {
  it("serves many concurrent getNode calls with one GET /api/v1/nodes", async () => {
    const nodes = await Promise.all(["gpu-001", "gpu-002", "gpu-003", "gpu-001"].map((n) => client.getNode(n)));
    expect(nodes.map((n) => n.capacity["nvidia.com/gpu"])).toEqual(["8", "8", "8", "8"]);
    expect(client.listRequests).toBe(1);
  });

  it("cordons and uncordons; the next read sees the change", async () => {
    await client.getNode("gpu-001");
    await client.cordon("gpu-001");
    expect(await client.getNode("gpu-001")).toMatchObject({ unschedulable: true });
    const un = await client.uncordon("gpu-001");
    expect(un.unschedulable).toBe(false);
    expect(un.taints).toEqual([]);
  });

  it("sets and removes labels, keeping the others", async () => {
    await client.setLabels("gpu-001", { "rackform.io/rack": "r12", "rackform.io/image": "2026.06.2" });
    const n = await client.setLabels("gpu-001", { "rackform.io/image": null });
    expect(n.labels["rackform.io/rack"]).toBe("r12");
    expect(n.labels).not.toHaveProperty("rackform.io/image");
    expect(n.labels["kubernetes.io/hostname"]).toBe("gpu-001");
  });

  it("sets managed taints and keeps taints of other owners (the cordon taint)", async () => {
    await client.cordon("gpu-002");
    await client.setTaints("gpu-002", [{ key: "rackform.io/acceptance", value: "pending", effect: "NoSchedule" }]);
    const n = await client.setTaints("gpu-002", [], { removeKeys: ["rackform.io/acceptance"] });
    expect(n.taints.map((t) => t.key)).toEqual(["node.kubernetes.io/unschedulable"]);
  });

  it("fails with RACKFORM_ERR_KUBERNETES_NOT_FOUND for a node that never registered", async () => {
    const e = await caught(client.cordon("gpu-999"));
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_NOT_FOUND");
    expect(e.k8sStatus).toMatchObject({ reason: "NotFound" });
  });

  it("fails with RACKFORM_ERR_KUBERNETES_INVALID naming the field of a bad taint", async () => {
    const e = await caught(client.setTaints("gpu-001", [{ key: "x", effect: "Sometimes" as "NoSchedule" }]));
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_INVALID");
    expect(e.message).toContain("spec.taints[0].effect");
  });
});

describe("KubernetesClient node deletion", () => {
  it("deletes the Node with its pods; the next read no longer finds it, and a repeat is NotFound", async () => {
    api.hooks.addPod({ namespace: "ml", name: "trainer-0", node: "gpu-002" });
    await client.getNode("gpu-002");
    await client.deleteNode("gpu-002");
    expect((await caught(client.getNode("gpu-002"))).code).toBe("RACKFORM_ERR_KUBERNETES_NOT_FOUND");
    expect(api.hooks.pods("gpu-002")).toEqual([]);
    expect((await caught(client.deleteNode("gpu-002"))).code).toBe("RACKFORM_ERR_KUBERNETES_NOT_FOUND");
    expect((await client.listNodes()).map((n) => n.name)).toEqual(["gpu-001", "gpu-003"]);
  });
});

describe("KubernetesClient drain", () => {
  beforeEach(() => {
    api.hooks.addPod({ namespace: "ml", name: "trainer-5f6d-aaaaa", node: "gpu-003" });
    api.hooks.addPod({ namespace: "ml", name: "trainer-5f6d-bbbbb", node: "gpu-003" });
    api.hooks.addPod({
      namespace: "gpu-operator",
      name: "nvidia-device-plugin-zz",
      node: "gpu-003",
      ownerKind: "DaemonSet",
    });
    api.hooks.addPod({ namespace: "kube-system", name: "kube-proxy-gpu-003", node: "gpu-003", mirror: true });
    api.hooks.addPod({ namespace: "ml", name: "elsewhere-1", node: "gpu-001" });
  });

  it("cordons and evicts every pod except DaemonSet and mirror pods, retrying a PDB refusal", async () => {
    api.hooks.blockEviction("ml", "trainer-5f6d-bbbbb", 2);
    const r = await client.drain("gpu-003", { timeoutMs: 60_000, pollMs: 5 });
    expect([...r.evicted].sort()).toEqual(["ml/trainer-5f6d-aaaaa", "ml/trainer-5f6d-bbbbb"]);
    expect([...r.skipped].sort()).toEqual(["gpu-operator/nvidia-device-plugin-zz", "kube-system/kube-proxy-gpu-003"]);
    expect(
      api.hooks
        .pods("gpu-003")
        .map((p) => p.metadata.name)
        .sort(),
    ).toEqual(["kube-proxy-gpu-003", "nvidia-device-plugin-zz"]);
    expect(api.hooks.pods("gpu-001")).toHaveLength(1);
    expect((await client.getNode("gpu-003")).unschedulable).toBe(true);
    const again = await client.drain("gpu-003", { timeoutMs: 1_000, pollMs: 5 });
    expect(again.evicted).toEqual([]);
  });

  it("fails with RACKFORM_ERR_KUBERNETES_DRAIN_TIMEOUT naming the pod a PDB keeps", async () => {
    api.hooks.blockEviction("ml", "trainer-5f6d-bbbbb");
    let t = 0;
    const timed = new KubernetesClient({
      url: srv.url,
      token: TOKEN,
      now: () => t,
      sleep: async (ms) => void (t += ms),
    });
    const e = await caught(timed.drain("gpu-003", { timeoutMs: 30_000, pollMs: 5_000 }));
    await timed.close();
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_DRAIN_TIMEOUT");
    expect(e.message).toContain("ml/trainer-5f6d-bbbbb");
    expect(e.message).toContain("disruption budget");
    expect(e.details).toMatchObject({ pending: ["ml/trainer-5f6d-bbbbb"], evicted: ["ml/trainer-5f6d-aaaaa"] });
    expect(e.details.refused).toMatch(/^ml\/trainer-5f6d-bbbbb \(.*disruption budget.*\)$/);
  });
});

describe("KubernetesClient auth", () => {
  it("fails with RACKFORM_ERR_KUBERNETES_AUTH on a wrong token and never shows it", async () => {
    const bad = new KubernetesClient({ url: srv.url, token: "wrong-bearer-secret" });
    const e = await caught(bad.listNodes());
    await bad.close();
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_AUTH");
    expect(`${e.message}${e.stack}`).not.toContain("wrong-bearer-secret");
  });

  it("fails with RACKFORM_ERR_KUBERNETES_FORBIDDEN when RBAC denies the patch", async () => {
    const reader = new KubernetesClient({ url: srv.url, token: "reader-token-secret" });
    const e = await caught(reader.cordon("gpu-001"));
    await reader.close();
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_FORBIDDEN");
    expect(e.message).toContain("RBAC");
  });

  it("fails a node deletion with RACKFORM_ERR_KUBERNETES_FORBIDDEN when RBAC denies it, naming the right", async () => {
    const reader = new KubernetesClient({ url: srv.url, token: "reader-token-secret" });
    const e = await caught(reader.deleteNode("gpu-001"));
    await reader.close();
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_FORBIDDEN");
    expect(e.message).toContain('cannot delete resource "nodes"');
    expect(api.hooks.node("gpu-001")).toBeDefined();
  });

  it("never writes the token to the log", async () => {
    await client.drain("gpu-001", { timeoutMs: 1_000, pollMs: 5 });
    expect(logs.join("\n")).not.toContain(TOKEN);
  });
});

describe("KubernetesClient TLS", () => {
  it("trusts the API server through `ca`, and fails with RACKFORM_ERR_TLS under another CA", async () => {
    const pki = makeTestPki();
    const tlsSrv = await api.listen("127.0.0.1", 0, { key: pki.serverKey, cert: pki.serverCert });
    try {
      const good = new KubernetesClient({ url: tlsSrv.url, token: TOKEN, ca: pki.caPem });
      expect((await good.getNode("gpu-001")).name).toBe("gpu-001");
      await good.close();
      const other = new KubernetesClient({
        url: tlsSrv.url,
        token: TOKEN,
        ca: pki.otherCaPem,
        http: { retry: { maxAttempts: 1 } },
      });
      await expect(other.listNodes()).rejects.toMatchObject({ code: "RACKFORM_ERR_TLS" });
      await other.close();
    } finally {
      await tlsSrv.close();
      pki.cleanup();
    }
  });
});

describe("KubernetesClient eviction rights", () => {
  it("fails an eviction with RACKFORM_ERR_KUBERNETES_FORBIDDEN when RBAC denies it", async () => {
    api.hooks.addPod({ namespace: "ml", name: "job-1", node: "gpu-002" });
    const reader = new KubernetesClient({ url: srv.url, token: "reader-token-secret" });
    const e = await caught(reader.evict("ml", "job-1"));
    await reader.close();
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_FORBIDDEN");
  });
});
