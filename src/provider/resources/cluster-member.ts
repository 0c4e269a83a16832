/**
 * rackform_cluster_member: the last step of a node's chain — admit it to Slurm or Kubernetes, and on destroy drain it
 * first, bounded by timeouts.delete.
 *
 * Drift: a node drained (Slurm) or cordoned (Kubernetes) by hand reads back as `joined = false`, with a warning. Read
 * does not fail and does not re-join (a refresh changes nothing); modifyPlan then plans `joined: false -> true` with
 * `state` unknown, an in-place update whose apply re-joins the node. This is rackform_bmc's `conformant` technique:
 * the drift shows in `plan -detailed-exitcode` and stays scoped to the one node. Features, labels and taints changed by
 * hand read back as they are, so the plan shows them converging. A node the scheduler no longer knows (deleted by
 * hand) reads as joined = false, state "absent", and the same in-place update brings it back: Kubernetes gets its Node
 * object created again, which the running kubelet fills in at its next status update (a running kubelet never
 * registers again: kubernetes/kubernetes#71398); Slurm has no way to create a node through slurmrestd, so the update
 * fails at once naming the slurmd restart that brings it back.
 *
 * Destroy never kills work: Slurm jobs run to completion under DRAIN, Kubernetes pods leave through the Eviction API
 * (PodDisruptionBudgets honoured). When that takes longer than timeouts.delete the destroy fails, naming what still
 * runs, and the resource stays in state with the node drained or cordoned.
 *
 * Removal: a member destroyed for good (not the destroy half of a reimage) leaves its scheduler after its drain
 * (cluster-member-removal.ts).
 *
 * Rolling: with max_unavailable a drain first takes a slot of the disruption budget (cluster-member-budget.ts), and
 * create gives it back when the node rejoins (or fails to), so a reimage of the whole rack keeps the rest joined.
 *
 * Schema in cluster-member-schema.ts, handlers in cluster-member-ops.ts, the scheduler seam in
 * cluster-member-scheduler.ts.
 */

import { defineResource, type Resource } from "../../framework/index.js";
import {
  type ClusterMemberDeps,
  clusterMemberDeps,
  createMember,
  deleteMember,
  importMember,
  planMember,
  readMember,
  updateMember,
  validateMember,
} from "./cluster-member-ops.js";
import { clusterMemberSchema } from "./cluster-member-schema.js";

/** The rackform_cluster_member resource; `deps` replaces the configured provider's (tests hand fakes, short polls). */
export function clusterMemberResource(
  deps: (providerData: unknown) => ClusterMemberDeps = clusterMemberDeps,
): Resource {
  return defineResource({
    typeName: "rackform_cluster_member",
    schema: clusterMemberSchema,
    deps,
    create: createMember,
    read: readMember,
    update: updateMember,
    delete: deleteMember,
    modifyPlan: planMember,
    validateConfig: validateMember,
    importState: importMember,
  });
}
