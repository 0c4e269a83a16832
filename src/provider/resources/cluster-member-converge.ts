/**
 * What rackform_cluster_member's create and update share: the state after observing a node, and `converge` — wait for
 * the node's registration (or bring back a node deleted by hand), then join it — with its diagnostics.
 */
import { isClientError } from "../../clients/errors.js";
import { abortableSleep } from "../../clients/http/retry.js";
import {
  type Context,
  type Diagnostics,
  isUnknownValue,
  path,
  timeoutMs,
  type Unknowable,
} from "../../framework/index.js";
import { addClientError } from "../errors/client-errors.js";
import { bounded, OperationTimeoutError } from "../shared/timeouts.js";
import {
  InvalidRegistrationError,
  type Reboot,
  refuseInvalid,
  reportInvalidRegistration,
  shown,
  waitForRegistration,
} from "./cluster-member-registration.js";
import { type JoinSpec, NodeGoneError, type Observed, type SchedulerOps } from "./cluster-member-scheduler.js";
import {
  type ClusterMemberPlan,
  type ClusterMemberState,
  DEFAULT_TIMEOUT_MS,
  type SchedulerKind,
} from "./cluster-member-schema.js";

/** The `state` of a member whose node the scheduler no longer knows. */
export const ABSENT = "absent";

/** Each scheduler's name as diagnostics say it. */
export const LABEL: Record<SchedulerKind, string> = { slurm: "Slurm", kubernetes: "Kubernetes" };
const DAEMON: Record<SchedulerKind, string> = { slurm: "slurmd", kubernetes: "the kubelet" };

/** A member as planned or recorded: what names its node. */
type Named = { readonly scheduler: string; readonly node: string };

/** The member's scheduler (its validator admits only SCHEDULERS). */
export const kindOf = (v: Named): SchedulerKind => v.scheduler as SchedulerKind;
/** The member's node name in its scheduler. */
export const nodeOf = (v: Named): string => v.node;
/** The node as diagnostics name it, e.g. "Slurm node r01-n01". */
export const what = (v: Named) => `${LABEL[kindOf(v)] ?? "scheduler"} node ${nodeOf(v)}`;
/** Where a failure points: the node for not-found, the scheduler (and its provider `<scheduler>.url`) for the rest. */
export const site = (v: Named) => ({
  what: what(v),
  notFoundPath: path("node"),
  endpointPath: path("scheduler"),
  endpointSetting: LABEL[kindOf(v)] ? `${kindOf(v)}.url` : undefined,
});

/** A planned value known at apply (computed attributes with a default are); an unknown one is recorded as null. */
export const known = <T>(v: Unknowable<T | null>): T | null => (isUnknownValue(v) ? null : v);

type TaintValue = { key: string; value: string | null; effect: string };

/** The state after observing the node; `v` says which labels and taints rackform manages. */
export function stateOf(v: ClusterMemberPlan | ClusterMemberState, o: Observed, imported = false): ClusterMemberState {
  const base = {
    ...v,
    id: `${kindOf(v)}:${nodeOf(v)}`,
    state: o.state,
    joined: o.joined,
    drain_on_destroy: known(v.drain_on_destroy),
    wait_for_registration: known(v.wait_for_registration),
  };
  if (kindOf(v) === "slurm") {
    return {
      ...base,
      features: v.features === null && !imported ? null : [...(o.features ?? [])],
      partitions: [...(o.partitions ?? [])],
    };
  }
  const managedLabels = v.labels;
  const labels = managedLabels
    ? Object.fromEntries(
        Object.keys(managedLabels).flatMap((k) => (o.labels?.[k] !== undefined ? [[k, o.labels[k]]] : [])),
      )
    : null;
  const now = o.taints ?? [];
  const ts = v.taints
    ? v.taints.flatMap((m) => {
        const t = now.find((x) => x.key === m.key);
        return t ? [{ key: t.key, value: t.value ?? null, effect: t.effect }] : [];
      })
    : null;
  return { ...base, partitions: null, labels, taints: ts };
}

function taintsOf(v: ClusterMemberState["taints"]): TaintValue[] | null {
  return v ? v.map((t) => ({ key: t.key, value: t.value, effect: t.effect })) : null;
}

function joinSpec(plan: ClusterMemberPlan, prior: ClusterMemberState | null): JoinSpec {
  const labels = plan.labels ? { ...plan.labels } : null;
  const ts = taintsOf(plan.taints);
  const priorLabels = prior ? Object.keys(prior.labels ?? {}) : [];
  const priorTaints = prior ? (taintsOf(prior.taints) ?? []).map((t) => t.key) : [];
  return {
    features: plan.features ? [...plan.features] : null,
    labels,
    taints: ts?.map((t) => ({
      key: t.key,
      effect: t.effect as "NoSchedule",
      ...(t.value !== null ? { value: t.value } : {}),
    })) as JoinSpec["taints"],
    priorLabelKeys: priorLabels.filter((k) => !labels || !(k in labels)),
    priorTaintKeys: priorTaints.filter((k) => !ts?.some((t) => t.key === k)),
  };
}

/** A timeout as diagnostics say it: whole minutes as "30m", else seconds. */
export const fmt = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);

/** What a create or update converges: the plan, the prior state (null on create), the scheduler and its poll. */
export interface Convergence {
  readonly ops: SchedulerOps;
  readonly pollMs: number;
  readonly ctx: Context;
  readonly plan: ClusterMemberPlan;
  readonly prior: ClusterMemberState | null;
  readonly diags: Diagnostics;
  /** The node was rebooted: the registration waited for is one after it (cluster-member-registration.ts). */
  readonly reboot?: Reboot;
}

/** Waits for registration (create only), then joins; the state, or undefined after a diagnostic. */
export async function converge(c: Convergence): Promise<ClusterMemberState | undefined> {
  const { ctx, plan, prior } = c;
  const op = prior ? "update" : "create";
  const ms = timeoutMs({ timeouts: plan.timeouts }, op, DEFAULT_TIMEOUT_MS[op]);
  const wait = plan.wait_for_registration !== false;
  const run: Run = { phase: prior ? "join" : "register", rejected: undefined };
  try {
    const o = await bounded(ctx, ms, op, what(plan), (signal) => registerAndJoin(c, run, signal));
    return stateOf(plan, o);
  } catch (e) {
    await reportNotJoined(c, { run, e, ms, wait });
    return undefined;
  }
}

/** How far a convergence got: its phase, and the scheduler's last refusal to admit the node. */
interface Run {
  phase: "register" | "join";
  rejected: unknown;
}

/** Inside the bound: brings back a node deleted by hand, waits for its registration, then joins it. */
async function registerAndJoin(c: Convergence, run: Run, signal: AbortSignal): Promise<Observed> {
  const { ops, pollMs, ctx, plan, prior } = c;
  const node = nodeOf(plan);
  const op = prior ? "update" : "create";
  const wait = plan.wait_for_registration !== false;
  // Deleted from the scheduler by hand (read kept it as ABSENT): bring its object back, then wait for its daemon.
  if (prior && (await ops.lookup(node, true)) === undefined) {
    ctx.log.info("the node is gone from the scheduler; creating it again", { scheduler: ops.kind, node });
    await ops.recreate(node, joinSpec(plan, prior));
    run.phase = "register";
  }
  let seen: Observed | undefined;
  if (run.phase === "register") {
    if (wait) seen = await waitForRegistration({ ops, node, pollMs, ctx, reboot: c.reboot }, signal);
    else if (!(seen = await ops.lookup(node, true))?.registered) throw new OperationTimeoutError(what(plan), 0, op);
    run.phase = "join";
  } else seen = await ops.lookup(node, true);
  // slurmctld refused the registration: no RESUME admits the node, and only slurmd's next start changes that.
  refuseInvalid(node, seen);
  ctx.log.info("joining the scheduler", { scheduler: ops.kind, node });
  return joinUntilAdmitted(c, run, signal);
}

/**
 * Joins the node. slurmctld may set a just-resumed node DOWN again ("Not responding": its slurmd re-registered or
 * missed a ping); the node is admitted once it stays schedulable, so a rejection is retried until the timeout — unless
 * slurmctld now refuses the node's registration, which no retry changes.
 */
async function joinUntilAdmitted(c: Convergence, run: Run, signal: AbortSignal): Promise<Observed> {
  const { ops, pollMs, ctx, plan, prior } = c;
  const node = nodeOf(plan);
  let said: string | undefined;
  for (;;) {
    try {
      return await ops.join(node, joinSpec(plan, prior));
    } catch (e) {
      if (!isClientError(e, "RACKFORM_ERR_SLURM_REJECTED")) throw e;
      run.rejected = e;
      const o = await ops.lookup(node, true);
      refuseInvalid(node, o);
      const now = shown(o);
      if (now !== said) {
        ctx.log.warn("the scheduler did not admit the node yet; retrying", { node, scheduler_shows: now });
        said = now;
      }
      await abortableSleep(pollMs, signal);
    }
  }
}

/** The diagnostic of a convergence that failed: gone, refused, never registered, timed out or a client error. */
async function reportNotJoined(
  c: Convergence,
  f: { readonly run: Run; readonly e: unknown; readonly ms: number; readonly wait: boolean },
): Promise<void> {
  const { ops, plan, diags } = c;
  const { run, e, ms, wait } = f;
  const node = nodeOf(plan);
  if (e instanceof InvalidRegistrationError) {
    reportInvalidRegistration(diags, e);
    return;
  }
  if (e instanceof NodeGoneError) {
    diags.error(
      `${LABEL[ops.kind]} node ${node} is gone`,
      `${e.message}. Nothing was changed.\n${e.fix}`,
      path("node"),
    );
    return;
  }
  if (run.rejected && e instanceof OperationTimeoutError) {
    addClientError(diags, run.rejected, `join ${LABEL[ops.kind]}`, site(plan));
    return;
  }
  if (run.phase === "register" && e instanceof OperationTimeoutError) {
    let there: string;
    try {
      there = await ops.whatIsThere(node);
    } catch (e2) {
      there = `asking ${LABEL[ops.kind]} for its nodes failed too: ${(e2 as Error).message}`;
    }
    diags.error(
      `Node never registered with ${LABEL[ops.kind]}`,
      `${what(plan)} ${wait ? `did not register within ${fmt(ms)}` : "has not registered (wait_for_registration = false)"}: ${there}.\n` +
        `A node registers when ${DAEMON[ops.kind]} starts after its OS boots: check that the deployment finished and that ${DAEMON[ops.kind]} runs and points at this ${ops.kind === "slurm" ? "slurmctld" : "API server"}, check the spelling of node${wait ? ", or raise timeouts.create" : ""}. Nothing was changed.`,
      path("node"),
    );
  } else if (e instanceof OperationTimeoutError) {
    diags.error(`Failed to join ${LABEL[ops.kind]}`, `${e.message}.`, path("node"));
  } else addClientError(diags, e, `join ${LABEL[ops.kind]}`, site(plan));
}
