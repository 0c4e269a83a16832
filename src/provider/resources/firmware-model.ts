/**
 * rackform_firmware's pure parts: the baseline and BIOS settings as the configuration gives them, what a node's
 * inventory and BIOS say about them, the settings typed by the BIOS's registry, the baseline's update order and its
 * `ref` (what the node's cluster member and gate follow).
 */
import { createHash } from "node:crypto";
import type { AttributeRegistry, BiosState, BiosValue, FirmwareInfo } from "../../clients/redfish/index.js";
import { componentClass, type FirmwareTarget, firmwarePlan } from "../shared/firmware-plan.js";
import { type SecureBootFacts, type SecureBootWanted, secureBootCanon } from "./firmware-secure-boot.js";

/** The configured components, as firmwarePlan takes them. */
export type Baseline = Readonly<Record<string, FirmwareTarget>>;

/** What one read of the node found. */
export interface NodeFacts {
  readonly inventory: readonly FirmwareInfo[];
  /** Undefined when the baseline names no BIOS settings (the BIOS is then not read). */
  readonly bios?: BiosState;
  /** The host's power as the System reports it. */
  readonly power?: string;
  /** The node's Secure Boot, read when `secure_boot` is set (undefined too when the BMC has no SecureBoot). */
  readonly secureBoot?: SecureBootFacts;
}

/** The versions the node runs for each baseline component it has (the first behind the baseline, if any). */
export function versionsOf(inventory: readonly FirmwareInfo[], baseline: Baseline): Record<string, string> {
  const { moves, unknown } = firmwarePlan(inventory, baseline);
  const out: Record<string, string> = {};
  for (const [component, target] of Object.entries(baseline)) {
    if (unknown.includes(component)) continue;
    out[component] = moves.find((m) => m.component === component)?.from ?? target.version;
  }
  return out;
}

/** A BIOS value as text, as `bios` and `bios_settings` hold it. */
export const biosText = (v: BiosValue): string => (v === null ? "" : String(v));

/** The current value of each named setting, as text (a setting the BIOS lacks is left out). */
export function settingsOf(bios: BiosState | undefined, names: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const n of names) {
    const v = bios?.attributes[n];
    if (v !== undefined) out[n] = biosText(v);
  }
  return out;
}

/** Staged settings that differ from the current ones, as text. */
export function pendingOf(bios: BiosState | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(bios?.pending ?? {}).map(([k, v]) => [k, biosText(v)]));
}

/**
 * A configured setting typed as the BMC will take it: by the registry's type where it has the attribute, else like
 * the current value (a BIOS without a published registry). Text that does not read as its type stays text, so the
 * registry check names the type problem.
 */
function typed(name: string, text: string, reg: AttributeRegistry | undefined, current: BiosValue | undefined) {
  const type = reg?.attributes.get(name)?.type ?? (typeof current === "number" ? "Integer" : typeof current);
  if (type === "Integer" && /^-?\d+$/.test(text.trim())) return Number(text.trim());
  if ((type === "Boolean" || type === "boolean") && /^(true|false)$/i.test(text.trim()))
    return text.trim().toLowerCase() === "true";
  return text;
}

/** The configured settings typed for the BMC. */
export function typedSettings(
  wanted: Readonly<Record<string, string>>,
  bios: BiosState,
  reg: AttributeRegistry | undefined,
): Record<string, BiosValue> {
  return Object.fromEntries(Object.entries(wanted).map(([k, v]) => [k, typed(k, v, reg, bios.attributes[k])]));
}

/** The typed settings whose current value differs. */
export function settingsToWrite(
  typedWanted: Readonly<Record<string, BiosValue>>,
  bios: BiosState,
): Record<string, BiosValue> {
  return Object.fromEntries(Object.entries(typedWanted).filter(([k, v]) => bios.attributes[k] !== v));
}

/** The order the baseline's components are updated in: BMC, BIOS/UEFI, devices; by name within a class. */
export function updateOrder(baseline: Baseline, inventory: readonly FirmwareInfo[] = []): string[] {
  const rank = { bmc: 0, bios: 1, device: 2 } as const;
  const cls = (k: string) =>
    rank[
      componentClass(
        k,
        inventory.filter((i) => i.id === k || i.name === k),
      )
    ];
  return Object.keys(baseline).sort((a, b) => cls(a) - cls(b) || a.localeCompare(b));
}

/**
 * The baseline part of `ref`: the node's BMC address and a digest of its components and settings. The whole ref adds
 * a count of the applies that had to change the node (`<address>#<digest>/<n>`, nextRef), so it moves exactly when
 * the node must be reset — a new baseline it does not run yet, or a version or setting changed by hand — and a
 * cluster member that follows it rolls the node then and only then.
 */
export function refOf(
  origin: string,
  baseline: Baseline,
  bios: Readonly<Record<string, string>>,
  secureBoot?: SecureBootWanted,
): string {
  const canon = (o: object) => Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
  const components = Object.fromEntries(
    Object.entries(baseline)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([k, t]) => [k, { version: t.version, sha256: t.sha256.toLowerCase() }]),
  );
  const digest = createHash("sha256")
    // Without secure_boot the digest is the one refs recorded before it existed (no roll of every node).
    .update(JSON.stringify({ components, bios: canon(bios), secure_boot: secureBootCanon(secureBoot) }))
    .digest("hex");
  return `${origin}#${digest.slice(0, 16)}`;
}

/** The ref of an apply that changes the node: the count after the recorded ref's, with the baseline's digest. */
export function nextRef(recorded: string | null, base: string): string {
  const n = recorded ? Number(/\/(\d+)$/.exec(recorded)?.[1] ?? 0) : 0;
  return `${base}/${n + 1}`;
}
