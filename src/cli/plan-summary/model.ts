/**
 * From plans to racks: every plan's nodes grouped into racks (the label the plan was given, else the node's PDU),
 * with the events counted per rack and the plan-level conditions (errored, incomplete, drift) a reviewer must see.
 */

import type { Stage } from "../stages.js";
import { type DriftNode, driftByNode } from "./drift.js";
import { type NodeEffects, type NodeEvent, nodeEffects } from "./effects.js";
import { type HealthNode, healthByNode, unhealthyNote } from "./health.js";
import { planNodes } from "./nodes.js";
import { stageBefore } from "./now.js";
import { type ImageChange, imageChanges, type Wave, type WholeBudget, wholeBudgets } from "./order.js";
import type { PlanJson, ResourceChange } from "./plan-json.js";
import { type Rollout, rollouts } from "./rollout.js";

/** One plan given to the command: its JSON, where it came from, and the rack label the user gave it (if any). */
export interface PlanInput {
  readonly plan: PlanJson;
  readonly source: string;
  readonly label?: string;
}

/** One rack of the summary. */
export interface RackSummary {
  readonly label: string;
  readonly source: string;
  /** Every node of the rack the plan knows, changed or not. */
  readonly nodeCount: number;
  /** The nodes with at least one change, by name. */
  readonly changed: readonly NodeEffects[];
  /** How many nodes each event touches. */
  readonly counts: ReadonlyMap<NodeEvent, number>;
  /** The plan's rollouts, when this rack is the whole plan (a labelled plan); else the plan's status carries them. */
  readonly rollouts: readonly Rollout[];
  /** Each node's stage before the plan runs (the words `rackform watch` shows). */
  readonly now: readonly Stage[];
}

/** What one plan reports about itself, apart from its changes. */
export interface PlanStatus {
  readonly source: string;
  readonly label: string | undefined;
  /** How the summary names the plan: its label, else its file's name (never the runner's path to it). */
  readonly name: string;
  /** `terraform_version` of the plan (OpenTofu writes its own version there too). */
  readonly engineVersion: string | undefined;
  readonly errored: boolean;
  readonly incomplete: boolean;
  readonly changes: number;
  /** Nodes whose BMC reports a component not OK (rackform_bmc's health after the plan's refresh). */
  readonly health: readonly HealthNode[];
  /** Why the apply will hold nodes back from their health step (max_unhealthy), when it will. */
  readonly unhealthy?: string;
  /** What changed outside the engine since the last apply, by node (or address), with the causes. */
  readonly drift: readonly DriftNode[];
  /** What the plan does to each node, by name (the fix beside a drift's cause). */
  readonly effects: ReadonlyMap<string, NodeEffects>;
  /** Per disruption budget, how many nodes go out of service and how many at once. */
  readonly rollouts: readonly Rollout[];
  /** Golden images the plan uploads, changes or removes. */
  readonly images: readonly ImageChange[];
  /** Changes to resources outside a node's chain (other providers, data sources read during apply), images aside. */
  readonly others: readonly ResourceChange[];
}

/** The whole summary. */
export interface PlanSummary {
  readonly plans: readonly PlanStatus[];
  readonly racks: readonly RackSummary[];
  /** The order the stacks apply in, when a cdktf manifest was given. */
  readonly waves?: readonly Wave[];
  /** Per disruption budget, the rollout of the whole change across every plan. */
  readonly budgets: readonly WholeBudget[];
}

/** The max_unhealthy note of a plan's changes, as an optional field. */
function withUnhealthyNote(changes: readonly ResourceChange[]): { unhealthy?: string } {
  const note = unhealthyNote(changes);
  return note ? { unhealthy: note } : {};
}

/** A file's name without its folders: runner-local paths (temp folders) stay out of a pull request comment. */
export function fileName(source: string): string {
  return source.split(/[/\\]/).pop() || source;
}

const NO_PDU = "nodes without a PDU outlet in the plan";

const isChange = (c: ResourceChange) => !c.change.actions.every((a) => a === "no-op" || a === "read");

/**
 * Summarises the plans; racks keep the order the plans were given in, PDU groups sort by name within a plan.
 * `waves`: the stacks' order from a cdktf manifest.
 */
export function summarise(inputs: readonly PlanInput[], waves?: readonly Wave[]): PlanSummary {
  const plans: PlanStatus[] = [];
  const racks: RackSummary[] = [];
  for (const input of inputs) {
    const { nodes, others } = planNodes(input.plan);
    const nameOf = new Map<string, string>();
    for (const n of nodes) for (const cs of n.changes.values()) for (const c of cs) nameOf.set(c.address, n.name);
    const effects = nodes.map(nodeEffects);
    const plan: PlanStatus = {
      source: input.source,
      label: input.label,
      name: input.label ?? fileName(input.source),
      engineVersion: input.plan.terraform_version,
      errored: input.plan.errored === true,
      incomplete: input.plan.complete === false,
      changes: (input.plan.resource_changes ?? []).filter(isChange).length,
      health: healthByNode(input.plan.resource_changes ?? [], nameOf),
      ...withUnhealthyNote(input.plan.resource_changes ?? []),
      drift: driftByNode(input.plan, nameOf, new Set(effects.filter((e) => e.retried).map((e) => e.name))),
      effects: new Map(effects.map((e) => [e.name, e])),
      rollouts: rollouts(nodes, effects),
      images: imageChanges(others),
      others: others.filter((c) => isChange(c) && c.type !== "rackform_image"),
    };
    plans.push(plan);
    const groups = new Map<string, NodeEffects[]>();
    const stages = new Map<string, Stage[]>();
    nodes.forEach((n, i) => {
      const label = input.label ?? (n.pdu ? `PDU ${n.pdu}` : NO_PDU);
      groups.set(label, [...(groups.get(label) ?? []), effects[i]]);
      stages.set(label, [...(stages.get(label) ?? []), stageBefore(n)]);
    });
    const labels = [...groups.keys()].sort((a, b) =>
      a === NO_PDU ? 1 : b === NO_PDU ? -1 : a.localeCompare(b, "en", { numeric: true }),
    );
    if (input.label !== undefined && labels.length === 0) labels.push(input.label);
    for (const label of labels) {
      const all = groups.get(label) ?? [];
      const changed = all.filter((e) => e.cells.size > 0);
      const counts = new Map<NodeEvent, number>();
      for (const e of changed) for (const ev of e.events) counts.set(ev, (counts.get(ev) ?? 0) + 1);
      const own = input.label !== undefined ? plan.rollouts : [];
      const now = stages.get(label) ?? [];
      racks.push({ label, source: input.source, nodeCount: all.length, changed, counts, rollouts: own, now });
    }
  }
  const budgets = wholeBudgets(plans);
  return { plans, racks, ...(waves ? { waves } : {}), budgets };
}
