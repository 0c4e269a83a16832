/**
 * Passive health of a system's components as its BMC reports it (Resource.Status, DSP0268 "Status"): the GPUs, CPUs,
 * PCIe devices, network interfaces and memory modules whose `Status.Health` is Warning or Critical. Made from the
 * payloads the inventory already reads, so it costs no request of its own — except the memory modules, read only
 * when `MemorySummary.Status.HealthRollup` says one of them is not OK and the System's expansion did not bring them.
 */
import { isObj, str } from "./parse.js";
import type { ComponentHealth, RedfishJson } from "./types.js";

/** A component's health when it is not OK (Warning or Critical; anything else is read as OK). */
export function healthOf(json: RedfishJson, rollup = false): "Warning" | "Critical" | undefined {
  const s = isObj(json.Status) ? json.Status : undefined;
  const h = s ? (rollup ? (s.HealthRollup ?? s.Health) : s.Health) : undefined;
  return h === "Warning" || h === "Critical" ? h : undefined;
}

/** The finding for one component read, when it is not healthy. */
export function finding(kind: ComponentHealth["kind"], json: RedfishJson): ComponentHealth[] {
  const health = healthOf(json);
  if (!health) return [];
  const id = str(json["@odata.id"]) ?? str(json.Id) ?? "";
  const name = str(json.Name) ?? str(json.Id);
  return [{ kind, id, ...(name ? { name } : {}), health }];
}

/** Whether the System's memory summary says a module is not healthy. */
export function memorySuspect(system: RedfishJson): boolean {
  return isObj(system.MemorySummary) && healthOf(system.MemorySummary, true) !== undefined;
}

/**
 * The memory findings: each module not OK; or, when the summary says one is but no module read says which, the
 * summary itself (a BMC that rolls up without naming the module).
 */
export function memoryFindings(system: RedfishJson, modules: readonly RedfishJson[]): ComponentHealth[] {
  const found = modules.flatMap((m) => finding("memory", m));
  if (found.length > 0 || !isObj(system.MemorySummary)) return found;
  const health = healthOf(system.MemorySummary, true);
  const id = `${str(system["@odata.id"]) ?? ""}#/MemorySummary`;
  return health ? [{ kind: "memory", id, name: "MemorySummary", health }] : [];
}

/** Findings by component id, once each, in a stable order (kind, then id). */
export function sortedFindings(list: readonly ComponentHealth[]): ComponentHealth[] {
  const byId = new Map<string, ComponentHealth>();
  for (const f of list) if (!byId.has(f.id)) byId.set(f.id, f);
  return [...byId.values()].sort((a, b) => a.kind.localeCompare(b.kind) || a.id.localeCompare(b.id));
}
