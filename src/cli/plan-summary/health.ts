/**
 * The "Node health" section: components each node's BMC reports as not healthy (rackform_bmc's `health`, as the
 * plan's refresh found it), so a scheduled plan shows sick nodes even when it plans nothing for them.
 */
import { type HealthFinding, recordedHealth } from "../stages.js";
import type { ResourceChange } from "./plan-json.js";

/** A node and its findings. */
export interface HealthNode {
  readonly name: string;
  readonly findings: readonly HealthFinding[];
}

/** The findings of one rackform_bmc change: its planned values when known, else its refreshed ones. */
function findingsOf(c: ResourceChange): HealthFinding[] {
  const values = (c.change.after ?? c.change.before) as Record<string, unknown> | null | undefined;
  return recordedHealth(values?.health);
}

/** Nodes (by the name the summary gives them, else the BMC's address) whose BMC reports a component not OK. */
export function healthByNode(changes: readonly ResourceChange[], nameOf: ReadonlyMap<string, string>): HealthNode[] {
  const out: HealthNode[] = [];
  for (const c of changes) {
    if (c.type !== "rackform_bmc" || c.mode !== "managed") continue;
    const findings = findingsOf(c);
    if (findings.length > 0) out.push({ name: nameOf.get(c.address) ?? c.address, findings });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }));
}
