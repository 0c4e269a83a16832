/**
 * data rackform_scheduler_health's reading of one node, by the marks Slurm and Kubernetes put on it: what slurmctld or
 * the node lifecycle controller set by itself is a finding; what a person or rackform set is not.
 */
import { describe, expect, it } from "vitest";
import type { KubernetesNode } from "../../../src/clients/kubernetes/index.js";
import type { SlurmNode } from "../../../src/clients/slurm/index.js";
import { kubernetesFindings, slurmFindings } from "../../../src/provider/data-sources/scheduler-health.js";

const slurmNode = (o: Partial<SlurmNode>): SlurmNode => ({
  name: "n1",
  state: ["IDLE"],
  baseState: "IDLE",
  drain: false,
  drained: false,
  draining: false,
  down: false,
  schedulable: true,
  reason: "",
  reasonSetByUser: "",
  features: [],
  activeFeatures: [],
  partitions: ["gpu"],
  gres: "gpu:h100:8",
  comment: "",
  ...o,
});
const kinds = (n: SlurmNode) => slurmFindings(n).map((f) => `${f.kind} | ${f.component}`);

describe("slurmFindings", () => {
  it("reads slurmctld's own drains and DOWNs as findings, in its words", () => {
    const drained = { state: ["IDLE", "DRAIN"], drain: true, reasonSetByUser: "slurm" };
    expect(kinds(slurmNode({ ...drained, reason: "Kill task failed" }))).toEqual([
      "scheduler:drain | slurmctld: Kill task failed",
    ]);
    expect(
      kinds(
        slurmNode({ state: ["DOWN"], baseState: "DOWN", down: true, reason: "Prolog error", reasonSetByUser: "slurm" }),
      ),
    ).toEqual(["scheduler:down | slurmctld: Prolog error"]);
  });

  it("reads NOT_RESPONDING whoever set the reason, with the since of the reason", () => {
    const n = slurmNode({
      state: ["DOWN", "DRAIN", "NOT_RESPONDING"],
      baseState: "DOWN",
      down: true,
      drain: true,
      reason: "rackform: leaving",
      reasonSetByUser: "rackform",
      reasonChangedAt: Date.UTC(2026, 10, 27, 12),
    });
    expect(slurmFindings(n)).toEqual([
      {
        kind: "scheduler:not_responding",
        component: "slurmd: Not responding",
        health: "Critical",
        uri: "slurm:n1",
        since: "2026-11-27T12:00:00.000Z",
      },
    ]);
  });

  it("leaves out a person's drain, rackform's own, a node never registered, and a DOWN whose slurmd answers again", () => {
    const drained = { state: ["IDLE", "DRAIN"], drain: true };
    expect(kinds(slurmNode({ ...drained, reason: "RMA 4411", reasonSetByUser: "alice" }))).toEqual([]);
    expect(kinds(slurmNode({ ...drained, reason: "rackform: leaving", reasonSetByUser: "slurm" }))).toEqual([]);
    expect(kinds(slurmNode({ state: ["UNKNOWN", "NOT_RESPONDING"], baseState: "UNKNOWN" }))).toEqual([]);
    expect(
      kinds(
        slurmNode({
          state: ["DOWN"],
          baseState: "DOWN",
          down: true,
          reason: "Not responding",
          reasonSetByUser: "slurm",
        }),
      ),
    ).toEqual([]);
    expect(kinds(slurmNode({}))).toEqual([]);
  });
});

describe("kubernetesFindings", () => {
  const node = (o: Partial<KubernetesNode>): KubernetesNode => ({
    name: "k1",
    uid: "u",
    resourceVersion: "1",
    unschedulable: false,
    labels: {},
    taints: [],
    ready: true,
    capacity: {},
    ...o,
  });
  it("reads a Node not Ready as a finding in the Ready condition's words, and a cordon as nothing", () => {
    expect(kubernetesFindings(node({ unschedulable: true }))).toEqual([]);
    expect(
      kubernetesFindings(node({ ready: false, readyReason: "NodeStatusUnknown", readySince: Date.UTC(2026, 0, 2) })),
    ).toEqual([
      {
        kind: "scheduler:not_ready",
        component: "kubelet: NodeStatusUnknown",
        health: "Critical",
        uri: "kubernetes:k1",
        since: "2026-01-02T00:00:00.000Z",
      },
    ]);
  });
});
