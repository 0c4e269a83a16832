/**
 * From plans to racks: every plan's nodes grouped into racks (the label the plan was given, else the node's PDU),
 * with the events counted per rack and the plan-level conditions (errored, incomplete, drift) a reviewer must see.
 */
import { type NodeEffects, type NodeEvent, nodeEffects } from "./effects.js";
import { planNodes } from "./nodes.js";
import type { PlanJson, ResourceChange } from "./plan-json.js";

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
}

/** What one plan reports about itself, apart from its changes. */
export interface PlanStatus {
  readonly source: string;
  readonly label: string | undefined;
  /** `terraform_version` of the plan (OpenTofu writes its own version there too). */
  readonly engineVersion: string | undefined;
  readonly errored: boolean;
  readonly incomplete: boolean;
  readonly changes: number;
  /** Node names (or addresses) whose resources changed outside the engine since the last apply. */
  readonly drift: readonly string[];
  /** Changes to resources outside a node's chain (other providers, data sources read during apply). */
  readonly others: readonly ResourceChange[];
}

/** The whole summary. */
export interface PlanSummary {
  readonly plans: readonly PlanStatus[];
  readonly racks: readonly RackSummary[];
}

const NO_PDU = "nodes without a PDU outlet in the plan";

const isChange = (c: ResourceChange) => !c.change.actions.every((a) => a === "no-op" || a === "read");

/** Top-level attributes whose values differ between before and after. */
function differing(c: ResourceChange): Set<string> {
  const before = (c.change.before ?? {}) as Record<string, unknown>;
  const after = (c.change.after ?? {}) as Record<string, unknown>;
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return new Set([...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k])));
}

/**
 * Drift the planned changes depend on, as the engines themselves report it: observed values (status, power state)
 * change on every refresh and would bury the drift that matters.
 */
function driftOf(plan: PlanJson, nameOf: Map<string, string>): string[] {
  const relevant = plan.relevant_attributes ?? [];
  const matters = (c: ResourceChange) => {
    if (c.change.after === null || c.change.after === undefined) return true;
    const diff = differing(c);
    return relevant.some(
      (r) => r.resource === c.address && (r.attribute.length === 0 || diff.has(String(r.attribute[0]))),
    );
  };
  const drifted = (plan.resource_drift ?? [])
    .filter(isChange)
    .filter(matters)
    .map((c) => nameOf.get(c.address) ?? c.address);
  return [...new Set(drifted)].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/** Summarises the plans; racks keep the order the plans were given in, PDU groups sort by name within a plan. */
export function summarise(inputs: readonly PlanInput[]): PlanSummary {
  const plans: PlanStatus[] = [];
  const racks: RackSummary[] = [];
  for (const input of inputs) {
    const { nodes, others } = planNodes(input.plan);
    const nameOf = new Map<string, string>();
    for (const n of nodes) for (const cs of n.changes.values()) for (const c of cs) nameOf.set(c.address, n.name);
    plans.push({
      source: input.source,
      label: input.label,
      engineVersion: input.plan.terraform_version,
      errored: input.plan.errored === true,
      incomplete: input.plan.complete === false,
      changes: (input.plan.resource_changes ?? []).filter(isChange).length,
      drift: driftOf(input.plan, nameOf),
      others: others.filter(isChange),
    });
    const groups = new Map<string, NodeEffects[]>();
    for (const n of nodes) {
      const label = input.label ?? (n.pdu ? `PDU ${n.pdu}` : NO_PDU);
      groups.set(label, [...(groups.get(label) ?? []), nodeEffects(n)]);
    }
    const labels = [...groups.keys()].sort((a, b) =>
      a === NO_PDU ? 1 : b === NO_PDU ? -1 : a.localeCompare(b, "en", { numeric: true }),
    );
    if (input.label !== undefined && labels.length === 0) labels.push(input.label);
    for (const label of labels) {
      const all = groups.get(label) ?? [];
      const changed = all.filter((e) => e.cells.size > 0);
      const counts = new Map<NodeEvent, number>();
      for (const e of changed) for (const ev of e.events) counts.set(ev, (counts.get(ev) ?? 0) + 1);
      racks.push({ label, source: input.source, nodeCount: all.length, changed, counts });
    }
  }
  return { plans, racks };
}
