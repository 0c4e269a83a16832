/**
 * The BMC's system event log as a Redfish LogService, where each vendor serves it: iDRAC's SEL under its Manager,
 * iLO's IML, Supermicro's Log1, XCC's PlatformLog and OpenBMC's (and NVIDIA HGX's) EventLog under the System. Entries
 * are LogEntry resources, numbered from 1, oldest first; the collection takes `$top`, `$skip` and, where the vendor's
 * BMC does, `$filter` (redfish/log-query.ts). Its ETag is the lab's usual body hash (redfish/representation.ts): it
 * changes when an entry is added, and If-None-Match then answers 304 until one is.
 */
import type { LogRecord } from "../world/health.js";
import type { LabNode, World } from "../world/model.js";
import type { VendorStyle } from "../world/spec.js";
import { RedfishError } from "./errors.js";
import { type LogQuery, parseLogQuery, passes } from "./log-query.js";
import { bmcNode, type Ctx, collection, get, iso, link, type Route, status } from "./router.js";

/**
 * Where a vendor serves its system event log, and what its Entries do with `$filter`: apply it, answer 501 (DSP0266's
 * rule for an unsupported `$` parameter), or ignore it and send every entry (as HPE documents for options a Redfish
 * service does not implement) — a client must check the Ids it gets either way.
 */
export interface LogPlacement {
  readonly under: "Systems" | "Managers";
  readonly id: string;
  readonly name: string;
  readonly entryType: "SEL" | "Event";
  readonly filter: FilterSupport;
}
/** What a log's Entries do with `$filter`. */
export type FilterSupport = "yes" | "501" | "ignored";

/** The system event log of each vendor style (src/lab/README.md, "LogService", gives the evidence for each). */
export const LOG_PLACEMENT: Readonly<Record<VendorStyle, LogPlacement>> = {
  dell: { under: "Managers", id: "Sel", name: "SEL Log Service", entryType: "SEL", filter: "yes" },
  hpe: { under: "Systems", id: "IML", name: "Integrated Management Log", entryType: "Event", filter: "yes" },
  supermicro: { under: "Systems", id: "Log1", name: "Health Event Log Service", entryType: "SEL", filter: "ignored" },
  lenovo: { under: "Systems", id: "PlatformLog", name: "Platform Event Log", entryType: "SEL", filter: "ignored" },
  "nvidia-dgx": { under: "Systems", id: "EventLog", name: "Event Log", entryType: "Event", filter: "501" },
  contoso: { under: "Systems", id: "EventLog", name: "Event Log", entryType: "Event", filter: "yes" },
};

/** The path of the node's LogServices collection (linked from its System or Manager). */
export function logServicesPath(n: LabNode): string {
  const p = LOG_PLACEMENT[n.spec.vendor];
  return p.under === "Managers"
    ? `/redfish/v1/Managers/${n.ids.manager}/LogServices`
    : `/redfish/v1/Systems/${n.systemId}/LogServices`;
}

/** The node when the request names its log's parent (`:parent`) and, if given, the log's id (`:log`). */
function logOf(ctx: Ctx, under: LogPlacement["under"]): { n: LabNode; p: LogPlacement; base: string } {
  const n = bmcNode(ctx);
  const p = LOG_PLACEMENT[n.spec.vendor];
  const parent = under === "Managers" ? n.ids.manager : n.systemId;
  if (p.under !== under || ctx.params.parent !== parent)
    throw new RedfishError(404, "ResourceNotFound", ["LogServiceCollection", ctx.path]);
  if (ctx.params.log !== undefined && ctx.params.log !== p.id)
    throw new RedfishError(404, "ResourceNotFound", ["LogService", ctx.params.log]);
  return { n, p, base: `${logServicesPath(n)}/${p.id}` };
}

function service(world: World, base: string, p: LogPlacement): Record<string, unknown> {
  return {
    "@odata.type": "#LogService.v1_9_0.LogService",
    "@odata.id": base,
    Id: p.id,
    Name: p.name,
    MaxNumberOfRecords: 1024,
    OverWritePolicy: "WrapsWhenFull",
    LogEntryType: p.entryType,
    DateTime: iso(world.now()),
    ServiceEnabled: true,
    Status: status(),
    Entries: link(`${base}/Entries`),
    Actions: { "#LogService.ClearLog": { target: `${base}/Actions/LogService.ClearLog` } },
  };
}

/** One LogEntry (LogEntry v1.21, as the DMTF mockups show it). */
export function logEntry(base: string, e: LogRecord): Record<string, unknown> {
  return {
    "@odata.type": "#LogEntry.v1_21_0.LogEntry",
    "@odata.id": `${base}/Entries/${e.id}`,
    Id: String(e.id),
    Name: `Log Entry ${e.id}`,
    EntryType: e.entryType,
    Severity: e.severity,
    Created: iso(e.created),
    Message: e.message,
    MessageId: e.messageId,
    MessageArgs: [...e.args],
    ...(e.entryType === "SEL" ? { EntryCode: "Assert", SensorType: e.sensorType ?? "OEM Reserved" } : {}),
    Links: { OriginOfCondition: link(e.origin) },
  };
}

function property(e: LogRecord, prop: string): string {
  if (prop === "Id") return String(e.id);
  if (prop === "Created") return iso(e.created);
  if (prop === "Severity") return e.severity;
  if (prop === "EntryType") return e.entryType;
  return e.messageId;
}

/** The Entries collection under a query: filtered, then skipped and cut; the count is of all that pass the filter. */
function entries(ctx: Ctx, under: LogPlacement["under"]): Record<string, unknown> {
  const { n, p, base } = logOf(ctx, under);
  const q: LogQuery = parseLogQuery(ctx.query ?? "", p.filter);
  const all = ctx.world.logs.entries(n.spec.name).filter((e) => passes(q.filter, (k) => property(e, k)));
  const end = q.top === undefined ? all.length : Math.min(all.length, q.skip + q.top);
  const page = all.slice(q.skip, end);
  const path = `${base}/Entries`;
  const next = new URLSearchParams({
    ...(q.rawFilter !== undefined ? { $filter: q.rawFilter } : {}),
    $skip: String(end),
    ...(q.top !== undefined ? { $top: String(q.top) } : {}),
  });
  return {
    "@odata.type": "#LogEntryCollection.LogEntryCollection",
    "@odata.id": path,
    Name: `${p.name} Entries`,
    Description: "Collection of log entries",
    "Members@odata.count": all.length,
    Members: page.map((e) => logEntry(base, e)),
    ...(end < all.length ? { "@odata.nextLink": `${path}?${next.toString()}` } : {}),
  };
}

function entry(ctx: Ctx, under: LogPlacement["under"]): Record<string, unknown> {
  const { n, base } = logOf(ctx, under);
  const e = ctx.world.logs.entries(n.spec.name).find((x) => String(x.id) === ctx.params.id);
  if (!e) throw new RedfishError(404, "ResourceNotFound", ["LogEntry", ctx.params.id]);
  return logEntry(base, e);
}

function routesUnder(under: LogPlacement["under"]): Route[] {
  const root = `/redfish/v1/${under}/:parent/LogServices`;
  return [
    {
      pattern: root,
      methods: get((ctx) => {
        const { n, p } = logOf(ctx, under);
        const path = logServicesPath(n);
        return collection("LogServiceCollection", "Log Service Collection", path, [`${path}/${p.id}`]);
      }),
    },
    {
      pattern: `${root}/:log`,
      methods: get((ctx) => {
        const { p, base } = logOf(ctx, under);
        return service(ctx.world, base, p);
      }),
    },
    { pattern: `${root}/:log/Entries`, methods: get((ctx) => entries(ctx, under)) },
    { pattern: `${root}/:log/Entries/:id`, methods: get((ctx) => entry(ctx, under)) },
    {
      pattern: `${root}/:log/Actions/LogService.ClearLog`,
      methods: {
        POST: (ctx) => {
          const { n } = logOf(ctx, under);
          ctx.world.logs.clear(n.spec.name);
          return { status: 204 };
        },
      },
    },
  ];
}

/** Routes of the LogServices of Systems and Managers. */
export const logServiceRoutes: Route[] = [...routesUnder("Systems"), ...routesUnder("Managers")];
