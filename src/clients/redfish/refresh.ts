/**
 * A refresh against a fingerprint (the tags of the expanded System and FirmwareInventory a full read left): one
 * conditional GET of the System, one of the FirmwareInventory, and — when they changed — the inventory rebuilt from
 * those very payloads, so a changed node costs no more requests than an unchanged one unless its firmware changed.
 */
import { hashOf } from "./expand.js";
import { parseSystem } from "./parse.js";
import { type FirmwareRead, firmwareFrom, inventoryFrom } from "./read-inventory.js";
import type { RedfishTransport } from "./transport.js";
import type { Inventory, RedfishJson, RefreshFingerprint, RefreshTag, SystemState } from "./types.js";

/** What a refresh found: nothing changed, or the inventory and system state as they now stand. */
export type RefreshOutcome =
  | { readonly unchanged: true }
  | { readonly unchanged: false; readonly inventory: Inventory; readonly system: SystemState };

/** The new tag of a re-read payload; it keeps an ETag only where the old one had one (trusted to cover it). */
function retag(old: RefreshTag, r: { readonly json: RedfishJson; readonly etag?: string }): RefreshTag {
  return { path: old.path, ...(old.etag !== undefined && r.etag ? { etag: r.etag } : {}), hash: hashOf(r.json) };
}

/**
 * Refreshes against `fp`. The FirmwareInventory is asked conditionally only when the System is unchanged: otherwise
 * the inventory is rebuilt and needs its body. With the firmware unchanged, `knownBmcFirmware` (the Manager's version
 * the last read found) stands and the Manager is not read.
 */
export async function refreshSince(
  t: RedfishTransport,
  fp: RefreshFingerprint,
  opts: { readonly parallel: number; readonly knownBmcFirmware?: string; readonly warnings: string[] },
): Promise<RefreshOutcome> {
  const sys = await t.getIfNoneMatch(fp.system.path, fp.system.etag);
  const systemSame = sys === "not-modified" || hashOf(sys.json) === fp.system.hash;
  let fwBody: { json: RedfishJson; etag?: string } | undefined;
  let firmwareSame = true;
  if (fp.firmware) {
    const r = await t.getIfNoneMatch(fp.firmware.path, systemSame ? fp.firmware.etag : undefined);
    if (r !== "not-modified") {
      fwBody = r;
      firmwareSame = hashOf(r.json) === fp.firmware.hash;
    }
  }
  if (systemSame && firmwareSame) return { unchanged: true };
  const system = sys === "not-modified" ? await t.get(fp.system.path) : sys;
  const fw: FirmwareRead =
    fp.firmware && fwBody
      ? await firmwareFrom(t, { json: fwBody.json, tag: retag(fp.firmware, fwBody) }, opts)
      : { firmware: [], covered: true };
  const inventory = await inventoryFrom(t, { json: system.json, tag: retag(fp.system, system) }, fw, {
    ...opts,
    knownBmcFirmware: firmwareSame ? opts.knownBmcFirmware : undefined,
  });
  // The expanded payload's ETag is not the System's own: callers that PATCH read the plain System for If-Match.
  return { unchanged: false, inventory, system: parseSystem(system.json) };
}
