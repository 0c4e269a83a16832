/**
 * rackform_bmc's `health`: the components the BMC reports as not healthy, each with the time a read first found it
 * so (kept from the state while the same component stays at the same health), and the refresh's warning naming them.
 */
import type { ComponentHealth } from "../../clients/redfish/index.js";
import { type Diagnostics, path } from "../../framework/index.js";
import type { BmcState } from "./bmc-schema.js";

/** One finding as state records it. */
export type HealthFinding = NonNullable<BmcState["health"]>[number];

/** The findings of `found`, with `since` carried over from `prior` for a component whose health did not change. */
export function healthValues(
  found: readonly ComponentHealth[],
  prior: readonly HealthFinding[] | null | undefined,
  now: Date = new Date(),
): HealthFinding[] {
  const before = new Map((Array.isArray(prior) ? prior : []).map((f) => [`${f.uri}|${f.health}`, f.since]));
  return found.map((h) => ({
    component: h.name ?? h.id,
    kind: h.kind,
    health: h.health,
    uri: h.id,
    since: before.get(`${h.id}|${h.health}`) ?? now.toISOString(),
  }));
}

/** The warning of a read that found components not healthy (one per node: the engines fold alike summaries). */
export function warnUnhealthy(diags: Diagnostics, origin: string, findings: readonly HealthFinding[]): void {
  if (findings.length === 0) return;
  const lines = findings.map((f) => `${f.component} (${f.kind}): ${f.health} since ${f.since}`);
  diags.warning(
    `Node health: ${findings.length} component${findings.length === 1 ? "" : "s"} not OK: ${origin}`,
    `The BMC reports:\n${lines.join("\n")}\nRecorded in health. Take the node out of service or let its acceptance ` +
      "gate run again, and check the BMC's log for the cause.",
    path("health"),
  );
}
