/**
 * The rollout's shape: per disruption budget (the provider's key: a Slurm scheduler and partition set, or the
 * Kubernetes cluster), how many nodes the plan takes out of service and how many at most at once — from the members'
 * `max_unavailable` — with the cases a reviewer must be warned of: every node of a partition out at once when no budget
 * is set, or more nodes out at once than the budget (drains without a budget, nodes that go out without any drain).
 * Only nodes count: a node is one chain (nodes.ts), whatever resources of it the plan changes.
 */
import { refMoves } from "./change-kind.js";
import { DISRUPTIVE, type NodeEffects, type NodeEvent } from "./effects.js";
import type { PlanNode } from "./nodes.js";
import type { ResourceChange } from "./plan-json.js";
import { recheckMoves, rungMove } from "./remediation.js";
import { attr, current, knownText } from "./values.js";

/** How a node leaves service in this plan. */
export type OutBy =
  | "re-enrolled"
  | "reimaged"
  | "reset for a firmware update"
  | "removed"
  | "drained and rejoined"
  | "held for repair";

/** One budget's rollout. */
export interface Rollout {
  /** "slurm partition gpu", "slurm partitions a, b", "kubernetes". */
  readonly budget: string;
  /** Nodes of the budget in the plan that are in the cluster now (new members are not). */
  readonly nodes: number;
  /** Nodes drained by their member (replace or destroy), by how they leave service. */
  readonly drained: ReadonlyMap<OutBy, number>;
  /** The max_unavailable values of the drains that have one (one value in the usual case). */
  readonly limits: readonly number[];
  /** Nodes out of service that no budget holds back: drains without max_unavailable, disruptions without a drain. */
  readonly unbudgeted: readonly { readonly node: string; readonly why: string }[];
  /** Nodes out of service without a drain (an outlet switched off, a reimage under a member left in place). */
  readonly undrained: number;
  /** The most nodes that may be out of service at once in this apply. */
  readonly atOnce: number;
  /** Set when the reviewer must be warned: the sentence after "⚠". */
  readonly warning: string | undefined;
}

type Kind = "replace" | "delete" | "other";

/** One budget while the nodes are walked. */
interface Group {
  nodes: number;
  readonly drained: Map<OutBy, number>;
  readonly limits: number[];
  limited: number;
  undrained: number;
  readonly unbudgeted: { readonly node: string; readonly why: string }[];
}

function kindOf(c: ResourceChange): Kind {
  const a = c.change.actions;
  if (a.includes("delete")) return a.includes("create") ? "replace" : "delete";
  // A rolling reimage or firmware update (a new image_ref or firmware_ref over a recorded one), or a health step of
  // the remediation ladder: the member's update drains within its budget too.
  const health = rungMove(c);
  if ((health && health.to !== "") || recheckMoves(c)) return "replace";
  return refMoves(c, "image_ref") || refMoves(c, "firmware_ref") ? "replace" : "other";
}

/** The budget key's words for a member: Slurm by its partitions as state recorded them, Kubernetes whole. */
function budgetOf(member: ResourceChange): string | undefined {
  const scheduler = knownText(current(member.change, "scheduler"));
  if (scheduler !== "slurm") return scheduler;
  const parts = attr(member.change, "before", "partitions");
  const list = parts.kind === "known" && Array.isArray(parts.value) ? parts.value.map(String).sort() : undefined;
  if (list === undefined) return undefined;
  if (list.length === 0) return "slurm (no partition)";
  return `slurm ${list.length === 1 ? "partition" : "partitions"} ${list.join(", ")}`;
}

/** The max_unavailable this member's drain obeys: the planned one on a replace, the recorded one on a destroy. */
function limitOf(member: ResourceChange, kind: Kind): number | undefined {
  const v = attr(member.change, kind === "delete" ? "before" : "after", "max_unavailable");
  return v.kind === "known" && typeof v.value === "number" && v.value >= 1 ? Math.floor(v.value) : undefined;
}

const outBy = (kind: Kind, events: ReadonlySet<NodeEvent>): OutBy =>
  kind === "delete"
    ? "removed"
    : events.has("re-enroll")
      ? "re-enrolled"
      : events.has("reimage")
        ? "reimaged"
        : events.has("firmware")
          ? "reset for a firmware update"
          : events.has("repair")
            ? "held for repair"
            : "drained and rejoined";

/** The rollouts of one plan's nodes, by budget in name order; budgets nothing goes out of are left out. */
export function rollouts(nodes: readonly PlanNode[], effects: readonly NodeEffects[]): Rollout[] {
  const groups = new Map<string, Group>();
  nodes.forEach((n, i) => {
    const member = n.changes.get("rackform_cluster_member")?.[0];
    if (!member || (member.change.actions.includes("create") && !member.change.actions.includes("delete"))) return;
    const budget = budgetOf(member);
    if (budget === undefined) return;
    const g: Group = groups.get(budget) ?? {
      nodes: 0,
      drained: new Map(),
      limits: [],
      limited: 0,
      undrained: 0,
      unbudgeted: [],
    };
    groups.set(budget, g);
    g.nodes += 1;
    const events = effects[i].events;
    const kind = kindOf(member);
    if (kind === "other") {
      const out = [...events].find((e) => DISRUPTIVE.has(e));
      if (!out) return;
      g.undrained += 1;
      g.unbudgeted.push({ node: n.name, why: `${out} without a drain` });
      return;
    }
    const by = outBy(kind, events);
    g.drained.set(by, (g.drained.get(by) ?? 0) + 1);
    const drains = knownText(current(member.change, "drain_on_destroy")) !== "false";
    const limit = limitOf(member, kind);
    if (!drains) g.unbudgeted.push({ node: n.name, why: "leaves without a drain (drain_on_destroy = false)" });
    else if (limit === undefined) g.unbudgeted.push({ node: n.name, why: "no max_unavailable" });
    else {
      g.limited += 1;
      if (!g.limits.includes(limit)) g.limits.push(limit);
    }
  });
  const out: Rollout[] = [];
  for (const [budget, g] of [...groups.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const drainedTotal = [...g.drained.values()].reduce((a, b) => a + b, 0);
    if (drainedTotal + g.unbudgeted.length === 0) continue;
    const limits = [...g.limits].sort((a, b) => a - b);
    const atOnce = Math.min(g.limited, limits.at(-1) ?? 0) + g.unbudgeted.length;
    let warning: string | undefined;
    if (limits.length === 0 && atOnce >= g.nodes) {
      warning = `${budget}: every node (${atOnce} of ${g.nodes}) may be out of service at once — no max_unavailable is set`;
    } else if (limits.length > 0 && atOnce > limits[0]) {
      const mixed = limits.length > 1 ? [`members set max_unavailable = ${limits.join(", ")}`] : [];
      const who = [...mixed, ...g.unbudgeted.map((u) => `${u.node} (${u.why})`)].join(", ");
      warning = `${budget}: up to ${atOnce} of ${g.nodes} nodes may be out of service at once, more than max_unavailable = ${limits[0]}${who ? `: ${who}` : ""}`;
    }
    const { nodes, drained, unbudgeted, undrained } = g;
    out.push({ budget, nodes, drained, limits, unbudgeted, undrained, atOnce, warning });
  }
  return out;
}
