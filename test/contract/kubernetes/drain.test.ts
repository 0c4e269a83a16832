/**
 * KubernetesClient.drain against a real kube-apiserver: evictions through the policy/v1 Eviction API with the API
 * server's own PodDisruptionBudget check. No kubelet runs the pods (bound by spec.nodeName) and no disruption
 * controller computes the budget: the test writes pod status (Running, Ready) in the kubelet's place and the PDB's
 * status in the controller's, then sees what the API server decides — a budget not yet observed refuses, one with no
 * disruptions left refuses with its numbers, an eviction spends one (disruptedPods), a Pending pod ignores the budget,
 * a DaemonSet's pod is left, and an evicted pod stays Terminating until a kubelet confirms its end — the drain waits for
 * that, as kubectl drain does (the test plays the kubelet's part).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KubernetesClient, KubernetesError } from "../../../src/clients/kubernetes/index.js";
import { kubeMust, kubeRequest, type RealKubeInfo } from "../../support/real-kube.js";
import { caught, client, markRunning, namespace, pdbStatus, pod, realKube } from "./support.js";

const NODE = "ct-k-drain";
const NS = "ct-k-drain";
const WEB = { app: "web" };
let info: RealKubeInfo;
let c: KubernetesClient;

const drainFast = () => c.drain(NODE, { timeoutMs: 1_500, pollMs: 300 });
const refused = (e: KubernetesError) => e.details as { pending: string[]; evicted: string[]; refused: string };
const pdbPath = `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets/web-pdb`;

beforeAll(async () => {
  info = await realKube();
  c = client(info);
  await c.createNode(NODE);
  await namespace(info, NS);
  const ds = await kubeMust(info, "POST", `/apis/apps/v1/namespaces/${NS}/daemonsets`, {
    metadata: { name: "agent" },
    spec: {
      selector: { matchLabels: { app: "agent" } },
      template: {
        metadata: { labels: { app: "agent" } },
        spec: { containers: [{ name: "agent", image: "registry.invalid/agent:1" }] },
      },
    },
  });
  const uid = (ds.metadata as { uid: string }).uid;
  await pod(info, NS, "agent-x", NODE, {
    labels: { app: "agent" },
    owner: { apiVersion: "apps/v1", kind: "DaemonSet", name: "agent", uid, controller: true },
  });
  for (const name of ["web-1", "web-2"]) {
    await pod(info, NS, name, NODE, { labels: WEB });
    await markRunning(info, NS, name);
  }
  // Also covered by the budget, but Pending: the API server evicts it without asking the budget.
  await pod(info, NS, "web-pending", NODE, { labels: WEB });
  await kubeMust(info, "POST", `/apis/policy/v1/namespaces/${NS}/poddisruptionbudgets`, {
    metadata: { name: "web-pdb" },
    spec: { minAvailable: 2, selector: { matchLabels: WEB } },
  });
});
afterAll(async () => {
  await c?.close();
});

describe("KubernetesClient.drain against a real kube-apiserver", () => {
  it("cordons, leaves the DaemonSet pod, evicts the Pending pod, and times out on a budget not yet observed", async () => {
    const e = await caught(drainFast());
    expect(e.code).toBe("RACKFORM_ERR_KUBERNETES_DRAIN_TIMEOUT");
    expect(refused(e).pending).toEqual([`${NS}/web-1`, `${NS}/web-2`]);
    expect(refused(e).evicted).toEqual([`${NS}/web-pending`]);
    expect(refused(e).refused).toContain("The disruption budget web-pdb is still being processed by the server.");
    expect((await c.getNode(NODE, { fresh: true })).unschedulable).toBe(true);
    const pods = Object.fromEntries((await c.podsOn(NODE)).map((p) => [p.name, p]));
    expect(pods["agent-x"].daemonSet).toBe(true);
    expect(pods["web-1"].phase).toBe("Running");
  });

  it("is refused with the budget's numbers while the controller says no disruption is allowed", async () => {
    await pdbStatus(info, NS, "web-pdb", {
      disruptionsAllowed: 0,
      currentHealthy: 2,
      desiredHealthy: 2,
      expectedPods: 2,
    });
    const e = await caught(drainFast());
    expect(refused(e).pending).toEqual([`${NS}/web-1`, `${NS}/web-2`]);
    expect(refused(e).refused).toContain("The disruption budget web-pdb needs 2 healthy pods and has 2 currently");
  });

  it("spends the one disruption allowed on the first pod; the API server records it and refuses the second", async () => {
    await pdbStatus(info, NS, "web-pdb", {
      disruptionsAllowed: 1,
      currentHealthy: 3,
      desiredHealthy: 2,
      expectedPods: 3,
    });
    const e = await caught(drainFast());
    expect(refused(e).pending).toEqual([`${NS}/web-2`]);
    expect(refused(e).evicted).toContain(`${NS}/web-1`);
    const status = (await kubeMust(info, "GET", pdbPath)).status as {
      disruptionsAllowed: number;
      disruptedPods?: Record<string, string>;
    };
    expect(status.disruptionsAllowed).toBe(0);
    expect(Object.keys(status.disruptedPods ?? {})).toEqual(["web-1"]);
  });

  it("finishes once the budget allows again and the evicted pods are gone: an eviction only starts a graceful deletion", async () => {
    await pdbStatus(info, NS, "web-pdb", {
      disruptionsAllowed: 1,
      currentHealthy: 2,
      desiredHealthy: 1,
      expectedPods: 2,
    });
    // Evicted pods stay Terminating until their kubelet confirms: with none, the drain waits, then times out.
    const stuck = await caught(drainFast());
    expect(stuck.message).toContain("evicted pods still terminating");
    const web2 = await kubeMust(info, "GET", `/api/v1/namespaces/${NS}/pods/web-2`);
    expect((web2.metadata as { deletionTimestamp?: string }).deletionTimestamp).toBeTruthy();
    const conds = (web2.status as { conditions: { type: string; reason?: string }[] }).conditions;
    expect(conds.find((x) => x.type === "DisruptionTarget")?.reason).toBe("EvictionByEvictionAPI");
    // A kubelet's part: a pod being deleted is stopped and removed (grace period 0). The drain then returns.
    const kubelet = setInterval(() => {
      for (const name of ["web-1", "web-2", "web-pending"]) {
        void kubeRequest(info, "DELETE", `/api/v1/namespaces/${NS}/pods/${name}?gracePeriodSeconds=0`);
      }
    }, 200);
    try {
      const done = await c.drain(NODE, { timeoutMs: 15_000, pollMs: 300 });
      expect(done.skipped).toEqual([`${NS}/agent-x`]);
      expect([...done.evicted].sort()).toEqual([`${NS}/web-1`, `${NS}/web-2`, `${NS}/web-pending`]);
      expect((await c.podsOn(NODE)).map((p) => p.name)).toEqual(["agent-x"]);
    } finally {
      clearInterval(kubelet);
    }
  });
});
