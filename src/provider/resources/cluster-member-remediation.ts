/**
 * rackform_cluster_member's side of the health remediation ladder (../shared/remediation.ts): which planned rung is
 * this member's to carry out, the max_unhealthy limit on how many nodes of a budget take a step in one apply, and the
 * last rung — the node drained, quarantined in its backend, and kept out of its scheduler for repair.
 */
import { type ApplyRequest, isUnknownValue, path } from "../../framework/index.js";
import { ladderActs, REPAIR, rungLabel } from "../shared/remediation.js";
import type { OfferedStep } from "../shared/rollout-handover.js";
import { budgetKey } from "./cluster-member-budget.js";
import { nodeOf, stateOf } from "./cluster-member-converge.js";
import { drainInBudget } from "./cluster-member-drain.js";
import type { ClusterMemberDeps } from "./cluster-member-ops.js";
import type { SchedulerOps } from "./cluster-member-scheduler.js";
import type { ClusterMemberPlan, ClusterMemberState } from "./cluster-member-schema.js";

type Update = ApplyRequest & { plan: ClusterMemberPlan; state: ClusterMemberState };

/** The rung the plan asks this member to carry out (a step, or repair), or undefined when there is none new. */
export function healthRung(plan: { readonly remediation: unknown }, state: ClusterMemberState): string | undefined {
  const r = plan.remediation;
  if (typeof r !== "string" || r === (state.remediation ?? "")) return undefined;
  return ladderActs(r) ? r : undefined;
}

/** The gate's new recheck (its evidence expired) this member is to carry out, or undefined. */
export function recheckDue(plan: { readonly recheck: unknown }, state: ClusterMemberState): string | undefined {
  const r = plan.recheck;
  return typeof r === "string" && r !== "" && r !== state.recheck ? r : undefined;
}

/**
 * Whether the node runs no jobs, so its expired evidence may be re-checked now: Slurm's state IDLE (a node with jobs
 * — ALLOCATED, MIXED — waits for a later plan); Kubernetes nodes are drained as any roll drains them (evictions
 * respect PodDisruptionBudgets). An info line when it waits.
 */
export async function idleForRecheck(r: Update, ops: SchedulerOps): Promise<boolean> {
  if (ops.kind !== "slurm") return true;
  const node = nodeOf(r.state);
  const o = await ops.lookup(node, true);
  const base = (o?.state ?? "").split("+")[0];
  if (base === "IDLE") return true;
  r.diagnostics.warning(
    `Evidence re-check waits: ${node}`,
    `The acceptance evidence of ${node} expired (evidence_max_age), but Slurm reports it ${o?.state ?? "unknown"}: the re-check runs only on a node without jobs. Nothing was done; the next plan plans it again.`,
    path("recheck"),
  );
  return false;
}

/**
 * The state of a member whose step was left for a later plan without an error (max_unhealthy reached, a busy node's
 * re-check): the configuration as planned — the engine holds a provider to it when nothing failed — and the node as
 * recorded. The step is planned again all the same: the deployment (or the gate) sees it never ran and plans its next
 * attempt.
 */
export function untouched(r: Update): ClusterMemberState {
  const { plan, state: st } = r;
  const known = <T>(v: T, was: T): T => (isUnknownValue(v) ? was : v);
  return {
    ...st,
    ...plan,
    id: st.id,
    state: st.state,
    joined: known(plan.joined, st.joined),
    partitions: st.partitions,
    drain_on_destroy: known(plan.drain_on_destroy, st.drain_on_destroy),
    wait_for_registration: known(plan.wait_for_registration, st.wait_for_registration),
  } as ClusterMemberState;
}

/** Whether the node may take its step under max_unhealthy; a warning when it may not. */
export function admitHealthStep(r: Update, deps: ClusterMemberDeps, rung: string): boolean {
  const max = typeof r.plan.max_unhealthy === "number" ? Math.floor(r.plan.max_unhealthy) : null;
  const key = budgetKey(r.plan);
  const node = nodeOf(r.state);
  if (deps.unhealthy.admit(key, node, max)) return true;
  const others = deps.unhealthy.admitted(key).join(", ");
  r.diagnostics.warning(
    // The node in the summary: the engines fold warnings of one summary into the first.
    `Remediation held back by max_unhealthy: ${node}`,
    `${node} needs its health remediation (${rungLabel(rung)}), but ${max} node(s) of this budget already take a ` +
      `step in this apply (${others}), the max_unhealthy limit. Nothing was done to ${node}: the next plan plans it ` +
      "again. Many nodes unhealthy at once is usually the fabric, the cooling or the power rather than the nodes: " +
      "check those before raising max_unhealthy.",
    path("max_unhealthy"),
  );
  return false;
}

/**
 * The last rung: the node drained within its budget, quarantined in its backend (the remedy the deployment offered),
 * and recorded out of service — not re-joined — until its findings clear and the ladder resets. Its budget slot is
 * given back as failed, so a halt names it.
 */
export async function holdForRepair(
  r: Update,
  deps: ClusterMemberDeps,
  ops: SchedulerOps,
  remedy: OfferedStep | undefined,
): Promise<ClusterMemberState> {
  const { plan, state: st, context: ctx, diagnostics: diags } = r;
  const node = nodeOf(st);
  const names = [node, st.gate_id];
  const drain = { ctx, ops, budget: deps.budget, pollMs: deps.pollMs, state: st, priv: r.private.value, diags };
  if (!(await drainInBudget({ ...drain, op: "update", names }))) return st;
  const machineId = plan.gate_id ?? st.gate_id ?? "";
  if (remedy && (await remedy.run({ context: ctx, diagnostics: diags, machineId, rebooted: false })) === "failed") {
    await deps.budget.releaseFailed(names, remedy.failure, ctx.log, diags);
    return st;
  }
  ctx.log.warn("node quarantined for repair: its health remediation is exhausted", { node });
  await deps.budget.releaseFailed(names, "quarantined for repair", ctx.log, diags);
  const o = await ops.lookup(node, false).catch(() => undefined);
  // What rackform manages is recorded as configured (features, labels, taints: not set on a node it holds out, and
  // set again when it rejoins); the node is out, not joined.
  const seen = stateOf(plan, o ?? { registered: true, state: st.state ?? "", joined: false });
  const { features, labels, taints } = plan;
  return { ...seen, features, labels, taints, partitions: st.partitions, joined: false };
}

/** A node held for repair reads as not joined by design: nothing to re-join while the ladder holds it. */
export const heldForRepair = (plan: { readonly remediation: unknown }, st: ClusterMemberState): boolean =>
  st.remediation === REPAIR && plan.remediation === REPAIR;
