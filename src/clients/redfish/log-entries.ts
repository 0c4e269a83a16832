/**
 * The node's event log (DSP0268 LogService and LogEntry): where it is, and the entries logged since the last one seen.
 *
 * Where: the System's `LogServices`, else those of the Manager that manages it (iDRAC keeps its SEL there); among them
 * the service whose `LogEntryType` is SEL or Event and that is not a known audit, lifecycle, journal or dump log. When
 * the System's `$expand` brought the log's Entries inline, the entries are read from that payload (no request).
 *
 * Since when: entries with an Id greater than the last one seen. Where the service root advertises
 * `ProtocolFeaturesSupported.FilterQuery`, one GET with `$filter=Id gt '<id>'` (DSP0266, clause "Query parameters");
 * a 400 or 501 to it falls back to `$top`/`$skip` paging, which is also used without FilterQuery. Ids are compared
 * as numbers where both are numeric (SEL record ids, bmcweb's `<time>_<n>`), since a BMC may ignore `$filter` and send
 * every entry: the client checks the Ids it gets either way.
 */
import { HttpStatusError } from "../errors.js";
import { isObj, lastSegment, link, linkList, members, str } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { EmbeddedEventLog, EventLogCursor, LogEntryRecord, RedfishJson } from "./types.js";

/** Entries asked for per page when paging. */
export const LOG_PAGE = 50;
/** Pages read at most in one refresh: a burst beyond them is read by the next refresh. */
const MAX_PAGES = 4;

/** Log services that are not the hardware event log (audit, lifecycle, journal, dumps, POST codes, security). */
const NOT_EVENT_LOG =
  /^(lclog|auditlog|audit|journal|dump|bmcdump|systemdump|faultlog|crashdump|postcodes|sl|iel|security)/i;

/** One LogEntry as the client reads it; undefined when it has no Id. */
export function parseLogEntry(json: RedfishJson): LogEntryRecord | undefined {
  const id = str(json.Id) ?? (str(json["@odata.id"]) ? lastSegment(str(json["@odata.id"]) ?? "") : undefined);
  if (!id) return undefined;
  const origin = isObj(json.Links) ? linkList([json.Links.OriginOfCondition])[0] : undefined;
  const args = Array.isArray(json.MessageArgs) ? json.MessageArgs.filter((a) => typeof a === "string") : [];
  const sev = str(json.Severity);
  return {
    id,
    uri: str(json["@odata.id"]),
    created: str(json.Created) ?? str(json.EventTimestamp),
    severity: sev === "OK" || sev === "Warning" || sev === "Critical" ? sev : undefined,
    messageId: str(json.MessageId),
    message: str(json.Message),
    args,
    sensorType: str(json.SensorType),
    entryCode: str(json.EntryCode),
    component: origin ? lastSegment(origin) : undefined,
    origin,
  };
}

const ID_RE = /^(\d+)(?:[_.-](\d+))?$/;

/** Orders two entry Ids: numerically where both are numeric (with an optional `_n` suffix), else as text. */
export function compareIds(a: string, b: string): number {
  const x = ID_RE.exec(a);
  const y = ID_RE.exec(b);
  if (!x || !y) return a < b ? -1 : a > b ? 1 : 0;
  // Digits compared as text of equal length: no precision lost on the long time-based Ids some BMCs use.
  const [p, q] = [x[1].replace(/^0+(?=\d)/, ""), y[1].replace(/^0+(?=\d)/, "")];
  if (p.length !== q.length) return p.length < q.length ? -1 : 1;
  if (p !== q) return p < q ? -1 : 1;
  return Math.sign(Number(x[2] ?? 0) - Number(y[2] ?? 0));
}

/** The entries of a collection payload, parsed (members without an Id dropped). */
export function entriesOf(collection: RedfishJson): LogEntryRecord[] {
  const list = Array.isArray(collection.Members) ? collection.Members : [];
  return list.flatMap((m) => (isObj(m) && ("Id" in m || "Created" in m) ? (parseLogEntry(m) ?? []) : []));
}

/** The newest Id among `entries` (undefined when empty). */
export function newestId(entries: readonly LogEntryRecord[]): string | undefined {
  return entries.reduce<string | undefined>(
    (m, e) => (m === undefined || compareIds(e.id, m) > 0 ? e.id : m),
    undefined,
  );
}

/** Whether a LogService (as read or expanded) is the hardware event log. */
function isEventLog(svc: RedfishJson): boolean {
  const id = str(svc.Id) ?? lastSegment(str(svc["@odata.id"]) ?? "");
  if (NOT_EVENT_LOG.test(id)) return false;
  const type = str(svc.LogEntryType);
  return type === undefined || type === "SEL" || type === "Event" || type === "Multiple";
}

/** Members of a collection that an expansion carried inline. */
const inlineMembers = (col: RedfishJson): RedfishJson[] =>
  (Array.isArray(col.Members) ? col.Members : []).filter(
    (m): m is RedfishJson => isObj(m) && ("Id" in m || "@odata.type" in m),
  );

/**
 * The event log whose whole Entries collection (no nextLink) an expanded System carries inline: System → LogServices
 * → LogService → Entries, three levels of `$expand=.`. Undefined otherwise (read it with `locateEventLog`).
 */
export function embeddedEventLog(system: RedfishJson): EmbeddedEventLog | undefined {
  const col = system.LogServices;
  const svc = isObj(col) ? inlineMembers(col).find(isEventLog) : undefined;
  const entries = svc?.Entries;
  const entriesPath = svc ? link(svc, "Entries") : undefined;
  if (!entriesPath || !isObj(entries) || !Array.isArray(entries.Members) || entries["@odata.nextLink"] !== undefined)
    return undefined;
  return { entriesPath, entries: entriesOf(entries) };
}

/** The Entries path of the event log among the LogServices linked from `holder` (a System or a Manager). */
async function eventLogIn(t: RedfishTransport, holder: RedfishJson): Promise<string | undefined> {
  const v = holder.LogServices;
  const ref = link(holder, "LogServices");
  const col = isObj(v) && "Members" in v ? v : ref ? await t.getJson(ref) : undefined;
  if (!col) return undefined;
  const inline = inlineMembers(col);
  const services = inline.length > 0 ? inline : await Promise.all(members(col).map((r) => t.getJson(r)));
  const svc = services.find(isEventLog);
  return svc ? link(svc, "Entries") : undefined;
}

/**
 * The Entries path of the event log of `system` (its payload, expanded or not): the System's own LogServices, else
 * its Manager's (Links.ManagedBy). Undefined when the BMC has none that holds hardware events.
 */
export async function locateEventLog(t: RedfishTransport, system: RedfishJson): Promise<string | undefined> {
  const own = await eventLogIn(t, system);
  if (own) return own;
  const mgrRef = isObj(system.Links) ? linkList(system.Links.ManagedBy)[0] : undefined;
  return mgrRef ? eventLogIn(t, await t.getJson(mgrRef)) : undefined;
}

/** `path` with query options added: `$` names as they are, values percent-encoded (spaces as %20, as DSP0266 shows). */
function withQuery(path: string, q: Record<string, string>): string {
  const query = Object.entries(q)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join("&");
  return `${path}${path.includes("?") ? "&" : "?"}${query}`;
}

/** What one read of a log found: the entries newer than the cursor, and the cursor to keep for the next read. */
export interface LogRead {
  readonly entries: readonly LogEntryRecord[];
  readonly cursor: EventLogCursor;
}

/** A baseline: the newest Id of the log now (no entries reported), read with `$top`/`$skip` from both ends. */
async function baseline(t: RedfishTransport, path: string, filter: boolean): Promise<LogRead> {
  const first = await t.getJson(withQuery(path, { $top: "1" }));
  const count = typeof first["Members@odata.count"] === "number" ? first["Members@odata.count"] : undefined;
  const head = entriesOf(first);
  const tail =
    count !== undefined && count > 1
      ? entriesOf(await t.getJson(withQuery(path, { $skip: String(count - 1), $top: "1" })))
      : [];
  const lastId = newestId([...head, ...tail]);
  const newestFirst = head[0] !== undefined && tail[0] !== undefined && compareIds(head[0].id, tail[0].id) > 0;
  return {
    entries: [],
    cursor: {
      path,
      lastId: lastId ?? "",
      filter,
      ...(count !== undefined ? { count } : {}),
      newestFirst,
    },
  };
}

/** Entries after `cursor.lastId` with `$filter`; undefined when the BMC refuses the query (400/501). */
async function readFiltered(t: RedfishTransport, c: EventLogCursor & { lastId: string }): Promise<LogRead | undefined> {
  let r: Awaited<ReturnType<RedfishTransport["getIfNoneMatch"]>>;
  try {
    r = await t.getIfNoneMatch(withQuery(c.path, { $filter: `Id gt '${c.lastId.replace(/'/g, "''")}'` }), c.etag);
  } catch (e) {
    if (e instanceof HttpStatusError && (e.status === 400 || e.status === 501)) return undefined;
    throw e;
  }
  if (r === "not-modified") return { entries: [], cursor: c };
  const found = [...entriesOf(r.json)];
  let next = str(r.json["@odata.nextLink"]);
  for (let page = 1; next && page < MAX_PAGES; page++) {
    const more = await t.getJson(next);
    found.push(...entriesOf(more));
    next = str(more["@odata.nextLink"]);
  }
  // The ETag names this query's answer: kept only when it held nothing new, so that a 304 means "still nothing".
  return settle(c, found, next === undefined && newer(found, c.lastId).length === 0 ? r.etag : undefined);
}

/**
 * Entries after `cursor.lastId` by paging: from the newest end (`$top` on a newest-first log, else `$skip` past the
 * entries known). The first page is asked with If-None-Match when the last read of it found nothing new.
 */
async function readPaged(t: RedfishTransport, c: EventLogCursor & { lastId: string }): Promise<LogRead> {
  const found: LogEntryRecord[] = [];
  let skip = c.newestFirst ? 0 : Math.max(0, (c.count ?? 1) - 1);
  for (let page = 0; page < MAX_PAGES; page++) {
    const url = withQuery(c.path, { $skip: String(skip), $top: String(LOG_PAGE) });
    const r = await t.getIfNoneMatch(url, page === 0 ? c.etag : undefined);
    if (r === "not-modified") return { entries: [], cursor: c };
    const got = entriesOf(r.json);
    found.push(...got);
    const count = typeof r.json["Members@odata.count"] === "number" ? r.json["Members@odata.count"] : undefined;
    const fresh = newer(got, c.lastId);
    // Oldest first: the page after the last known entry holds what is new; a log cleared or wrapped since (the last
    // known entry gone from its place) is read again from its newest page.
    const last = count !== undefined ? Math.max(0, count - LOG_PAGE) : skip;
    if (!c.newestFirst && page === 0 && got[0]?.id !== c.lastId && c.lastId !== "" && last !== skip) {
      skip = last;
      continue;
    }
    const more = c.newestFirst ? fresh.length === got.length : got.length === LOG_PAGE;
    if (!more || got.length === 0) {
      // Nothing new on the first page: its ETag lets the next read ask with If-None-Match (the same URL then).
      const same = page === 0 && fresh.length === 0 && (count === undefined || count === c.count);
      return settle({ ...c, ...(count !== undefined ? { count } : {}) }, found, same ? r.etag : undefined);
    }
    skip += got.length;
  }
  return settle(c, found);
}

const newer = (list: readonly LogEntryRecord[], lastId: string) => list.filter((e) => compareIds(e.id, lastId) > 0);

/** The entries of `found` newer than the cursor (oldest first), and the cursor moved to the newest of them. */
function settle(c: EventLogCursor & { lastId: string }, found: readonly LogEntryRecord[], etag?: string): LogRead {
  const entries = newer(found, c.lastId).sort((a, b) => compareIds(a.id, b.id));
  const { etag: _old, ...rest } = c;
  return {
    entries,
    cursor: {
      ...rest,
      lastId: newestId(entries) ?? c.lastId,
      ...(etag ? { etag } : {}),
    },
  };
}

/**
 * The entries of the log at `cursor.path` newer than `cursor.lastId`, and the cursor to keep. `filter`: the service
 * root advertises FilterQuery (and the log has not refused it before). Without a last Id, only a baseline is taken.
 */
export async function readLogSince(t: RedfishTransport, cursor: EventLogCursor): Promise<LogRead> {
  if (cursor.lastId === undefined) return baseline(t, cursor.path, cursor.filter);
  const c = { ...cursor, lastId: cursor.lastId };
  // An empty log at the baseline ("" seen): nothing to compare an Id with, every entry is new; read by paging.
  if (!c.filter || c.lastId === "") return readPaged(t, c);
  return (await readFiltered(t, c)) ?? readPaged(t, { ...c, filter: false });
}

/** The entries of an embedded log newer than `lastId` (all of them count as seen: the cursor moves to the newest). */
export function embeddedSince(log: EmbeddedEventLog, lastId: string | undefined): LogRead {
  const newest = newestId(log.entries);
  const base: EventLogCursor = {
    path: log.entriesPath,
    filter: false,
    embedded: true,
  };
  // A first sight of the log is a baseline: what it held before rackform read it is history, not a finding.
  if (lastId === undefined)
    return {
      entries: [],
      cursor: { ...base, lastId: newest ?? "" },
    };
  const entries = newer(log.entries, lastId).sort((a, b) => compareIds(a.id, b.id));
  return { entries, cursor: { ...base, lastId: newestId(entries) ?? lastId } };
}
