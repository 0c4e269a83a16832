/**
 * rackform_bmc's checks of what a discovery found: the node's description in messages, non-conformance with
 * `expected`, GPUs no longer reported, and an inventory that moved between plan and apply. Kept apart from the
 * resource (bmc.ts) so each file reads whole.
 */
import { isUnknownValue, path, type Value, valuesEqual } from "../../framework/index.js";
import { conformanceDifferences, formatDifferences } from "../shared/conformance.js";
import { baselineOf, type Discovered, inventoryValues } from "./bmc-discovery.js";
import type { BmcExpected, BmcPlan, BmcState } from "./bmc-schema.js";

/**
 * Computed attributes that come from the inventory: planned with their values in state (read from the device, or the
 * last known ones), and checked against what the apply finds. Serial, model and manufacturer identify the board and
 * keep their values too (see `identityChange`). `power_state` is not among them: the apply itself may change it.
 */
const INVENTORY = ["macs", "gpus", "gpu_count", "memory_gib", "cpu_count", "firmware"] as const;

/** The BMC's origin (its endpoint without path). */
export function origin(endpoint: string): string {
  return new URL(endpoint).origin;
}

/** What a message names a node by: its address, and its system and serial when known. */
export interface NodeNaming {
  readonly endpoint: string;
  readonly system_id: unknown;
  readonly serial: unknown;
}

/** "BMC https://… system 1 (serial S)" for messages. */
export function what(v: NodeNaming, d?: Discovered): string {
  const sys = d?.inv.systemId ?? (typeof v.system_id === "string" ? v.system_id : undefined);
  const serial = d?.inv.serial ?? (typeof v.serial === "string" ? v.serial : undefined);
  return `BMC ${origin(v.endpoint)}${sys ? ` system ${sys}` : ""}${serial ? ` (serial ${serial})` : ""}`;
}

/** Where a client error about this node is reported: its description, the endpoint, and system_id for a 404. */
export function site(v: NodeNaming) {
  return { what: what(v), endpointPath: path("endpoint"), notFoundPath: path("system_id") };
}

/** One diagnostic per node listing every difference; undefined when the node conforms. */
export function nonConformance(v: NodeNaming & { readonly expected: BmcExpected }, d: Discovered): string | undefined {
  const baseline = baselineOf(v.expected);
  const diffs = baseline ? conformanceDifferences(baseline, d.inv) : [];
  if (diffs.length === 0) return undefined;
  const n = diffs.length;
  const skipped = d.inv.warnings ?? [];
  // A part behind a dead link is missing from the inventory, not from the node: say which links, so the user checks them.
  const hidden =
    skipped.length > 0
      ? `\nThe BMC did not answer for ${skipped.length} linked resource${skipped.length > 1 ? "s" : ""}, which may hide what is missing:\n${skipped.join("\n")}\nCheck those on the BMC (a BMC firmware update often repairs dead links) before replacing any part.`
      : "";
  return `${what(v, d)}: ${n} difference${n > 1 ? "s" : ""} from expected:\n${formatDifferences(diffs)}${hidden}`;
}

/** "No longer reported: …" naming the GPUs in `st` (by serial) that the inventory `d` lacks; undefined when none. */
export function vanishedGpus(st: BmcState, d: Discovered): string | undefined {
  const before = st.gpus ?? [];
  const now = new Set(d.inv.gpus.map((g) => g.serial));
  const gone = before.filter((g) => typeof g.serial === "string" && !now.has(g.serial));
  if (gone.length === 0) return undefined;
  const named = gone.map((g) => `GPU serial ${g.serial}${typeof g.model === "string" ? ` (${g.model})` : ""}`);
  return `No longer reported since the last read: ${named.join(", ")}.`;
}

/** How the inventory the apply found differs from the known planned values, or undefined. */
export function inventoryChange(plan: BmcPlan, d: Discovered): string | undefined {
  const now = inventoryValues(d);
  const moved = INVENTORY.filter((k) => !isUnknownValue(plan[k]) && !valuesEqual(plan[k] as Value, now[k] as Value));
  if (moved.length === 0) return undefined;
  return moved.map((k) => `${k} was ${JSON.stringify(plan[k])}, now ${JSON.stringify(now[k])}`).join("; ");
}
