/**
 * rackform_cluster_member's reading of a node that accepts no work: drift rackform heals (a drain it did not make,
 * a DOWN set outside it: the plan re-joins the node), or a node it must leave out — held for repair by its health
 * ladder, or drained by a person with a reason (maintenance): shown on every plan, never fought. A person's drain is
 * remembered in private state, so the plan neither re-joins the node nor takes it through a rolling or health step.
 */
import { type ApplyRequest, type Diagnostics, type PrivateState, path } from "../../framework/index.js";
import { REPAIR } from "../shared/remediation.js";
import { LABEL, nodeOf, stateOf, what } from "./cluster-member-converge.js";
import type { Observed, SchedulerOps } from "./cluster-member-scheduler.js";
import type { ClusterMemberState } from "./cluster-member-schema.js";

/** The private-data key of a person's drain: its reason and author, as Observed.heldBy says them. */
export const PRIVATE_HELD_BY = "held_by";

/** The person's drain the last read found on the node, or undefined. */
export function heldByPerson(priv: PrivateState): string | undefined {
  const v = priv[PRIVATE_HELD_BY];
  return typeof v === "string" && v !== "" ? v : undefined;
}

/** The state of a read node, with the warning its not accepting work calls for, and the person's drain remembered. */
export function readNode(
  r: ApplyRequest & { state: ClusterMemberState },
  o: Observed,
  ops: SchedulerOps,
  imported: boolean,
): ClusterMemberState {
  const st = r.state;
  const { [PRIVATE_HELD_BY]: _, ...rest } = r.private.value;
  r.private.set(!o.joined && o.heldBy ? { ...rest, [PRIVATE_HELD_BY]: o.heldBy } : rest);
  if (o.joined || imported) return stateOf(st, o, imported);
  if (st.remediation === REPAIR || o.heldBy) {
    warnHeld(r.diagnostics, st, o);
    // Not rackform's to set features, labels or taints on until it rejoins: the recorded ones stand.
    return { ...stateOf(st, o, imported), features: st.features, labels: st.labels, taints: st.taints };
  }
  r.diagnostics.warning(
    // The node in the summary: the engines fold warnings of one summary into the first.
    `Node no longer accepts work in ${LABEL[ops.kind]}: ${nodeOf(st)}`,
    `${what(st)} is ${o.state}${o.reason ? ` (reason: ${o.reason})` : ""}: it was ${ops.kind === "slurm" ? "drained or set DOWN" : "cordoned"} outside rackform. The plan updates this rackform_cluster_member to re-join it.`,
    path("joined"),
  );
  return stateOf(st, o, imported);
}

function warnHeld(diags: Diagnostics, st: ClusterMemberState, o: Observed): void {
  if (o.heldBy) {
    diags.warning(
      `Node drained by a person: ${nodeOf(st)}`,
      `${what(st)} is ${o.state}, drained with the reason ${JSON.stringify(o.heldBy)}. rackform leaves it out of service: it does not re-join it, nor take it through a rolling or health step, while that drain stands. Resume it in Slurm (scontrol update nodename=${nodeOf(st)} state=resume) to return it; the next plan takes it from there.`,
      path("joined"),
    );
    return;
  }
  diags.warning(
    `Node held for repair: ${nodeOf(st)}`,
    `${what(st)} is ${o.state}: its health remediation ladder is exhausted and it stays out of service, quarantined in its backend with the BMC's findings, until the BMC reports it healthy again (the ladder then resets and the node rejoins after its gate).`,
    path("remediation"),
  );
}

/** A rolling or health step refused on a node a person drained: an error naming the drain and the fix. */
export function refuseHeld(diags: Diagnostics, st: ClusterMemberState, heldBy: string): void {
  diags.error(
    `Node drained by a person: ${nodeOf(st)}`,
    `${what(st)} was drained with the reason ${JSON.stringify(heldBy)}: rackform does not take it through its step while that drain stands, and the other nodes go on. Resume it in Slurm (scontrol update nodename=${nodeOf(st)} state=resume) when the work is done; the next plan plans its step again.`,
    path("joined"),
  );
}
