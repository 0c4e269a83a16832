/**
 * rackform_cluster_member's rolling reimage: the whole of one node's recycling in the member's in-place update —
 * budget slot, drain, the reimage its deployment offered, the gate its acceptance offered, rejoin, slot given back
 * (../shared/rollout-handover.ts says why it is one engine operation).
 *
 * A step that fails leaves the node out of service with the step's diagnostic (a failed gate has quarantined it with
 * its evidence), gives its slot back as failed (so the halt can name it) and keeps the old image_ref in state, so the
 * next plan retries this node; the other nodes go on.
 */
import type { ApplyRequest } from "../../framework/index.js";
import { ladderActs, REPAIR } from "../shared/remediation.js";
import { budgetKey } from "./cluster-member-budget.js";
import { converge, nodeOf, stateOf } from "./cluster-member-converge.js";
import { drainInBudget } from "./cluster-member-drain.js";
import { heldByPerson, refuseHeld } from "./cluster-member-held.js";
import type { ClusterMemberDeps } from "./cluster-member-ops.js";
import type { Reboot } from "./cluster-member-registration.js";
import {
  admitHealthStep,
  healthRung,
  holdForRepair,
  idleForRecheck,
  recheckDue,
  untouched,
} from "./cluster-member-remediation.js";
import type { SchedulerOps } from "./cluster-member-scheduler.js";
import type { ClusterMemberPlan, ClusterMemberState } from "./cluster-member-schema.js";

type Update = ApplyRequest & { plan: ClusterMemberPlan; state: ClusterMemberState };

/** Whether the plan carries a new image_ref over a recorded one, or a new firmware_ref (a rolling update proper). */
function refsMove(
  plan: { readonly image_ref: unknown; readonly firmware_ref: unknown },
  state: ClusterMemberState,
): boolean {
  const ref = plan.image_ref;
  const fw = plan.firmware_ref;
  if (typeof fw === "string" && fw !== state.firmware_ref) return true;
  return state.image_ref !== null && typeof ref === "string" && ref !== state.image_ref;
}

/**
 * True when the member's update is one node's roll: a new image_ref or firmware_ref, a health step of its remediation
 * ladder, or a re-check of its expired evidence.
 */
export function isRollingReimage(
  plan: {
    readonly image_ref: unknown;
    readonly firmware_ref: unknown;
    readonly remediation: unknown;
    readonly recheck: unknown;
  },
  state: ClusterMemberState,
): boolean {
  return refsMove(plan, state) || healthRung(plan, state) !== undefined || recheckDue(plan, state) !== undefined;
}

/**
 * Carries out the node's rolling reimage; the member's new state, or the recorded one (old image_ref) when a step
 * failed or nothing could be done, after a diagnostic.
 */
export async function rollNode(r: Update, deps: ClusterMemberDeps, ops: SchedulerOps): Promise<ClusterMemberState> {
  const { plan, state: st, context: ctx, diagnostics: diags } = r;
  const node = nodeOf(st);
  const machineId = plan.gate_id ?? st.gate_id ?? "";
  const offers = deps.rollouts.take(machineId, plan.firmware_ref);
  const steps = [offers.remedy, offers.reimage, offers.firmware, offers.gate].filter((s) => s !== undefined);
  const log = ctx.log.with({ resource: "rackform_cluster_member", node });
  const rung = healthRung(plan, st);
  if (rung !== undefined && !admitHealthStep(r, deps, rung)) return untouched(r);
  if (rung === REPAIR) return holdForRepair(r, deps, ops, offers.remedy);
  const held = heldByPerson(r.private.value);
  if (held) {
    refuseHeld(diags, st, held);
    return st;
  }
  // Only an expired evidence to re-check (no other change): on an idle node only.
  const recheckOnly = rung === undefined && recheckDue(plan, st) !== undefined && !refsMove(plan, st);
  if (recheckOnly && !(await idleForRecheck(r, ops))) return untouched(r);
  if (steps.length === 0) {
    // Nothing offered in this apply (the deployment already runs the image, its gate already judged): record it.
    log.info("rolling reimage: nothing left to do on this node, recording the image");
    return (await converge({ ops, pollMs: deps.pollMs, ctx, plan, prior: st, diags })) ?? st;
  }
  const names = [node, st.gate_id];
  const drain = { ctx, ops, budget: deps.budget, pollMs: deps.pollMs, state: st, priv: r.private.value, diags };
  log.info("rolling reimage", { steps: steps.map((s) => s.what) });
  if (!(await drainInBudget({ ...drain, op: "update", names }))) return st;
  let rebooted = false;
  let reboot: Reboot | undefined;
  for (const step of steps) {
    log.info(`rolling reimage: ${step.what}`);
    const reboots = step === offers.reimage || step === offers.remedy;
    if (reboots && !reboot) reboot = await rebootMark(ops, node);
    if ((await step.run({ context: ctx, diagnostics: diags, machineId, rebooted })) === "failed") {
      await deps.budget.releaseFailed(names, step.failure, log, diags);
      return st;
    }
    // The reimage's deploy (or the remedy's power cycle) boots the node: firmware staged for the next reset is active.
    if (reboots) rebooted = true;
  }
  // The rebooted node registers anew (its daemon on the new boot): wait for that registration as a create does — the
  // one from before the reboot says nothing of the node now — then join it.
  const s = await converge({ ops, pollMs: deps.pollMs, ctx, plan, prior: null, diags, reboot });
  deps.budget.release(names, s?.joined === true ? "rejoined" : "did not rejoin", log);
  if (typeof plan.max_unavailable === "number") await deps.budget.dropStale(node, ops.shared(budgetKey(plan)), log);
  await deps.budget.settle();
  return s ?? st;
}

/**
 * Whether a create of the member takes a step of the health ladder: the node never joined (its gate failed at
 * join, so its member was never created) and its deployment's ladder plans a step or repair.
 */
export const ladderAtCreate = (plan: ClusterMemberPlan): boolean => ladderActs(plan.remediation);

/**
 * The create of a member whose node the health ladder takes a step on before it ever joined: carried out as a roll of
 * a node recorded as not joined — the remedy its deployment offered, the gate its acceptance offered, then the join —
 * or held for repair. Nothing is recorded when a step fails, so the next plan creates the member again.
 */
export async function createThroughLadder(
  r: ApplyRequest & { plan: ClusterMemberPlan },
  deps: ClusterMemberDeps,
  ops: SchedulerOps,
): Promise<ClusterMemberState | undefined> {
  const { plan } = r;
  const none = stateOf(plan, { registered: false, state: "", joined: false });
  const state: ClusterMemberState = {
    ...none,
    remediation: null,
    recheck: null,
    image_ref: plan.image_ref ?? null,
    firmware_ref: plan.firmware_ref ?? null,
  };
  const s = await rollNode({ ...r, state }, deps, ops);
  return r.diagnostics.hasError() ? undefined : s;
}

/** A reboot about to begin: now, and when the node's daemon last started (unknown when the read fails). */
async function rebootMark(ops: SchedulerOps, node: string): Promise<Reboot> {
  const at = Date.now();
  const o = await ops.lookup(node, false).catch(() => undefined);
  return o?.startedAt === undefined ? { at } : { at, startedBefore: o.startedAt };
}
