/**
 * What rackform_cluster_member's create and update share: the state after observing a node, and `converge` — wait for
 * the node's registration (or bring back a node deleted by hand), then join it — with its diagnostics.
 */
import { isClientError } from "../../clients/errors.js";
import { abortableSleep } from "../../clients/http/retry.js";
import {
  type Context,
  type Diagnostics,
  getString,
  isObjectValue,
  type ObjectValue,
  path,
  timeoutMs,
  type Value,
} from "../../framework/index.js";
import { addClientError } from "../errors/client-errors.js";
import { bounded, OperationTimeoutError } from "../shared/timeouts.js";
import { type JoinSpec, NodeGoneError, type Observed, type SchedulerOps } from "./cluster-member-ops.js";
import { DEFAULT_TIMEOUT_MS, type SchedulerKind } from "./cluster-member-schema.js";

/** The `state` of a member whose node the scheduler no longer knows. */
export const ABSENT = "absent";

export const LABEL: Record<SchedulerKind, string> = { slurm: "Slurm", kubernetes: "Kubernetes" };
const DAEMON: Record<SchedulerKind, string> = { slurm: "slurmd", kubernetes: "the kubelet" };

export const kindOf = (v: ObjectValue): SchedulerKind => getString(v, "scheduler") as SchedulerKind;
export const nodeOf = (v: ObjectValue): string => getString(v, "node") ?? "";
export const what = (v: ObjectValue) => `${LABEL[kindOf(v)] ?? "scheduler"} node ${nodeOf(v)}`;
/** Where a failure points: the node for not-found, the scheduler (and its provider `<scheduler>.url`) for the rest. */
export const site = (v: ObjectValue) => ({
  what: what(v),
  notFoundPath: path("node"),
  endpointPath: path("scheduler"),
  endpointSetting: LABEL[kindOf(v)] ? `${kindOf(v)}.url` : undefined,
});

function strings(v: Value): string[] | null {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : null;
}

function stringMap(v: Value): Record<string, string> | null {
  if (!isObjectValue(v)) return null;
  return Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"));
}

type TaintValue = { key: string; value: string | null; effect: string };
function taints(v: Value): TaintValue[] | null {
  if (!Array.isArray(v)) return null;
  return v.filter(isObjectValue).map((t) => ({
    key: String(t.key),
    value: typeof t.value === "string" ? t.value : null,
    effect: String(t.effect),
  }));
}

/** The state after observing the node; `v` says which labels and taints rackform manages. */
export function stateOf(v: ObjectValue, o: Observed, imported = false): ObjectValue {
  const base = { ...v, id: `${kindOf(v)}:${nodeOf(v)}`, state: o.state, joined: o.joined };
  if (kindOf(v) === "slurm") {
    return {
      ...base,
      features: v.features === null && !imported ? null : [...(o.features ?? [])],
      partitions: [...(o.partitions ?? [])],
    };
  }
  const managedLabels = stringMap(v.labels);
  const labels = managedLabels
    ? Object.fromEntries(
        Object.keys(managedLabels).flatMap((k) => (o.labels?.[k] !== undefined ? [[k, o.labels[k]]] : [])),
      )
    : null;
  const managedTaints = taints(v.taints);
  const now = o.taints ?? [];
  const ts = managedTaints
    ? managedTaints.flatMap((m) => {
        const t = now.find((x) => x.key === m.key);
        return t ? [{ key: t.key, value: t.value ?? null, effect: t.effect }] : [];
      })
    : null;
  return { ...base, partitions: null, labels, taints: ts };
}

function joinSpec(plan: ObjectValue, prior: ObjectValue | null): JoinSpec {
  const labels = stringMap(plan.labels);
  const ts = taints(plan.taints);
  const priorLabels = prior ? Object.keys(stringMap(prior.labels) ?? {}) : [];
  const priorTaints = prior ? (taints(prior.taints) ?? []).map((t) => t.key) : [];
  return {
    features: strings(plan.features),
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

export const fmt = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000}m` : `${ms / 1000}s`);

/** Waits for registration (create only), then joins; the state, or undefined after a diagnostic. */
export async function converge(
  ops: SchedulerOps,
  pollMs: number,
  ctx: Context,
  plan: ObjectValue,
  prior: ObjectValue | null,
  diags: Diagnostics,
): Promise<ObjectValue | undefined> {
  const op = prior ? "update" : "create";
  const ms = timeoutMs(plan, op, DEFAULT_TIMEOUT_MS[op]);
  const node = nodeOf(plan);
  const wait = plan.wait_for_registration !== false;
  let phase: "register" | "join" = prior ? "join" : "register";
  let lastSeen: Observed | undefined;
  let rejected: unknown;
  try {
    const o = await bounded(ctx, ms, op, what(plan), async (signal) => {
      // Deleted from the scheduler by hand (read kept it as ABSENT): bring its object back, then wait for its daemon.
      if (prior && (await ops.lookup(node, true)) === undefined) {
        ctx.log.info("the node is gone from the scheduler; creating it again", { scheduler: ops.kind, node });
        await ops.recreate(node, joinSpec(plan, prior));
        phase = "register";
      }
      while (phase === "register") {
        lastSeen = await ops.lookup(node, true);
        if (lastSeen?.registered) phase = "join";
        else if (!wait) throw new OperationTimeoutError(what(plan), 0, op);
        else await abortableSleep(pollMs, signal);
      }
      ctx.log.info("joining the scheduler", { scheduler: ops.kind, node });
      // slurmctld may set a just-resumed node DOWN again ("Not responding": its slurmd re-registered or missed a
      // ping); the node is admitted once it stays schedulable, so a rejection is retried until the timeout.
      for (;;) {
        try {
          return await ops.join(node, joinSpec(plan, prior));
        } catch (e) {
          if (!isClientError(e, "RACKFORM_ERR_SLURM_REJECTED")) throw e;
          rejected = e;
          ctx.log.warn("the scheduler did not admit the node yet; retrying", { node, error: (e as Error).message });
          await abortableSleep(pollMs, signal);
        }
      }
    });
    return stateOf(plan, o);
  } catch (e) {
    if (e instanceof NodeGoneError) {
      diags.error(
        `${LABEL[ops.kind]} node ${node} is gone`,
        `${e.message}. Nothing was changed.\n${e.fix}`,
        path("node"),
      );
      return undefined;
    }
    if (rejected && e instanceof OperationTimeoutError) {
      addClientError(diags, rejected, `join ${LABEL[ops.kind]}`, site(plan));
      return undefined;
    }
    if (phase === "register" && e instanceof OperationTimeoutError) {
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
    return undefined;
  }
}
