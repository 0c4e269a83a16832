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
import type { Context, Diagnostics, ObjectValue, PrivateState } from "../../framework/index.js";
import { getString, path } from "../../framework/index.js";
import type { DisruptionBudget } from "../budget/disruption-budget.js";
import type { SchedulerOps } from "./cluster-member-ops.js";

/** The private-data key naming the member a plan keeps (scheduler:node), null when not known at plan time. */
export const PRIVATE_SUCCESSOR = "successor";

/** The id a plan keeps the member under, for the private data; null when the plan does not know it yet. */
export function successorOf(plan: ObjectValue): string | null {
  const [kind, node] = [plan.scheduler, plan.node];
  return typeof kind === "string" && typeof node === "string" ? `${kind}:${node}` : null;
}

/** The private data to store with the state: without the successor (it belongs to one plan only). */
export function withoutSuccessor(priv: PrivateState): PrivateState {
  const { [PRIVATE_SUCCESSOR]: _, ...rest } = priv;
  return rest;
}

/** Whether this destroy removes the node for good (no plan keeps it; or the plan keeps another node). */
export function removedForGood(state: ObjectValue, priv: PrivateState): boolean {
  if (!Object.hasOwn(priv, PRIVATE_SUCCESSOR)) return true;
  const next = priv[PRIVATE_SUCCESSOR];
  // Unknown at plan time: assume the node comes back (it is only drained, as before).
  if (typeof next !== "string") return false;
  return next !== `${getString(state, "scheduler")}:${getString(state, "node")}`;
}

/**
 * After a drain: deletes the node from its scheduler where it allows it, else warns saying what stays behind. The
 * node's disruption-budget slot is given back either way: it is no longer a node of its partition. Errors become
 * diagnostics (the destroy fails and the member stays in state, drained).
 */
export async function leaveForGood(
  ctx: Context,
  ops: SchedulerOps,
  node: string,
  what: string,
  budget: DisruptionBudget,
  diags: Diagnostics,
  onError: (e: unknown) => void,
): Promise<void> {
  try {
    const r = await ops.remove(node);
    ctx.log.info("removed from the scheduler", { scheduler: ops.kind, node, outcome: r.outcome });
    budget.release([node], "left the scheduler", ctx.log);
    if (r.outcome === "kept") {
      diags.warning(
        // The node in the summary: the engines fold warnings of one summary into the first.
        `Node stays listed in ${ops.kind === "slurm" ? "Slurm" : "Kubernetes"}: ${node}`,
        `${what} was drained and removed from the rack, but ${r.why}.\n${r.fix}`,
        path("node"),
      );
    }
  } catch (e) {
    onError(e);
  }
}
