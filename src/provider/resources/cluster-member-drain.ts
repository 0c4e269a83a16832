/**
 * A member's drain within its disruption budget, shared by the destroy half of a replacement (cluster-member-ops.ts)
 * and a rolling reimage (cluster-member-rollout.ts): the slot, then the drain bounded by timeouts.delete (the wait for
 * the slot counts against it), and the diagnostic of a drain that failed.
 */
import { type Context, type Diagnostics, type PrivateState, path, timeoutMs } from "../../framework/index.js";
import { addClientError } from "../errors/client-errors.js";
import { bounded, OperationTimeoutError } from "../shared/timeouts.js";
import { type MemberBudget, waitForSlot } from "./cluster-member-budget.js";
import { fmt, LABEL, nodeOf, site, what } from "./cluster-member-converge.js";
import { DrainTimeoutError, type SchedulerOps } from "./cluster-member-scheduler.js";
import { type ClusterMemberState, DEFAULT_TIMEOUT_MS } from "./cluster-member-schema.js";

/** What a drain within the budget needs. */
export interface BudgetedDrain {
  readonly ctx: Context;
  readonly ops: SchedulerOps;
  readonly budget: MemberBudget;
  readonly pollMs: number;
  readonly state: ClusterMemberState;
  /** The planned private data (the planned limit of a replacement). */
  readonly priv: PrivateState;
  readonly diags: Diagnostics;
  /** The operation the drain runs in, as a timeout names it. */
  readonly op: "delete" | "update";
  /** The names the slot goes back under when the drain fails. */
  readonly names: readonly (string | null)[];
}

/**
 * Waits for the node's slot, then drains it: true once drained (the slot held), false after a diagnostic — no slot
 * (the node untouched), or a drain that failed (its slot given back, the node left as the drain left it).
 */
export async function drainInBudget(d: BudgetedDrain): Promise<boolean> {
  const { ctx, ops, budget, pollMs, state: st, diags } = d;
  const total = timeoutMs({ timeouts: st.timeouts }, "delete", DEFAULT_TIMEOUT_MS.delete);
  const slot = { ctx, budget, state: st, priv: d.priv, ms: total, what: what(st), diags };
  const waited = await waitForSlot({ ...slot, shared: (k) => ops.shared(k) });
  if (waited === undefined) return false;
  const node = nodeOf(st);
  const ms = waited > 0 ? Math.max(total - waited, 1_000) : total;
  ctx.log.info("draining", { scheduler: ops.kind, node, timeoutMs: ms, op: d.op });
  try {
    // The drain's own deadline fires first and says what still runs; the outer bound only catches a hung call.
    await bounded(ctx, ms + pollMs + 30_000, d.op, what(st), (signal) => ops.drain(node, ms, pollMs, signal));
    return true;
  } catch (e) {
    // This node will not be recycled in this run; the rollout goes on without it.
    budget.release(d.names, "did not drain", ctx.log);
    reportNotDrained({ diags, st, ops, ms }, e);
    return false;
  }
}

/** The diagnostic of a drain that failed: out of time (naming what still runs) or a client error. */
function reportNotDrained(
  d: { readonly diags: Diagnostics; readonly st: ClusterMemberState; readonly ops: SchedulerOps; readonly ms: number },
  e: unknown,
): void {
  const { diags, st, ops, ms } = d;
  if (e instanceof DrainTimeoutError || e instanceof OperationTimeoutError) {
    const running = e instanceof DrainTimeoutError ? e.running : e.message;
    diags.error(
      "Node did not drain in time",
      `${what(st)} did not drain within ${fmt(ms)}: ${running}.\n` +
        `Nothing was killed or evicted by force. The node stays ${ops.kind === "slurm" ? "DRAIN-flagged" : "cordoned"}, so no new work lands on it, and stays in state. ` +
        "Let the work finish (or move it yourself), then destroy again; or raise timeouts.delete.",
      path("timeouts", "delete"),
    );
  } else addClientError(diags, e, `drain the node in ${LABEL[ops.kind]}`, site(st));
}
