/**
 * A member destroyed for good (removed from the rack, or `terraform destroy`) leaves its scheduler after its drain;
 * the destroy half of a replacement (a reimage: new gate, same node) only drains, as the node comes back.
 *
 * Telling them apart: every plan of a member that goes on existing (create, update, replace) carries its id in the
 * planned private data (`successor`), and the engine hands the destroy half of a replacement that plan's private
 * data. Create and update drop the key before the private data is stored with the state, so a plain destroy, which
 * sees only the stored private data (or a destroy plan's, made from it), finds none: the node is removed for good.
 * A replacement onto another node or scheduler names another id: the old node is removed for good too.
 */
import type { Context, Diagnostics, PrivateState, Unknowable } from "../../framework/index.js";
import { path } from "../../framework/index.js";
import type { MemberBudget } from "./cluster-member-budget.js";
import type { SchedulerOps } from "./cluster-member-scheduler.js";

/** The private-data key naming the member a plan keeps (scheduler:node), null when not known at plan time. */
export const PRIVATE_SUCCESSOR = "successor";

/** The id a plan keeps the member under, for the private data; null when the plan does not know it yet. */
export function successorOf(plan: {
  readonly scheduler: Unknowable<string>;
  readonly node: Unknowable<string>;
}): string | null {
  const [kind, node] = [plan.scheduler, plan.node];
  return typeof kind === "string" && typeof node === "string" ? `${kind}:${node}` : null;
}

/** The private data to store with the state: without the successor (it belongs to one plan only). */
export function withoutSuccessor(priv: PrivateState): PrivateState {
  const { [PRIVATE_SUCCESSOR]: _, ...rest } = priv;
  return rest;
}

/** Whether this destroy removes the node for good (no plan keeps it; or the plan keeps another node). */
export function removedForGood(
  state: { readonly scheduler: string; readonly node: string },
  priv: PrivateState,
): boolean {
  if (!Object.hasOwn(priv, PRIVATE_SUCCESSOR)) return true;
  const next = priv[PRIVATE_SUCCESSOR];
  // Unknown at plan time: assume the node comes back (it is only drained, as before).
  if (typeof next !== "string") return false;
  return next !== `${state.scheduler}:${state.node}`;
}

/** A drained node leaving for good: its scheduler, its names, the budget it frees, where failures go. */
export interface Leaving {
  readonly ctx: Context;
  readonly ops: SchedulerOps;
  readonly node: string;
  /** The node, as diagnostics name it. */
  readonly what: string;
  readonly budget: MemberBudget;
  readonly diags: Diagnostics;
  readonly onError: (e: unknown) => void;
}

/**
 * After a drain: deletes the node from its scheduler where it allows it, else warns saying what stays behind. The
 * node's disruption-budget slot is given back either way: it is no longer a node of its partition. Errors become
 * diagnostics (the destroy fails and the member stays in state, drained).
 */
export async function leaveForGood(l: Leaving): Promise<void> {
  const { ctx, ops, node, budget, diags } = l;
  try {
    const r = await ops.remove(node);
    ctx.log.info("removed from the scheduler", { scheduler: ops.kind, node, outcome: r.outcome });
    budget.release([node], "left the scheduler", ctx.log);
    if (r.outcome === "kept") {
      diags.warning(
        // The node in the summary: the engines fold warnings of one summary into the first.
        `Node stays listed in ${ops.kind === "slurm" ? "Slurm" : "Kubernetes"}: ${node}`,
        `${l.what} was drained and removed from the rack, but ${r.why}.\n${r.fix}`,
        path("node"),
      );
    }
  } catch (e) {
    l.onError(e);
  }
}
