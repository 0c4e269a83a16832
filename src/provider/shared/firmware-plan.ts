/**
 * What a firmware baseline asks of one node: which components move from which version to which, in the order vendors
 * require (the BMC first — it runs the other updates —, then BIOS/UEFI, then devices), and which baseline keys name
 * no component the node has. Pure; components are named as FirmwareInventory names them (conformance.ts's matching).
 */
import type { FirmwareInfo } from "../../clients/redfish/index.js";
import { firmwareMatches } from "./conformance.js";

/** One component's wanted firmware: its version and where its image is, with the image's sha256. */
export interface FirmwareTarget {
  readonly version: string;
  readonly url: string;
  readonly sha256: string;
}

/** The update order's classes: BMC, then BIOS/UEFI, then every other device. */
export type ComponentClass = "bmc" | "bios" | "device";

/** One component to update. */
export interface FirmwareMove {
  /** The baseline key. */
  readonly component: string;
  readonly kind: ComponentClass;
  /** The version the node runs now (the first differing inventory item's). */
  readonly from: string;
  readonly to: string;
  /** The inventory items (URIs, else Ids) the image is for: an update's Targets. */
  readonly targets: readonly string[];
  readonly target: FirmwareTarget;
}

/** A baseline judged against one node's FirmwareInventory. */
export interface FirmwarePlan {
  /** Components to update, in update order. */
  readonly moves: readonly FirmwareMove[];
  /** Baseline keys that name no inventory item of the node. */
  readonly unknown: readonly string[];
}

/** The order class of a component, from its key and inventory name. */
export function componentClass(key: string, items: readonly FirmwareInfo[] = []): ComponentClass {
  const words = [key, ...items.flatMap((i) => [i.id, i.name ?? ""])].join(" ").toLowerCase();
  if (/\b(bmc|idrac|ilo|openbmc|manager)\b|bmc_firmware/.test(words)) return "bmc";
  if (/\b(bios|uefi)\b|bios_version/.test(words)) return "bios";
  return "device";
}

const ORDER: Record<ComponentClass, number> = { bmc: 0, bios: 1, device: 2 };

/**
 * The moves a baseline asks of a node: every component whose inventory item(s) report another version. An item
 * with no version counts as differing (nothing proves it runs the wanted one).
 */
export function firmwarePlan(
  inventory: readonly FirmwareInfo[],
  baseline: Readonly<Record<string, FirmwareTarget>>,
): FirmwarePlan {
  const moves: FirmwareMove[] = [];
  const unknown: string[] = [];
  for (const component of Object.keys(baseline).sort()) {
    const target = baseline[component];
    const items = firmwareMatches(inventory, component);
    if (items.length === 0) {
      unknown.push(component);
      continue;
    }
    const behind = items.filter((i) => i.version !== target.version);
    if (behind.length === 0) continue;
    moves.push({
      component,
      kind: componentClass(component, items),
      from: behind[0].version ?? "unknown",
      to: target.version,
      targets: items.map((i) => i.odataId ?? i.id),
      target,
    });
  }
  moves.sort((a, b) => ORDER[a.kind] - ORDER[b.kind] || a.component.localeCompare(b.component));
  return { moves, unknown };
}

/** "BIOS 2.1 → 2.3", as plans and summaries show a move. */
export function describeMove(m: Pick<FirmwareMove, "component" | "from" | "to">): string {
  return `${m.component} ${m.from} → ${m.to}`;
}
