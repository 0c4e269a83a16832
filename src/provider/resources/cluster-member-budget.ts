/**
 * rackform_cluster_member's side of the disruption budget (../disruption-budget.ts): which budget a member belongs
 * to, which max_unavailable a drain obeys, and the wait before a drain with its diagnostics.
 */
import { type Context, type Diagnostics, type PrivateState, path } from "../../framework/index.js";
import type { SharedBudget } from "../budget/budget-shared.js";
import { BudgetDeadlockError, BudgetHaltError, type DisruptionBudget } from "../budget/disruption-budget.js";
import { bounded, OperationTimeoutError } from "../shared/timeouts.js";
import type { ClusterMemberState } from "./cluster-member-schema.js";

/** The part of the process's disruption budget a member uses (tests may hand the real one over a fake scheduler). */
export type MemberBudget = Pick<
  DisruptionBudget,
  "acquire" | "hold" | "release" | "releaseFailed" | "dropStale" | "settle" | "inUse" | "outOfService"
>;

/** The private-state key carrying the planned max_unavailable to the destroy half of a replacement. */
export const PRIVATE_MAX_UNAVAILABLE = "max_unavailable";

/**
 * Nodes sharing a budget: Slurm by scheduler and partition set (a partition is what users submit to, so each keeps
 * N − max nodes), Kubernetes by scheduler alone (one cluster per provider configuration; no label is universal enough
 * to split it by).
 */
export function budgetKey(v: { readonly scheduler: string; readonly partitions: unknown }): string {
  const kind = v.scheduler;
  if (kind !== "slurm" || !Array.isArray(v.partitions)) return kind;
  const parts = (v.partitions as readonly unknown[]).filter((p): p is string => typeof p === "string").sort();
  return `${kind}:${parts.join(",")}`;
}

/**
 * The limit a drain obeys: the planned value carried in private state (the destroy half of a replacement gets the
 * plan's private data but only the prior state), else the one in state; null = no limit.
 */
export function maxUnavailableOf(
  state: { readonly max_unavailable: number | null },
  priv: PrivateState,
): number | null {
  const planned = Object.hasOwn(priv, PRIVATE_MAX_UNAVAILABLE) ? priv[PRIVATE_MAX_UNAVAILABLE] : undefined;
  const v = planned !== undefined ? planned : state.max_unavailable;
  return typeof v === "number" && v >= 1 ? Math.floor(v) : null;
}

/** "a, b (draining in this run), c (out in the scheduler)". */
function outNames(budget: MemberBudget, key: string): string {
  const mine = budget.inUse(key);
  const theirs = budget.outOfService(key);
  return [
    ...(mine.length ? [`${mine.join(", ")} (draining in this run)`] : []),
    ...(theirs.length ? [`${theirs.join(", ")} (already out in the scheduler)`] : []),
  ].join("; ");
}

const fmt = (ms: number) => (ms % 60_000 === 0 ? `${ms / 60_000}m` : `${Math.round(ms / 1000)}s`);

/** What a drain's wait for its slot needs: the member (node, gate, scheduler, partitions, limit) and its bounds. */
export interface SlotWait {
  readonly ctx: Context;
  readonly budget: MemberBudget;
  readonly state: ClusterMemberState;
  /** The planned private data (the planned limit of a replacement). */
  readonly priv: PrivateState;
  /** The wait's bound, in milliseconds. */
  readonly ms: number;
  /** The node, as diagnostics name it. */
  readonly what: string;
  readonly diags: Diagnostics;
  /** The budget as the scheduler holds it for every run (reservations), by key. */
  readonly shared?: (key: string) => SharedBudget;
}

/**
 * Waits, within `ms`, for the node's slot before its drain: the milliseconds it waited (0 when a slot was free or no
 * limit applies: the slot is then taken without waiting), or undefined after a diagnostic: the node was not touched.
 */
export async function waitForSlot(w: SlotWait): Promise<number | undefined> {
  const { ctx, budget, state, ms, what, shared } = w;
  const max = maxUnavailableOf(state, w.priv);
  const node = state.node;
  const gate = state.gate_id;
  const key = budgetKey(state);
  if (max === null) {
    // No limit of its own, but other members of its budget may have one: its drain counts against theirs.
    // Not reserved in the scheduler: a drain without a limit waits for no one, and others see it once it is drained.
    budget.hold({ key, node, aliases: gate ? [gate] : [], log: ctx.log });
    return 0;
  }
  const started = Date.now();
  try {
    const waited = await bounded(ctx, ms, "delete", `${what} waiting for the disruption budget`, (signal) =>
      budget.acquire({
        key,
        node,
        aliases: gate ? [gate] : [],
        max,
        signal,
        inFlight: ctx.inFlight,
        ...(shared ? { shared: shared(key) } : {}),
        log: ctx.log,
      }),
    );
    return waited ? Date.now() - started : 0;
  } catch (e) {
    reportNoSlot({ ...w, max, key }, e);
    return undefined;
  }
}

/** The diagnostic of a drain that did not get its slot: why, and what moves the rollout on. */
function reportNoSlot(w: SlotWait & { readonly max: number; readonly key: string }, e: unknown): void {
  const { diags, what, max } = w;
  const unchanged = "The node stays joined; nothing was changed.";
  if (e instanceof BudgetHaltError) {
    diags.error(
      "Rollout halted: the disruption budget is used up by nodes out of service",
      `${what} was not drained: ${e.message}. ${unchanged}\n` +
        "Nothing in progress will bring those nodes back, so the rollout stops here instead of waiting. Fix them " +
        "(or return them to service), or raise max_unavailable, then re-apply: the rollout goes on where it stopped.",
      path("max_unavailable"),
    );
  } else if (e instanceof BudgetDeadlockError) {
    diags.error(
      "Drain gave up waiting for the disruption budget",
      `${what} was not drained: ${e.message}. ${unchanged}\n` +
        `Raise the engine's parallelism above the number of nodes minus max_unavailable (${max}) ` +
        "(terraform apply -parallelism=N, cdktf deploy --terraform-parallelism=N), or re-apply to continue the rollout.",
      path("max_unavailable"),
    );
  } else if (e instanceof OperationTimeoutError) {
    diags.error(
      "Drain waited too long for the disruption budget",
      `${what} was not drained: ${max} of ${max} nodes stayed out of service (${outNames(w.budget, w.key)}) for ` +
        `${fmt(w.ms)}. ${unchanged} Re-apply to continue the rollout, raise timeouts.delete, or raise max_unavailable.`,
      path("max_unavailable"),
    );
  } else {
    diags.error(
      "Drain cancelled",
      `${what} was not drained while it waited for the disruption budget: ${(e as Error)?.message ?? String(e)}. ${unchanged}`,
    );
  }
}
