/**
 * rackform's KubernetesClient against a real kube-apiserver (test/setup/kube.ts): Nodes registered through the API
 * (there is no kubelet), labelled, tainted, cordoned, deleted by hand, and the errors of an unknown node, an invalid
 * label, a bad token and a token RBAC only lets read. What the API server does alone is checked here; what
 * kube-controller-manager would add (the unschedulable taint of a cordon, Ready, the pod garbage collector) is not
 * there, and the assertions say so.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubernetesClient } from "../../../src/clients/kubernetes/index.js";
import { kubeMust, type RealKubeInfo } from "../../support/real-kube.js";
import { caught, client, namespace, pod, realKube } from "./support.js";

const NODE = "ct-k1";
const NOT_READY = { key: "node.kubernetes.io/not-ready", effect: "NoSchedule" };
let info: RealKubeInfo;
let c: KubernetesClient;

beforeAll(async () => {
  info = await realKube();
  c = client(info);
});
afterAll(async () => {
  await c?.close();
});

describe("KubernetesClient against a real kube-apiserver", () => {
  it("creates a Node by hand; the API server's admission adds the not-ready taint, and it is not Ready", async () => {
    const n = await c.createNode(NODE, {
      labels: { "rackform.io/rack": "r01" },
      taints: [{ key: "rackform.io/joining", value: "yes", effect: "NoSchedule" }],
    });
    expect(n.labels).toEqual({ "rackform.io/rack": "r01" });
    // TaintNodesByCondition (an admission plugin of kube-apiserver) taints every new Node not-ready; the node
    // lifecycle controller lifts it once the kubelet reports Ready.
    expect(n.taints).toEqual([{ key: "rackform.io/joining", value: "yes", effect: "NoSchedule" }, NOT_READY]);
    expect(n.ready).toBe(false);
    expect(n.unschedulable).toBe(false);
    expect((await c.getNode(NODE, { fresh: true })).uid).toBe(n.uid);
    expect((await c.listNodes()).map((x) => x.name)).toContain(NODE);
  });

  it("answers RACKFORM_ERR_KUBERNETES_CONFLICT (409 AlreadyExists) for a second create", async () => {
    const e = await caught(c.createNode(NODE));
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_CONFLICT");
    expect(e.k8sStatus?.reason).toBe("AlreadyExists");
  });

  it("sets and removes labels, keeping the others", async () => {
    await c.setLabels(NODE, { "rackform.io/pool": "gpu", "rackform.io/rack": null });
    const n = await c.setLabels(NODE, { "rackform.io/generation": "h100" });
    expect(n.labels).toEqual({ "rackform.io/pool": "gpu", "rackform.io/generation": "h100" });
  });

  it("sets the taints of the keys it manages and keeps the rest (the admission's not-ready taint)", async () => {
    const gpu = { key: "nvidia.com/gpu", value: "present", effect: "NoSchedule" as const };
    const n = await c.setTaints(NODE, [gpu], { removeKeys: ["rackform.io/joining"] });
    expect(n.taints).toEqual([NOT_READY, gpu]);
    const again = await c.setTaints(NODE, [], { removeKeys: ["nvidia.com/gpu"] });
    expect(again.taints).toEqual([NOT_READY]);
  });

  it("cordons and uncordons; without kube-controller-manager no unschedulable taint follows", async () => {
    const cordoned = await c.cordon(NODE);
    expect(cordoned.unschedulable).toBe(true);
    // In a full cluster the node lifecycle controller adds node.kubernetes.io/unschedulable (the lab models that);
    // the API server alone does not.
    expect(cordoned.taints).toEqual([NOT_READY]);
    const back = await c.uncordon(NODE);
    expect(back.unschedulable).toBe(false);
    expect(back.resourceVersion).not.toBe(cordoned.resourceVersion);
  });

  it("refuses an invalid label value with RACKFORM_ERR_KUBERNETES_INVALID (422), leaving the node as it was", async () => {
    const before = await c.getNode(NODE, { fresh: true });
    const e = await caught(c.setLabels(NODE, { "rackform.io/pool": "not a valid value!" }));
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_INVALID");
    expect(e.k8sStatus?.reason).toBe("Invalid");
    expect((await c.getNode(NODE, { fresh: true })).labels).toEqual(before.labels);
  });

  it("fails with RACKFORM_ERR_KUBERNETES_NOT_FOUND for an unknown node, read or written", async () => {
    expect((await caught(c.getNode("ct-k-nope", { fresh: true }))).code).toBe("RACKFORM_ERR_KUBERNETES_NOT_FOUND");
    const e = await caught(c.cordon("ct-k-nope"));
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_NOT_FOUND");
    expect(e.status).toBe(404);
    expect(e.message).toContain("node ct-k-nope is not registered");
  });

  it("fails with RACKFORM_ERR_KUBERNETES_AUTH (401) for a bad token, without the token in the message", async () => {
    const forged = `${info.adminToken.slice(0, 8)}-forged-token`;
    const bad = client(info, forged);
    const e = await caught(bad.listNodes());
    await bad.close();
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_AUTH");
    expect(e.status).toBe(401);
    expect(e.message).not.toContain(forged);
  });

  it("lets a token RBAC binds to get/list read, and refuses its cordon with RACKFORM_ERR_KUBERNETES_FORBIDDEN (403)", async () => {
    const reader = client(info, info.readerToken);
    try {
      expect((await reader.getNode(NODE)).name).toBe(NODE);
      const e = await caught(reader.cordon(NODE));
      expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_FORBIDDEN");
      expect(e.k8sStatus?.message).toContain(`User "${info.readerUser}" cannot patch resource "nodes"`);
      expect((await c.getNode(NODE, { fresh: true })).unschedulable).toBe(false);
    } finally {
      await reader.close();
    }
  });

  it("keeps reservation leases with create, replace on a second put, a label selector and delete", async () => {
    const ns = "ct-k-leases";
    await kubeMust(info, "POST", "/api/v1/namespaces", { metadata: { name: ns } });
    const labels = { "rackform.io/budget": "ct" };
    await c.putLease(ns, "ct-a", { holder: "rackform", durationSeconds: 60, labels });
    await c.putLease(ns, "ct-a", { holder: "rackform-2", durationSeconds: 90, labels });
    await c.putLease(ns, "ct-b", { holder: "other", durationSeconds: 60, labels: { "rackform.io/budget": "x" } });
    const listed = await c.listLeases(ns, labels);
    expect(listed.map((l) => [l.name, l.holder, l.durationSeconds])).toEqual([["ct-a", "rackform-2", 90]]);
    expect(Number.isFinite(listed[0].renewTime)).toBe(true);
    await c.deleteLease(ns, "ct-a");
    await c.deleteLease(ns, "ct-a"); // already gone: resolves
    expect(await c.listLeases(ns, labels)).toEqual([]);
  });

  it("deletes a Node by hand: gone at once, a second delete is NOT_FOUND, its pods stay (no pod garbage collector)", async () => {
    const gone = "ct-k-gone";
    const ns = "ct-k-gone";
    await c.createNode(gone);
    await namespace(info, ns);
    await pod(info, ns, "left-behind", gone);
    await c.deleteNode(gone);
    expect((await caught(c.getNode(gone, { fresh: true }))).code).toBe("RACKFORM_ERR_KUBERNETES_NOT_FOUND");
    expect((await caught(c.deleteNode(gone))).code).toBe("RACKFORM_ERR_KUBERNETES_NOT_FOUND");
    // kube-controller-manager's pod GC would delete it (the lab models that); the API server keeps it.
    expect((await c.podsOn(gone)).map((p) => p.name)).toEqual(["left-behind"]);
    // createNode brings the object back, as an admin would for a kubelet that still runs.
    expect((await c.createNode(gone)).name).toBe(gone);
  });
});
