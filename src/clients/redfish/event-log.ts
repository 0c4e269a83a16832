/**
 * One read of a node's event log for new entries (log-entries.ts does the reading): from the entries an expanded
 * System carried inline when there are any, else from the log at the cursor's path, else — the first time — from the
 * log found by following the System's (or its Manager's) LogServices, which only takes a baseline.
 */
import { expandLevels, getExpanded } from "./expand.js";
import { embeddedEventLog, embeddedSince, type LogRead, locateEventLog, readLogSince } from "./log-entries.js";
import { isObj } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { EmbeddedEventLog, EventLogCursor } from "./types.js";

/** Whether the service root advertises `$filter` (ProtocolFeaturesSupported.FilterQuery). */
export function filterSupported(root: Readonly<Record<string, unknown>>): boolean {
  const pf = isObj(root.ProtocolFeaturesSupported) ? root.ProtocolFeaturesSupported : undefined;
  return pf?.FilterQuery === true;
}

/**
 * New entries since `cursor` (undefined: none kept yet). `embedded`: the log the inventory just read inline, if any.
 * `systemRef`: where to start looking for the log when neither says where it is. Undefined when the node has no
 * event log the client recognises.
 */
export async function eventLogSince(
  t: RedfishTransport,
  opts: {
    readonly cursor?: EventLogCursor;
    readonly embedded?: EmbeddedEventLog;
    readonly systemRef: () => Promise<string>;
  },
): Promise<LogRead | undefined> {
  const { cursor, embedded } = opts;
  if (embedded) return embeddedSince(embedded, cursor?.path === embedded.entriesPath ? cursor.lastId : undefined);
  const filter = filterSupported(await t.root());
  if (cursor && !cursor.embedded) return readLogSince(t, { ...cursor, filter: cursor.filter && filter });
  // First read, or a log once read inline that this read did not carry: find it, keeping the last Id seen there. The
  // System is read expanded where the BMC offers it, so that a log its expansion carries is known as such (a refresh
  // whose System is unchanged then needs no request for the log).
  const ref = await opts.systemRef();
  const levels = expandLevels(await t.root());
  const system = levels > 0 ? (await getExpanded(t, ref, levels)).json : await t.getJson(ref);
  const inline = embeddedEventLog(system);
  if (inline) return embeddedSince(inline, cursor?.path === inline.entriesPath ? cursor.lastId : undefined);
  const path = await locateEventLog(t, system);
  if (!path) return undefined;
  const lastId = cursor?.path === path ? cursor.lastId : undefined;
  return readLogSince(t, { path, filter, ...(lastId !== undefined ? { lastId } : {}) });
}
