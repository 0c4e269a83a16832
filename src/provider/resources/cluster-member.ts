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
 */

import {
  type Diagnostics,
  getString,
  isObjectValue,
  type ObjectValue,
  path,
  type Resource,
  timeoutMs,
  UNKNOWN,
} from "../../framework/index.js";
import { SchedulerNotConfiguredError } from "../config/scheduler-config.js";
import { addClientError } from "../errors/client-errors.js";
import { providerDataSlot } from "../shared/data-slot.js";
import { holdOnTransientRead } from "../shared/read-hold.js";
import { bounded, OperationTimeoutError } from "../shared/timeouts.js";
import { budgetKey, PRIVATE_MAX_UNAVAILABLE, waitForSlot } from "./cluster-member-budget.js";
import { ABSENT, converge, fmt, kindOf, LABEL, nodeOf, site, stateOf, what } from "./cluster-member-converge.js";
import { DrainTimeoutError, kubernetesOps, type Observed, type SchedulerOps, slurmOps } from "./cluster-member-ops.js";
import {
  leaveForGood,
  PRIVATE_SUCCESSOR,
  removedForGood,
  successorOf,
  withoutSuccessor,
} from "./cluster-member-removal.js";
import { clusterMemberSchema, DEFAULT_TIMEOUT_MS, SCHEDULERS, validateClusterMember } from "./cluster-member-schema.js";

/** Options of the resource (tests shorten the polls). */
export interface ClusterMemberOptions {
  /** Time between registration and drain polls. @default 5_000 */
  readonly pollMs?: number;
}

/** The rackform_cluster_member resource; one instance per provider process. */
export function clusterMemberResource(opts: ClusterMemberOptions = {}): Resource {
  const slot = providerDataSlot("rackform_cluster_member");
  /** The poll interval: the option, else the provider's timings (known once configured). */
  const poll = () => opts.pollMs ?? slot.get().timings.memberPollMs;

  /** The scheduler's operations, or undefined after a diagnostic (not configured, bad URL). */
  const opsFor = (v: ObjectValue, diags: Diagnostics): SchedulerOps | undefined => {
    const kind = kindOf(v);
    try {
      const data = slot.get();
      if (kind === "slurm") return slurmOps(data.schedulers.slurm());
      if (kind === "kubernetes") return kubernetesOps(data.schedulers.kubernetes());
      throw new Error(`unknown scheduler ${JSON.stringify(kind)}`);
    } catch (e) {
      if (e instanceof SchedulerNotConfiguredError) {
        diags.error(`${LABEL[kind]} is not configured`, `${what(v)}: ${e.message}.`, path("scheduler"));
      } else addClientError(diags, e, `reach ${LABEL[kind] ?? "the scheduler"}`, site(v));
      return undefined;
    }
  };

  return {
    typeName: "rackform_cluster_member",
    schema: clusterMemberSchema,

    configure: slot.configure,

    validateConfig(req, resp) {
      validateClusterMember(req.config, resp.diagnostics);
    },

    async create(req, resp) {
      const ops = opsFor(req.plan, resp.diagnostics);
      const s = ops && (await converge(ops, poll(), req.context, req.plan, null, resp.diagnostics));
      if (s) resp.state = s;
      resp.private = withoutSuccessor(resp.private);
      // Joined or not, this node's recycling is over for this run: the next node may drain.
      const why = s?.joined === true ? "rejoined" : "did not rejoin";
      const { budget } = slot.get();
      const released = budget.release([nodeOf(req.plan), getString(req.plan, "gate_id")], why, req.context.log);
      // Drained by a run killed since: its reservation on this node goes too (not only when its lease ends).
      // Only members with a limit ever reserve.
      if (released === undefined && ops && typeof req.plan.max_unavailable === "number")
        await budget.dropStale(nodeOf(req.plan), ops.shared(budgetKey(req.plan)), req.context.log);
      // The engine may stop this process right after this answer: the reservation's removal must be done by then.
      await budget.settle();
    },

    async update(req, resp) {
      const ops = opsFor(req.plan, resp.diagnostics);
      const s = ops && (await converge(ops, poll(), req.context, req.plan, req.state, resp.diagnostics));
      if (s) resp.state = s;
      resp.private = withoutSuccessor(resp.private);
    },

    async read(req, resp) {
      const st = req.state;
      const ops = opsFor(st, resp.diagnostics);
      if (!ops) return;
      const ms = timeoutMs(st, "read", DEFAULT_TIMEOUT_MS.read);
      let o: Observed | undefined;
      try {
        o = await bounded(req.context, ms, "read", what(st), () => ops.lookup(nodeOf(st), false));
      } catch (e) {
        if (st.joined !== null && holdOnTransientRead(resp, st, e, what(st), nodeOf(st))) return;
        addClientError(resp.diagnostics, e, `read the node from ${LABEL[ops.kind]}`, site(st));
        return;
      }
      const imported = st.joined === null;
      if (!o) {
        if (imported) {
          resp.diagnostics.error(
            `No such ${LABEL[ops.kind]} node`,
            `${what(st)}: ${await ops.whatIsThere(nodeOf(st)).catch((e: Error) => e.message)}. Check the import id (slurm:<node> or kubernetes:<node>).`,
            path("node"),
          );
          return;
        }
        // Deleted from the scheduler outside rackform while rackform has it joined: kept as not joined, so the plan
        // is this member's in-place re-join (modifyPlan), not a create that would wait for a registration that a
        // running daemon never sends.
        resp.state = { ...st, joined: false, state: ABSENT };
        resp.diagnostics.warning(
          `Node gone from ${LABEL[ops.kind]}: ${nodeOf(st)}`,
          `${what(st)} is no longer known to ${LABEL[ops.kind]}: it was deleted outside rackform. The plan updates this rackform_cluster_member to bring it back (${ops.kind === "kubernetes" ? "rackform creates the Node object again and waits for its kubelet's next status update" : "only a restarted slurmd registers it again"}).`,
          path("joined"),
        );
        return;
      }
      resp.state = stateOf(st, o, imported);
      if (!o.joined && !imported) {
        resp.diagnostics.warning(
          // The node in the summary: the engines fold warnings of one summary into the first.
          `Node no longer accepts work in ${LABEL[ops.kind]}: ${nodeOf(st)}`,
          `${what(st)} is ${o.state}${o.reason ? ` (reason: ${o.reason})` : ""}: it was ${ops.kind === "slurm" ? "drained or set DOWN" : "cordoned"} outside rackform. The plan updates this rackform_cluster_member to re-join it.`,
          path("joined"),
        );
      }
    },

    async delete(req, resp) {
      const st = req.state;
      if (st.drain_on_destroy === false) return;
      const ops = opsFor(st, resp.diagnostics);
      if (!ops) return;
      const total = timeoutMs(st, "delete", DEFAULT_TIMEOUT_MS.delete);
      const node = nodeOf(st);
      const { budget, images } = slot.get();
      images.tearingDown();
      const waited = await waitForSlot(req.context, budget, st, req.private, total, what(st), resp.diagnostics, (k) =>
        ops.shared(k),
      );
      if (waited === undefined) return;
      // A wait for the budget counts against timeouts.delete too.
      const ms = waited > 0 ? Math.max(total - waited, 1_000) : total;
      req.context.log.info("draining before leaving", { scheduler: ops.kind, node, timeoutMs: ms });
      try {
        // The drain's own deadline fires first and says what still runs; the outer bound only catches a hung call.
        await bounded(req.context, ms + poll() + 30_000, "delete", what(st), (signal) =>
          ops.drain(node, ms, poll(), signal),
        );
        // Removed from the rack (not the destroy half of a reimage): the node leaves its scheduler for real.
        if (removedForGood(st, req.private)) {
          await leaveForGood(req.context, ops, node, what(st), budget, resp.diagnostics, (e) =>
            addClientError(resp.diagnostics, e, `remove the node from ${LABEL[ops.kind]}`, site(st)),
          );
        }
      } catch (e) {
        // This node will not be recycled in this run; the rollout goes on without it.
        budget.release([node], "did not drain", req.context.log);
        if (e instanceof DrainTimeoutError || e instanceof OperationTimeoutError) {
          const running = e instanceof DrainTimeoutError ? e.running : e.message;
          resp.diagnostics.error(
            "Node did not drain in time",
            `${what(st)} did not drain within ${fmt(ms)}: ${running}.\n` +
              `Nothing was killed or evicted by force. The node stays ${ops.kind === "slurm" ? "DRAIN-flagged" : "cordoned"}, so no new work lands on it, and stays in state. ` +
              "Let the work finish (or move it yourself), then destroy again; or raise timeouts.delete.",
            path("timeouts", "delete"),
          );
        } else addClientError(resp.diagnostics, e, `drain the node in ${LABEL[ops.kind]}`, site(st));
      }
    },

    modifyPlan(req, resp) {
      const { plan, state } = req;
      if (!isObjectValue(plan)) return;
      // The destroy half of a replacement sees only the prior state: the planned limit reaches it through private.
      const max = plan.max_unavailable ?? null;
      if (max === null || typeof max === "number") resp.private = { ...resp.private, [PRIVATE_MAX_UNAVAILABLE]: max };
      // The member goes on existing under this id: a destroy half of this plan only drains (see cluster-member-removal).
      resp.private = { ...resp.private, [PRIVATE_SUCCESSOR]: successorOf(plan) };
      // The id is scheduler:node, so a replacement's plan can name it (one less "known after apply" per node).
      const [kind, node] = [plan.scheduler, plan.node];
      const id = typeof kind === "string" && typeof node === "string" ? `${kind}:${node}` : undefined;
      if (id !== undefined && plan.id !== id) resp.plan = { ...plan, id };
      if (!isObjectValue(state) || state.joined !== false) return;
      resp.plan = { ...(resp.plan as ObjectValue), joined: true, state: UNKNOWN };
    },

    importState(req, resp) {
      const m = /^(slurm|kubernetes):(\S+)$/.exec(req.id.trim());
      if (!m) {
        resp.diagnostics.error(
          "Invalid import id for rackform_cluster_member",
          `Expected <scheduler>:<node> with scheduler one of ${SCHEDULERS.join(", ")}, e.g. slurm:r01-n01 or kubernetes:r01-n01; got ${JSON.stringify(req.id)}.`,
        );
        return;
      }
      resp.state = {
        ...resp.state,
        id: `${m[1]}:${m[2]}`,
        scheduler: m[1],
        node: m[2],
        drain_on_destroy: true,
        wait_for_registration: true,
      };
    },
  };
}
