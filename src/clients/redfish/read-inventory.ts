/**
 * The inventory reads of RedfishClient: the System (expanded where the BMC offers `$expand`), its FirmwareInventory
 * (likewise), then the link walk of inventory.ts reading through whatever the expansions already brought.
 */
import type { HttpStatusError } from "../errors.js";
import { mapLimit } from "../http/semaphore.js";
import type { BiosValue } from "./bios-registry.js";
import { expandLevels, getExpanded, Prefetched } from "./expand.js";
import { collectInventory, isDeadLink } from "./inventory.js";
import { embeddedEventLog } from "./log-entries.js";
import { isObj, link, members, parseFirmware } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { FirmwareInfo, Inventory, RedfishJson, RefreshTag } from "./types.js";

/** A FirmwareInventory read, and whether one tag covers all of it (`covered`; `tag` absent when there is none). */
export interface FirmwareRead {
  readonly firmware: FirmwareInfo[];
  readonly covered: boolean;
  readonly tag?: RefreshTag;
}

const skipped = (e: unknown, what: string) =>
  `skipped ${(e as HttpStatusError).url ?? what}: HTTP ${(e as HttpStatusError).status}`;

/**
 * FirmwareInventory below `updateRef`, sorted by id; with `levels` > 0 read in one expanded GET. With `warnings`, a
 * member that answers 404/500 is skipped and named there instead of failing the list.
 */
export async function readFirmware(
  t: RedfishTransport,
  updateRef: string,
  opts: { readonly levels: number; readonly parallel: number; readonly warnings?: string[] },
): Promise<FirmwareRead> {
  // Only the way to FirmwareInventory (whose path a fingerprint keeps), so not part of what a tag must cover.
  const inv = link(await t.getJson(updateRef), "FirmwareInventory");
  if (!inv) return { firmware: [], covered: true };
  if (opts.levels > 0) return firmwareFrom(t, await getExpanded(t, inv, 1), opts);
  return firmwareFrom(t, { json: await t.getJson(inv) }, opts);
}

/** The FirmwareInventory in `collection` (expanded when it has a tag); members it lacks are read by their link. */
export async function firmwareFrom(
  t: RedfishTransport,
  { json: collection, tag }: { readonly json: RedfishJson; readonly tag?: RefreshTag },
  opts: { readonly parallel: number; readonly warnings?: string[] },
): Promise<FirmwareRead> {
  const reader = new Prefetched(t);
  if (tag) reader.add(collection);
  const items = await mapLimit(members(collection), opts.parallel, async (r) => {
    try {
      return [parseFirmware(await reader.getJson(r))];
    } catch (e) {
      if (!opts.warnings || !isDeadLink(e)) throw e;
      // The full URL, as collectInventory names its skipped members: a warning must say which BMC it was.
      opts.warnings.push(skipped(e, r));
      return [];
    }
  });
  const firmware = items.flat().sort((a, b) => a.id.localeCompare(b.id));
  // A member the BMC did not expand was read by its link: the collection's tag does not cover it.
  const covered = tag !== undefined && reader.fetched.length === 0;
  return covered ? { firmware, covered, tag } : { firmware, covered };
}

/**
 * Hardware inventory of the system at `systemRef`. Where the BMC offers `$expand`, the System and FirmwareInventory
 * are each read in one expanded GET, and the result carries their tags (`refresh`) when those two cover everything the
 * inventory was made of; otherwise a later refresh has nothing to compare and reads everything again.
 */
export async function readInventory(
  t: RedfishTransport,
  systemRef: string,
  updateRef: string | undefined,
  parallel: number,
): Promise<Inventory> {
  const levels = expandLevels(await t.root());
  const system = levels > 0 ? await getExpanded(t, systemRef, levels) : { json: await t.getJson(systemRef) };
  const warnings: string[] = [];
  const fw: FirmwareRead = updateRef
    ? await readFirmware(t, updateRef, { levels, parallel, warnings }).catch((e) => {
        if (!isDeadLink(e)) throw e;
        warnings.push(skipped(e, "UpdateService"));
        return { firmware: [], covered: false };
      })
    : { firmware: [], covered: true };
  return inventoryFrom(t, system, fw, { parallel, warnings });
}

/**
 * The inventory made of a System payload (expanded when it has a tag) and a FirmwareInventory read; anything they
 * lack is read by its link. With `knownBmcFirmware` the Manager is not read.
 */
export async function inventoryFrom(
  t: RedfishTransport,
  { json: system, tag: systemTag }: { readonly json: RedfishJson; readonly tag?: RefreshTag },
  fw: FirmwareRead,
  opts: { readonly parallel: number; readonly warnings: string[]; readonly knownBmcFirmware?: string },
): Promise<Inventory> {
  const src = new Prefetched(t);
  if (systemTag) src.add(system);
  const collected = await collectInventory(
    src,
    system,
    fw.firmware,
    opts.parallel,
    opts.warnings,
    opts.knownBmcFirmware,
  );
  const bios = expandedBios(system);
  const log = embeddedEventLog(system);
  const inv = { ...collected, ...(bios ? { biosAttributes: bios } : {}), ...(log ? { eventLog: log } : {}) };
  // Nothing the inventory rests on may lie outside the System's expansion (members below MaxLevels, chassis or OEM
  // links): a change there would not change its tag. The Manager is the one exception: its FirmwareVersion is the
  // BMC's firmware, which FirmwareInventory (covered) lists too on every BMC we know; a BMC that listed it only under
  // its Manager would have a `firmware.bmc_firmware_version` drift seen only by a full read.
  const uncovered = src.fetched.filter((r) => !/^#Manager(Collection)?\./.test(r.type));
  if (!systemTag || !fw.covered || uncovered.length > 0) return inv;
  return { ...inv, refresh: { system: systemTag, ...(fw.tag ? { firmware: fw.tag } : {}) } };
}

/** The Bios `Attributes` the System's expansion carries inline (none when the BMC did not expand its Bios link). */
function expandedBios(system: RedfishJson): Record<string, BiosValue> | undefined {
  const bios = isObj(system.Bios) ? system.Bios : undefined;
  const attrs = bios && isObj(bios.Attributes) ? bios.Attributes : undefined;
  if (!attrs) return undefined;
  const out: Record<string, BiosValue> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
  }
  return out;
}
