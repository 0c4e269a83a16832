/**
 * The inventory reads of RedfishClient: the System (expanded where the BMC offers `$expand`), its FirmwareInventory
 * (likewise), then the link walk of inventory.ts reading through whatever the expansions already brought.
 */
import type { HttpStatusError } from "../errors.js";
import { RedfishError } from "../errors.js";
import { mapLimit } from "../http/semaphore.js";
import { expandLevels, getExpanded, type JsonSource, Prefetched } from "./expand.js";
import { collectInventory, isDeadLink } from "./inventory.js";
import { link, members, parseFirmware } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { FirmwareInfo, Inventory, RedfishJson, RefreshTag } from "./types.js";

/**
 * FirmwareInventory below `updateRef`, sorted by id; with `levels` > 0 read in one expanded GET whose tag goes to
 * `onTag`. With `warnings`, a member that answers 404/500 is skipped and named there instead of failing the list.
 */
export async function readFirmware(
  t: RedfishTransport,
  src: JsonSource,
  updateRef: string,
  opts: { levels: number; parallel: number; warnings?: string[]; onTag?: (tag: RefreshTag | undefined) => void },
): Promise<FirmwareInfo[]> {
  // Only the way to FirmwareInventory, whose path a fingerprint keeps: read apart from what the System's tag covers.
  const update = await t.getJson(updateRef);
  const inv = link(update, "FirmwareInventory");
  opts.onTag?.(undefined);
  if (!inv) return [];
  let collection: RedfishJson;
  let reader = src;
  let fetched: readonly unknown[] = [];
  if (opts.levels > 0) {
    const r = await getExpanded(t, inv, 1);
    const cache = new Prefetched(t);
    cache.add(r.json);
    reader = cache;
    collection = r.json;
    opts.onTag?.(r.tag);
    // Members the BMC did not expand were read by link: the expanded collection's tag does not cover them.
    fetched = cache.fetched;
  } else collection = await src.getJson(inv);
  const items = await mapLimit(members(collection), opts.parallel, async (r) => {
    try {
      return [parseFirmware(await reader.getJson(r))];
    } catch (e) {
      if (!opts.warnings || !isDeadLink(e)) throw e;
      // The full URL, as collectInventory names its skipped members: a warning must say which BMC it was.
      opts.warnings.push(`skipped ${(e as HttpStatusError).url ?? r}: HTTP ${(e as HttpStatusError).status}`);
      return [];
    }
  });
  if (fetched.length > 0) opts.onTag?.(undefined);
  return items.flat().sort((a, b) => a.id.localeCompare(b.id));
}

/**
 * Hardware inventory of the system at `systemRef`. Where the BMC offers `$expand`, the System and FirmwareInventory
 * are each read in one expanded GET and the result carries their tags (`refresh`), unless one of them could not be
 * read expanded: then a later refresh has nothing to compare and reads everything again.
 */
export async function readInventory(
  t: RedfishTransport,
  systemRef: string,
  updateRef: string | undefined,
  parallel: number,
): Promise<Inventory> {
  const levels = expandLevels(await t.root());
  const src = new Prefetched(t);
  let system: RedfishJson;
  let systemTag: RefreshTag | undefined;
  if (levels > 0) {
    const r = await getExpanded(t, systemRef, levels);
    src.add(r.json);
    system = r.json;
    systemTag = r.tag;
  } else system = await t.getJson(systemRef);
  const warnings: string[] = [];
  let firmwareTag: RefreshTag | undefined;
  let firmwareCovered = updateRef === undefined;
  const firmware = updateRef
    ? await readFirmware(t, src, updateRef, {
        levels,
        parallel,
        warnings,
        onTag: (tag) => {
          firmwareTag = tag;
          firmwareCovered = true;
        },
      }).catch((e) => {
        if (e instanceof RedfishError && e.code === "RACKFORM_ERR_REDFISH_NOT_FOUND") return [];
        if (!isDeadLink(e)) throw e;
        firmwareCovered = false;
        warnings.push(
          `skipped ${(e as HttpStatusError).url ?? "UpdateService"}: HTTP ${(e as HttpStatusError).status}`,
        );
        return [];
      })
    : [];
  const inv = await collectInventory(src, system, firmware, parallel, warnings);
  // A FirmwareInventory read without its tag (not expanded) would leave firmware drift unseen by a refresh.
  const hasFirmwareList = firmwareTag !== undefined || firmware.length === 0;
  // Nor may the inventory rest on anything the System's expansion did not bring (members below MaxLevels, chassis or
  // OEM links): a change there would not change the tag. The Manager is the one exception — its FirmwareVersion is the
  // BMC's firmware, which FirmwareInventory lists too; it is not checked against `expected`.
  const uncovered = src.fetched.filter((r) => !/^#Manager(Collection)?\./.test(r.type));
  if (!systemTag || !firmwareCovered || !hasFirmwareList || uncovered.length > 0) return inv;
  return { ...inv, refresh: { system: systemTag, ...(firmwareTag ? { firmware: firmwareTag } : {}) } };
}
