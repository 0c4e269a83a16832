/** Parsing of real-shaped Kubernetes Node, Pod and Status JSON. */
import { describe, expect, it } from "vitest";
import { parseNode, parsePod, parseStatus } from "../../../src/clients/kubernetes/parse.js";
import {
  NODE_CORDONED,
  POD_DAEMONSET,
  POD_MIRROR,
  STATUS_CONFLICT_409,
  STATUS_EVICTION_429,
} from "../../support/clients/k8s-payloads.js";

describe("Kubernetes payloads", () => {
  it("reads a cordoned node: unschedulable, taints, labels, Ready, GPU capacity, resourceVersion", () => {
    const n = parseNode(NODE_CORDONED);
    if (typeof n === "string") throw new Error(n);
    expect(n).toMatchObject({ name: "gpu-a01", resourceVersion: "918273", unschedulable: true, ready: true });
    expect(n.taints).toEqual([
      { key: "node.kubernetes.io/unschedulable", effect: "NoSchedule" },
      { key: "rackform.io/acceptance", value: "pending", effect: "NoSchedule" },
    ]);
    expect(n.labels["rackform.io/rack"]).toBe("r12");
    expect(n.capacity["nvidia.com/gpu"]).toBe("8");
  });

  it("recognises DaemonSet and mirror pods, which a drain leaves", () => {
    expect(parsePod(POD_DAEMONSET)).toMatchObject({ daemonSet: true, mirror: false, nodeName: "gpu-a01" });
    expect(parsePod(POD_MIRROR)).toMatchObject({ daemonSet: false, mirror: true, phase: "Running" });
  });

  it("reads a PDB refusal and a conflict from metav1.Status bodies", () => {
    expect(parseStatus(JSON.stringify(STATUS_EVICTION_429))).toMatchObject({
      code: 429,
      reason: "TooManyRequests",
      causes: [{ reason: "DisruptionBudget" }],
    });
    expect(parseStatus(JSON.stringify(STATUS_CONFLICT_409))).toMatchObject({ code: 409, reason: "Conflict" });
    expect(parseStatus("<html>502</html>")).toBeUndefined();
  });

  it("fails to parse a node without metadata.name, saying so", () => {
    expect(parseNode({ metadata: {} })).toBe("a node has no metadata.name");
  });
});
