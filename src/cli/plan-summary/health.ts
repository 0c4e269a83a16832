/**
 * The "Node health" section: components each node's BMC reports as not healthy (rackform_bmc's `health`, as the
 * plan's refresh found it) and what its scheduler marked by itself (data rackform_scheduler_health's findings its
 * deployment follows), so a scheduled plan shows sick nodes even when it plans nothing for them, with the step
 * of the remediation ladder the plan takes for each (rackform_deployment's `remediation`) and, when more nodes take a
 * step than a member's max_unhealthy allows, why the apply will hold the rest back.
 */
import { REPAIR, rungLabel, SCHEDULER_KIND_PREFIX } from "../../provider/shared/remediation.js";
import { type HealthFinding, recordedHealth } from "../stages.js";
import type { ResourceChange } from "./plan-json.js";
import { rungMove } from "./remediation.js";
import { attr, knownText } from "./values.js";

/** A node, its findings and its ladder step in this plan. */
export interface HealthNode {
  readonly name: string;
  readonly findings: readonly HealthFinding[];
  /** The ladder's step the plan takes ("power cycle", …), "held for repair", or undefined (none). */
  readonly step?: string;
}

/** The findings of one rackform_bmc change: its planned values when known, else its refreshed ones. */
function findingsOf(c: ResourceChange): HealthFinding[] {
  const values = (c.change.after ?? c.change.before) as Record<string, unknown> | null | undefined;
  return recordedHealth(values?.health);
}

/** The ladder step of a node's deployment change, as the Health table shows it. */
function stepOf(c: ResourceChange | undefined): string | undefined {
  if (!c) return undefined;
  const m = rungMove(c);
  if (m) return m.to === "" ? "ladder reset" : rungLabel(m.to);
  const now = knownText(attr(c.change, "after", "remediation")) ?? knownText(attr(c.change, "before", "remediation"));
  return now === REPAIR ? "held for repair" : undefined;
}

/** The scheduler's findings a deployment follows (data rackform_scheduler_health's, in its bmc_health). */
function schedulerFindingsOf(c: ResourceChange): HealthFinding[] {
  const values = (c.change.after ?? c.change.before) as Record<string, unknown> | null | undefined;
  return recordedHealth(values?.bmc_health).filter((f) => f.kind?.startsWith(SCHEDULER_KIND_PREFIX) === true);
}

/**
 * Nodes (by the name the summary gives them, else the BMC's address) whose BMC reports a component not OK, or whose
 * scheduler marked them out by itself (the findings their deployment follows).
 */
export function healthByNode(changes: readonly ResourceChange[], nameOf: ReadonlyMap<string, string>): HealthNode[] {
  const deployments = new Map<string, ResourceChange>();
  for (const c of changes) {
    const name = nameOf.get(c.address);
    if (c.type === "rackform_deployment" && c.mode === "managed" && name) deployments.set(name, c);
  }
  const found = new Map<string, HealthFinding[]>();
  for (const c of changes) {
    if (c.type !== "rackform_bmc" || c.mode !== "managed") continue;
    const findings = findingsOf(c);
    if (findings.length > 0) found.set(nameOf.get(c.address) ?? c.address, findings);
  }
  for (const [name, c] of deployments) {
    const scheduler = schedulerFindingsOf(c);
    if (scheduler.length > 0) found.set(name, [...(found.get(name) ?? []), ...scheduler]);
  }
  const out: HealthNode[] = [...found].map(([name, findings]) => {
    const step = stepOf(deployments.get(name));
    return { name, findings, ...(step ? { step } : {}) };
  });
  return out.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
}

/**
 * Why the apply holds nodes back: more members take a ladder step than the smallest max_unhealthy among them allows
 * (the provider counts per budget and process; this counts per plan). Undefined when within it.
 */
export function unhealthyNote(changes: readonly ResourceChange[]): string | undefined {
  const stepping = changes.filter((c) => {
    if (c.type !== "rackform_cluster_member") return false;
    const m = rungMove(c);
    return m !== undefined && m.to !== "";
  });
  const limits = stepping
    .map((c) => Number(knownText(attr(c.change, "after", "max_unhealthy"))))
    .filter((n) => Number.isFinite(n) && n >= 1);
  if (limits.length === 0) return undefined;
  const max = Math.min(...limits);
  if (stepping.length <= max) return undefined;
  return (
    `${stepping.length} nodes take a health step in this plan and max_unhealthy is ${max}: the first ${max} to reach ` +
    "their step take it, the others are left as they are with a warning and planned again by the next plan. Many " +
    "nodes sick at once is usually the fabric, the cooling or the power rather than the nodes: check those first."
  );
}
