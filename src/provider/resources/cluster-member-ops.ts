/**
 * rackform_cluster_member's handlers as top-level functions of (typed request, deps): join the node to its
 * scheduler, read it back (drift, a node deleted by hand), drain it within the disruption budget before it leaves,
 * and remove it from its scheduler when it leaves the rack for good. Tests call them with fake deps.
 */
import {
  type ApplyRequest,
  type Diagnostics,
  isUnknownValue,
  type PlanChange,
  type PlanRequest,
  path,
  type TypedRequest,
  timeoutMs,
  UNKNOWN,
} from "../../framework/index.js";
import type { HealthBudget } from "../budget/health-budget.js";
import type { ProviderData } from "../config/config.js";
import { SchedulerNotConfiguredError } from "../config/scheduler-config.js";
import { addClientError } from "../errors/client-errors.js";
import { warnTransientRead } from "../shared/read-hold.js";
import { REPAIR } from "../shared/remediation.js";
import type { RolloutHandovers } from "../shared/rollout-handover.js";
import { bounded } from "../shared/timeouts.js";
import { budgetKey, type MemberBudget, PRIVATE_MAX_UNAVAILABLE } from "./cluster-member-budget.js";
import { ABSENT, converge, kindOf, LABEL, nodeOf, site, what } from "./cluster-member-converge.js";
import { drainInBudget } from "./cluster-member-drain.js";
import { heldByPerson, readNode } from "./cluster-member-held.js";
import { healthRung, heldForRepair, untouched } from "./cluster-member-remediation.js";
import {
  leaveForGood,
  PRIVATE_SUCCESSOR,
  removedForGood,
  successorOf,
  withoutSuccessor,
} from "./cluster-member-removal.js";
import { createThroughLadder, isRollingReimage, ladderAtCreate, rollNode } from "./cluster-member-rollout.js";
import { kubernetesOps, type Observed, type SchedulerOps, slurmOps } from "./cluster-member-scheduler.js";
import {
  type ClusterMemberConfig,
  type ClusterMemberPlan,
  type ClusterMemberState,
  type clusterMemberSchema,
  DEFAULT_TIMEOUT_MS,
  SCHEDULERS,
  type SchedulerKind,
  validateClusterMember,
} from "./cluster-member-schema.js";

/** What rackform_cluster_member's handlers use. */
export interface ClusterMemberDeps {
  /** One scheduler's operations; throws SchedulerNotConfiguredError when the provider block leaves it out. */
  scheduler(kind: SchedulerKind): SchedulerOps;
  /** The process's disruption budget, shared by every member. */
  readonly budget: MemberBudget;
  /** Records that a node's teardown started in this process (it orders deployments and images). */
  tearingDown(): void;
  /** Time between registration and drain polls, in milliseconds. */
  readonly pollMs: number;
  /** The reimages and gates rolling deployments and acceptances offered in this apply (rollout-handover.ts). */
  readonly rollouts: Pick<RolloutHandovers, "take">;
  /** Health remediation steps taken per budget in this process, against max_unhealthy. */
  readonly unhealthy: Pick<HealthBudget, "admit" | "admitted">;
}

/** The deps of the configured provider: its scheduler clients, disruption budget, image work and poll interval. */
export function clusterMemberDeps(providerData: unknown): ClusterMemberDeps {
  const data = providerData as ProviderData;
  return {
    scheduler(kind) {
      if (kind === "slurm") return slurmOps(data.schedulers.slurm());
      if (kind === "kubernetes") return kubernetesOps(data.schedulers.kubernetes());
      throw new Error(`unknown scheduler ${JSON.stringify(kind)}`);
    },
    budget: data.budget,
    tearingDown: () => data.images.tearingDown(),
    pollMs: data.timings.memberPollMs,
    rollouts: data.rollouts,
    unhealthy: data.unhealthy,
  };
}

type Member = ClusterMemberPlan | ClusterMemberState;

/** The scheduler's operations, or undefined after a diagnostic (not configured, bad URL). */
function opsFor(v: Member, deps: ClusterMemberDeps, diags: Diagnostics): SchedulerOps | undefined {
  const kind = kindOf(v);
  try {
    return deps.scheduler(kind);
  } catch (e) {
    if (e instanceof SchedulerNotConfiguredError) {
      diags.error(`${LABEL[kind]} is not configured`, `${what(v)}: ${e.message}.`, path("scheduler"));
    } else addClientError(diags, e, `reach ${LABEL[kind] ?? "the scheduler"}`, site(v));
    return undefined;
  }
}

/**
 * Joins the node (waiting for its registration), then gives back its disruption-budget slot, joined or not: this
 * node's recycling is over for this run, so the next node may drain.
 */
export async function createMember(
  r: ApplyRequest & { plan: ClusterMemberPlan },
  deps: ClusterMemberDeps,
): Promise<ClusterMemberState | undefined> {
  const { plan, context: ctx } = r;
  const ops = opsFor(plan, deps, r.diagnostics);
  r.private.set(withoutSuccessor(r.private.value));
  if (ops && ladderAtCreate(plan)) return createThroughLadder(r, deps, ops);
  const s = ops && (await converge({ ops, pollMs: deps.pollMs, ctx, plan, prior: null, diags: r.diagnostics }));
  const why = s?.joined === true ? "rejoined" : "did not rejoin";
  const released = deps.budget.release([nodeOf(plan), plan.gate_id], why, ctx.log);
  // Drained by a run killed since: its reservation on this node goes too (not only when its lease ends).
  // Only members with a limit ever reserve.
  if (released === undefined && ops && typeof plan.max_unavailable === "number")
    await deps.budget.dropStale(nodeOf(plan), ops.shared(budgetKey(plan)), ctx.log);
  // The engine may stop this process right after this answer: the reservation's removal must be done by then.
  await deps.budget.settle();
  return s;
}

/**
 * Re-joins a node (drained, cordoned or deleted by hand) and sets its features, labels and taints; a new image_ref
 * is the node's rolling reimage (cluster-member-rollout.ts).
 */
export async function updateMember(
  r: ApplyRequest & { plan: ClusterMemberPlan; state: ClusterMemberState },
  deps: ClusterMemberDeps,
): Promise<ClusterMemberState | undefined> {
  const ops = opsFor(r.plan, deps, r.diagnostics);
  if (ops && isRollingReimage(r.plan, r.state)) {
    const rolled = await rollNode(r, deps, ops);
    r.private.set(withoutSuccessor(r.private.value));
    return rolled;
  }
  // A node a person drained is not re-joined by a change of its configuration: recorded, left out.
  if (ops && heldByPerson(r.private.value)) return untouched(r);
  const s =
    ops &&
    (await converge({
      ops,
      pollMs: deps.pollMs,
      ctx: r.context,
      plan: r.plan,
      prior: r.state,
      diags: r.diagnostics,
    }));
  r.private.set(withoutSuccessor(r.private.value));
  return s;
}

/**
 * The node as its scheduler reports it. Drift (drained, cordoned, deleted by hand) reads back as joined = false with
 * a warning, never as an error or a gone member; a failed read keeps the recorded state.
 */
export async function readMember(
  r: ApplyRequest & { state: ClusterMemberState },
  deps: ClusterMemberDeps,
): Promise<ClusterMemberState> {
  const st = r.state;
  const ops = opsFor(st, deps, r.diagnostics);
  if (!ops) return st;
  const ms = timeoutMs({ timeouts: st.timeouts }, "read", DEFAULT_TIMEOUT_MS.read);
  let o: Observed | undefined;
  try {
    o = await bounded(r.context, ms, "read", what(st), () => ops.lookup(nodeOf(st), false));
  } catch (e) {
    if (st.joined !== null && warnTransientRead(r.diagnostics, e, what(st), nodeOf(st))) return st;
    addClientError(r.diagnostics, e, `read the node from ${LABEL[ops.kind]}`, site(st));
    return st;
  }
  const imported = st.joined === null;
  if (!o) return imported ? notThereAtImport(r, ops) : gone(r.diagnostics, st, ops);
  return readNode(r, o, ops, imported);
}

/** An imported node the scheduler does not know: an error naming what it knows; the state stays as it is. */
async function notThereAtImport(r: TypedRequest & { state: ClusterMemberState }, ops: SchedulerOps) {
  const st = r.state;
  r.diagnostics.error(
    `No such ${LABEL[ops.kind]} node`,
    `${what(st)}: ${await ops.whatIsThere(nodeOf(st)).catch((e: Error) => e.message)}. Check the import id (slurm:<node> or kubernetes:<node>).`,
    path("node"),
  );
  return st;
}

/**
 * Deleted from the scheduler outside rackform while rackform has it joined: kept as not joined, so the plan is this
 * member's in-place re-join (planMember), not a create that would wait for a registration that a running daemon
 * never sends.
 */
function gone(diags: Diagnostics, st: ClusterMemberState, ops: SchedulerOps): ClusterMemberState {
  diags.warning(
    `Node gone from ${LABEL[ops.kind]}: ${nodeOf(st)}`,
    `${what(st)} is no longer known to ${LABEL[ops.kind]}: it was deleted outside rackform. The plan updates this rackform_cluster_member to bring it back (${ops.kind === "kubernetes" ? "rackform creates the Node object again and waits for its kubelet's next status update" : "only a restarted slurmd registers it again"}).`,
    path("joined"),
  );
  return { ...st, joined: false, state: ABSENT };
}

/**
 * Drains the node (after its disruption-budget slot) before it leaves, and removes it from its scheduler when it
 * leaves the rack for good. Nothing is killed: a drain that runs out of time fails, the member stays in state.
 */
export async function deleteMember(
  r: ApplyRequest & { state: ClusterMemberState },
  deps: ClusterMemberDeps,
): Promise<void> {
  const st = r.state;
  if (st.drain_on_destroy === false) return;
  const ops = opsFor(st, deps, r.diagnostics);
  if (!ops) return;
  const { context: ctx, diagnostics: diags } = r;
  const { budget, pollMs } = deps;
  const node = nodeOf(st);
  deps.tearingDown();
  const drain = { ctx, ops, budget, pollMs, state: st, priv: r.private.value, diags, op: "delete" as const };
  if (!(await drainInBudget({ ...drain, names: [node] }))) return;
  // Removed from the rack (not the destroy half of a reimage): the node leaves its scheduler for real.
  if (removedForGood(st, r.private.value)) {
    const onError = (e: unknown) => addClientError(diags, e, `remove the node from ${LABEL[ops.kind]}`, site(st));
    await leaveForGood({ ctx, ops, node, what: what(st), budget, diags, onError });
  }
}

/**
 * Carries the planned limit and the member's successor in the planned private data, names the id a replacement
 * keeps, and plans the re-join of a node that read back as not joined.
 */
export function planMember(
  r: PlanRequest<typeof clusterMemberSchema>,
): PlanChange<typeof clusterMemberSchema> | undefined {
  const { plan, state } = r;
  if (!plan) return undefined;
  // The destroy half of a replacement sees only the prior state: the planned limit reaches it through private.
  const max = plan.max_unavailable;
  let priv = r.private;
  if (max === null || typeof max === "number") priv = { ...priv, [PRIVATE_MAX_UNAVAILABLE]: max };
  // The member goes on existing under this id: a destroy half of this plan only drains (see cluster-member-removal).
  priv = { ...priv, [PRIVATE_SUCCESSOR]: successorOf(plan) };
  // The id is scheduler:node, so a replacement's plan can name it (one less "known after apply" per node).
  const id = successorOf(plan);
  let next: ClusterMemberConfig | undefined;
  if (id !== null && plan.id !== id) next = { ...plan, id };
  // Read back as not joined, or a rolling reimage (the update drains, reimages, gates and rejoins the node).
  const rolls = (st: ClusterMemberState) => isRollingReimage(plan, st) || isUnknownValue(plan.firmware_ref);
  // Not re-joined: a node the ladder holds for repair, or one a person drained (cluster-member-held.ts).
  const out = (st: ClusterMemberState) => st.joined === false && !heldForRepair(plan, st) && !heldByPerson(r.private);
  // The ladder's last rung drains the node and keeps it out: it is planned not joined.
  if (state && healthRung(plan, state) === REPAIR) next = { ...(next ?? plan), joined: false, state: UNKNOWN };
  else if (state && (out(state) || rolls(state))) next = { ...(next ?? plan), joined: true, state: UNKNOWN };
  return next ? { plan: next, private: priv } : { private: priv };
}

/** Cross-attribute and per-scheduler checks of the config, before any scheduler is called. */
export function validateMember(r: TypedRequest & { config: ClusterMemberConfig }): void {
  validateClusterMember(r.config, r.diagnostics);
}

/** The import id is scheduler:node. */
export function importMember(r: TypedRequest & { id: string }): Partial<ClusterMemberState> | undefined {
  const m = /^(slurm|kubernetes):(\S+)$/.exec(r.id.trim());
  if (!m) {
    r.diagnostics.error(
      "Invalid import id for rackform_cluster_member",
      `Expected <scheduler>:<node> with scheduler one of ${SCHEDULERS.join(", ")}, e.g. slurm:r01-n01 or kubernetes:r01-n01; got ${JSON.stringify(r.id)}.`,
    );
    return undefined;
  }
  return {
    id: `${m[1]}:${m[2]}`,
    scheduler: m[1],
    node: m[2],
    drain_on_destroy: true,
    wait_for_registration: true,
  };
}
