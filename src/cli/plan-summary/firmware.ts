/**
 * The Firmware column: what a node's rackform_firmware moves — "BIOS 2.1 → 2.3" per component whose version changes
 * (its computed `versions`), "BIOS SriovGlobalEnable Disabled → Enabled" per BIOS setting (`bios_settings`; counted as
 * "5 BIOS settings" past three), and on create the baseline from the configuration ("BIOS → 2.3, 2 BIOS settings").
 * A version or setting that moves on a node that exists is a host reset (the `firmware` event): the firmware resource
 * resets the host itself, or with `rolling` its cluster member does it drained inside the budget (service.ts).
 */
import { changedAttrs, kindOf, tainted, updated } from "./change-kind.js";
import type { NodeEvent } from "./effects.js";
import type { ResourceChange } from "./plan-json.js";
import { secureBootBaseline, secureBootMoves } from "./trust.js";
import { attr, display, type Shown } from "./values.js";

/** How many changed BIOS settings a cell names before it only counts them. */
const SETTINGS_NAMED = 3;

/** Attributes the column's own words cover, or that follow from them (the ref, the order, the evidence). */
const COVERED = new Set([
  "versions",
  "bios_settings",
  "components",
  "bios",
  "ref",
  "update_order",
  "last_update_messages",
  "bios_pending",
  "secure_boot",
  "secure_boot_status",
]);

type Side = "before" | "after";

const keysOf = (s: Shown): string[] =>
  s.kind === "known" && typeof s.value === "object" && s.value !== null ? Object.keys(s.value) : [];

/** The entries of a map that move, as [key, from, to] texts; `after` read through `path` (a nested map's field). */
function moves(c: ResourceChange, from: string, to: string, ...path: string[]): [string, string, string][] {
  const keys = [...new Set([...keysOf(attr(c.change, "before", from)), ...keysOf(attr(c.change, "after", to))])];
  return keys
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((k): [string, string, string] => {
      const before = attr(c.change, "before", from, k);
      const after = attr(c.change, "after", to, k, ...path);
      return [k, before.kind === "absent" ? "" : display(before), after.kind === "absent" ? "" : display(after)];
    })
    .filter(([, a, b]) => b !== "" && a !== b);
}

/** "BIOS 2.1 → 2.3" per moving component: from `versions`, or from the configured baseline while they are unknown. */
function componentMoves(c: ResourceChange): string[] {
  const planned = attr(c.change, "after", "versions");
  const list =
    planned.kind === "unknown" ? moves(c, "versions", "components", "version") : moves(c, "versions", "versions");
  return list.map(([k, a, b]) => (a ? `${k} ${a} → ${b}` : `${k} → ${b}`));
}

/** The BIOS settings that move, named when there are few, else counted. */
function settingMoves(c: ResourceChange): string[] {
  const planned = attr(c.change, "after", "bios_settings");
  const list =
    planned.kind === "unknown" ? moves(c, "bios_settings", "bios") : moves(c, "bios_settings", "bios_settings");
  if (list.length === 0) return [];
  if (list.length > SETTINGS_NAMED) return [`${list.length} BIOS settings`];
  return list.map(([k, a, b]) => (a ? `BIOS ${k} ${a} → ${b}` : `BIOS ${k} → ${b}`));
}

const count = (s: Shown) => keysOf(s).length;

/** A new baseline from the configuration: "BIOS → 2.3, GPU → 96.00.5E, 2 BIOS settings". */
function baseline(c: ResourceChange, side: Side): string {
  const components = keysOf(attr(c.change, side, "components"))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .map((k) => `${k} → ${display(attr(c.change, side, "components", k, "version"))}`);
  const n = count(attr(c.change, side, "bios"));
  const settings = n > 0 ? [`${n} BIOS ${n === 1 ? "setting" : "settings"}`] : [];
  const parts = [...components, ...settings, ...secureBootBaseline(c, side)];
  return parts.length > 0 ? parts.join(", ") : "no components or settings";
}

/** An update's cell: the moving components and settings, then any other changed attribute. */
function update(c: ResourceChange, ev: Set<NodeEvent>): string {
  const parts = [...componentMoves(c), ...settingMoves(c), ...secureBootMoves(c)];
  if (parts.length > 0) ev.add("firmware");
  const changed = changedAttrs(c);
  if (parts.length === 0 && changed.includes("components")) parts.push("new images, same versions (nothing flashed)");
  const rest = changed.filter((a) => !COVERED.has(a));
  if (rest.length > 0) parts.push(`update (${rest.join(", ")})`);
  return parts.length > 0 ? parts.join(", ") : updated(c);
}

/** The Firmware cell of a rackform_firmware change. */
export function firmware(c: ResourceChange, ev: Set<NodeEvent>): string {
  switch (kindOf(c)) {
    case "create":
      ev.add("firmware-baseline");
      return baseline(c, "after");
    case "replace":
      ev.add("firmware");
      return `apply again (${tainted(c) ? "failed last apply" : "replaced"}): ${baseline(c, "after")}`;
    case "delete":
      return "forget the baseline (firmware left as it is)";
    case "update":
      return update(c, ev);
    default:
      return "";
  }
}
