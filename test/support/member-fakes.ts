/**
 * rackform_cluster_member's seams in memory for unit tests: a scheduler (nodes by name, every call recorded) and the
 * member's deps over it with the real DisruptionBudget (or a given one).
 */

import { UNKNOWN } from "../../src/framework/index.js";
import { DisruptionBudget } from "../../src/provider/budget/disruption-budget.js";
import { HealthBudget } from "../../src/provider/budget/health-budget.js";
import { SchedulerNotConfiguredError } from "../../src/provider/config/scheduler-config.js";
import type { MemberBudget } from "../../src/provider/resources/cluster-member-budget.js";
import type { ClusterMemberDeps } from "../../src/provider/resources/cluster-member-ops.js";
import {
  NodeGoneError,
  type Observed,
  type SchedulerOps,
} from "../../src/provider/resources/cluster-member-scheduler.js";
import type {
  ClusterMemberPlan,
  ClusterMemberState,
  SchedulerKind,
} from "../../src/provider/resources/cluster-member-schema.js";
import { RolloutHandovers } from "../../src/provider/shared/rollout-handover.js";

/** A member's plan for node n1 of a Slurm cluster (gate maas:n1), computed values unknown; `o` overrides. */
export const memberPlan = (o: Partial<ClusterMemberPlan> = {}): ClusterMemberPlan => ({
  id: UNKNOWN,
  node: "n1",
  scheduler: "slurm",
  gate_id: "maas:n1",
  features: ["h100"],
  partitions: UNKNOWN,
  labels: null,
  taints: null,
  drain_on_destroy: true,
  max_unavailable: null,
  image_ref: null,
  firmware_ref: null,
  remediation: null,
  max_unhealthy: null,
  recheck: null,
  wait_for_registration: true,
  state: UNKNOWN,
  joined: UNKNOWN,
  timeouts: null,
  ...o,
});

/** The recorded member of node `n` (default n1, gate maas:n1), joined and IDLE in Slurm's gpu partition; `o` overrides. */
export const memberState = (o: Partial<ClusterMemberState> = {}, n = "n1"): ClusterMemberState => ({
  id: `slurm:${n}`,
  node: n,
  scheduler: "slurm",
  gate_id: `maas:${n}`,
  features: ["h100"],
  partitions: ["gpu"],
  labels: null,
  taints: null,
  drain_on_destroy: true,
  max_unavailable: null,
  image_ref: null,
  firmware_ref: null,
  remediation: null,
  max_unhealthy: null,
  recheck: null,
  wait_for_registration: true,
  state: "IDLE",
  joined: true,
  timeouts: null,
  ...o,
});

/** A scheduler in memory: nodes by name, every call recorded. */
export function fakeScheduler(kind: SchedulerKind = "slurm") {
  const nodes = new Map<string, Observed>();
  const calls: string[] = [];
  const behaviour = { drainFails: undefined as Error | undefined, registerAfter: 0, readFails: undefined as unknown };
  let lookups = 0;
  const ops: SchedulerOps = {
    kind,
    async lookup(node) {
      calls.push(`lookup ${node}`);
      if (behaviour.readFails) throw behaviour.readFails;
      lookups++;
      if (behaviour.registerAfter > 0 && lookups > behaviour.registerAfter && !nodes.has(node))
        nodes.set(node, { registered: true, state: "DOWN", joined: false, features: [], partitions: ["gpu"] });
      return nodes.get(node);
    },
    whatIsThere: async (node) => `the scheduler knows no node named ${node}`,
    async recreate(node, spec) {
      calls.push(`recreate ${node}`);
      if (kind === "slurm") throw new NodeGoneError(node, `slurmctld no longer knows node ${node}`, "Restart slurmd.");
      nodes.set(node, { registered: true, state: "Ready", joined: false, labels: spec.labels ?? {}, taints: [] });
    },
    async join(node, spec) {
      calls.push(`join ${node}`);
      const o: Observed =
        kind === "slurm"
          ? { registered: true, state: "IDLE", joined: true, features: spec.features ?? ["base"], partitions: ["gpu"] }
          : { registered: true, state: "Ready", joined: true, labels: { ...spec.labels }, taints: spec.taints ?? [] };
      nodes.set(node, o);
      return o;
    },
    shared: () => ({
      survey: async () => [],
      reserve: async (node) => void calls.push(`reserve ${node}`),
      unreserve: async (node) => void calls.push(`unreserve ${node}`),
    }),
    async drain(node) {
      calls.push(`drain ${node}`);
      if (behaviour.drainFails) throw behaviour.drainFails;
    },
    async remove(node) {
      calls.push(`remove ${node}`);
      nodes.delete(node);
      return { outcome: "deleted" };
    },
  };
  return { ops, nodes, calls, behaviour };
}

export function fakeDeps(kind: SchedulerKind = "slurm", budget: MemberBudget = new DisruptionBudget({ tickMs: 5 })) {
  const s = fakeScheduler(kind);
  let teardowns = 0;
  const deps: ClusterMemberDeps = {
    scheduler(k) {
      if (k !== kind) throw new SchedulerNotConfiguredError(k);
      return s.ops;
    },
    budget,
    tearingDown: () => void teardowns++,
    pollMs: 1,
    rollouts: new RolloutHandovers(),
    unhealthy: new HealthBudget(),
  };
  return { ...s, deps, teardowns: () => teardowns };
}

type FakeDeps = ReturnType<typeof fakeDeps>;

/**
 * Offers node `n`'s ladder step as its deployment and gate would in an apply: a power cycle, then a gate run that
 * fails with an error diagnostic unless `gatePasses`; each run recorded in `f.calls`.
 */
export function offerLadderStep(f: FakeDeps, n: string, gatePasses = true): void {
  const rollouts = f.deps.rollouts as RolloutHandovers;
  rollouts.offerRemedy(`maas:${n}`, {
    what: `power cycle ${n}`,
    failure: "failed its power cycle",
    run: async () => {
      f.calls.push(`power cycle ${n}`);
      return "done";
    },
  });
  rollouts.offerGate(`maas:${n}`, {
    what: `gate ${n}`,
    failure: "failed its acceptance gate",
    run: async (s) => {
      f.calls.push(`gate ${n}`);
      if (gatePasses) return "done";
      s.diagnostics.error("Acceptance gate failed", `${n} failed`);
      return "failed";
    },
  });
}

/** Offers node `n`'s repair as its deployment would: the backend's quarantine, which leaves the node drained. */
export function offerRepair(f: FakeDeps, n: string): void {
  (f.deps.rollouts as RolloutHandovers).offerRemedy(`maas:${n}`, {
    what: `quarantine ${n} for repair`,
    failure: "quarantined for repair",
    run: async () => {
      f.calls.push(`quarantine ${n}`);
      f.nodes.set(n, { registered: true, state: "DRAINED", joined: false, partitions: ["gpu"] });
      return "done";
    },
  });
}
