/**
 * rackform_bmc's findings from the BMC's event log: entries logged since the last read (the last Id seen is kept in
 * private state, so a refresh asks only for newer ones), each mapped by the client's table (log-findings.ts) to a
 * finding in `health` with kind `log:<kind>`, the component the entry names, and `since` = the entry's Created time.
 *
 * A log finding stays until the host is seen powered on after its entry (the System's LastResetTime later than the
 * entry, or a read that found the host not On followed by one that finds it On), or until the node's components,
 * some not OK at the last read, all read OK again (a repair, or a fault gone). A fault that outlives the power-on is
 * met again by POST or the driver and logged anew, which makes a new finding; one that does not is gone with it.
 * Reading the log never fails a read: a failure is logged and the cursor kept for the next refresh.
 */
import type { EmbeddedEventLog, EventLogCursor, LogFinding, RedfishClient } from "../../clients/redfish/index.js";
import { logFinding } from "../../clients/redfish/index.js";
import type { Context, JsonValue, PrivateState } from "../../framework/index.js";
import type { HealthFinding } from "./bmc-health.js";

/** Private-state key of the event log's cursor (where the last read stopped). */
export const PRIVATE_EVENT_LOG = "event_log";
/** Private-state key: the last read found the host not On (a later read finding it On saw it power on). */
export const PRIVATE_HOST_OFF = "host_off_seen";

/** `priv` with the host-off flag as a read of `powerState` leaves it (unchanged when the read did not see the power). */
export function withHostOff(priv: PrivateState, powerState: string | undefined): PrivateState {
  if (powerState === undefined) return priv;
  const { [PRIVATE_HOST_OFF]: _, ...rest } = priv;
  return powerState === "On" ? rest : { ...rest, [PRIVATE_HOST_OFF]: true };
}

/** The prefix of the kinds of findings read from the log. */
export const LOG_KIND_PREFIX = "log:";

/** The part of a Redfish client the log reading uses. */
export type LogClient = Pick<RedfishClient, "origin" | "eventLogSince">;

/** The cursor in private state, when this provider wrote one. */
export function cursorIn(priv: PrivateState): EventLogCursor | undefined {
  const v = priv[PRIVATE_EVENT_LOG];
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const c = v as Record<string, unknown>;
  if (typeof c.path !== "string" || typeof c.filter !== "boolean") return undefined;
  if (c.lastId !== undefined && typeof c.lastId !== "string") return undefined;
  return c as unknown as EventLogCursor;
}

/** `priv` with the cursor set (or left as it was when undefined). */
export function withCursor(priv: PrivateState, c: EventLogCursor | undefined): PrivateState {
  return c ? { ...priv, [PRIVATE_EVENT_LOG]: JSON.parse(JSON.stringify(c)) as JsonValue } : priv;
}

/**
 * Reads the entries logged since the cursor in `priv`; `embedded`: the log this read's inventory carried inline.
 * Never throws: a BMC whose log cannot be read keeps its cursor and yields no entries.
 */
export async function newLogEntries(
  ctx: Context,
  client: LogClient,
  priv: PrivateState,
  opts: { readonly embedded?: EmbeddedEventLog; readonly systemId?: string },
): Promise<{ readonly found: LogFinding[]; readonly cursor?: EventLogCursor }> {
  const cursor = cursorIn(priv);
  try {
    const r = await client.eventLogSince(cursor, opts.embedded, opts.systemId);
    if (!r) return { found: [], cursor };
    return { found: r.entries.flatMap((e) => logFinding(e) ?? []), cursor: r.cursor };
  } catch (e) {
    ctx.log.warn("BMC event log not read; the next refresh tries again", {
      endpoint: client.origin,
      detail: (e as Error).message,
    });
    return { found: [], cursor };
  }
}

/** The component a finding names, with its XID when it came from one. */
function componentOf(f: LogFinding): string {
  const base = f.component ?? "system";
  return f.xid !== undefined ? `${base} (XID ${f.xid})` : base;
}

/** Log findings as `health` values: one per kind and component, the newest entry's. */
export function logHealthValues(found: readonly LogFinding[], now: Date): HealthFinding[] {
  const byKey = new Map<string, HealthFinding>();
  for (const f of found) {
    const v: HealthFinding = {
      component: componentOf(f),
      kind: `${LOG_KIND_PREFIX}${f.kind}`,
      health: f.health,
      uri: f.entry.uri ?? f.entry.origin ?? "",
      since: f.entry.created ?? now.toISOString(),
    };
    byKey.set(`${v.kind}|${v.component}`, v);
  }
  return [...byKey.values()];
}

/** Whether a finding is one read from the log. */
export const isLogFinding = (f: HealthFinding) => typeof f.kind === "string" && f.kind.startsWith(LOG_KIND_PREFIX);

/**
 * What a read knows of the host: its power state now, its LastResetTime, whether a read found it not On, and whether
 * its components recovered (the last read found some not OK, this one finds all OK: a repair, or a fault gone).
 */
export interface PowerSeen {
  readonly powerState?: string;
  readonly lastResetTime?: string;
  readonly offSeenBefore: boolean;
  readonly recovered?: boolean;
}

/** Whether a log finding from `since` (RFC 3339) is cleared: the host powered on after it, or it recovered since. */
export function poweredOnAfter(p: PowerSeen, since: string): boolean {
  if (p.recovered) return true;
  if (p.offSeenBefore && p.powerState === "On") return true;
  const reset = p.lastResetTime ? Date.parse(p.lastResetTime) : Number.NaN;
  return Number.isFinite(reset) && reset > Date.parse(since);
}

/**
 * Whether a newly read entry is already past: the node's components recovered in this read and the entry was logged
 * at or before the host's last power-on — a fault the BMC logged as the host booted, which that boot's reimage then
 * cured (a fault that survives is logged again, later, and counts).
 */
function pastAtRead(p: PowerSeen | undefined, since: string): boolean {
  if (!p?.recovered || !p.lastResetTime) return false;
  const reset = Date.parse(p.lastResetTime);
  return Number.isFinite(reset) && Date.parse(since) <= reset;
}

/**
 * The log findings to record: those of `prior` not cleared by a power-on seen since, then the new ones (a new one
 * replaces an older of the same kind and component), leaving out a new one already past (pastAtRead).
 */
export function carryLogHealth(
  prior: readonly HealthFinding[] | null | undefined,
  fresh: readonly HealthFinding[],
  power: PowerSeen | undefined,
): HealthFinding[] {
  const kept = (Array.isArray(prior) ? prior : []).filter(
    (f) => isLogFinding(f) && !(power && poweredOnAfter(power, f.since ?? "")),
  );
  const byKey = new Map(kept.map((f) => [`${f.kind}|${f.component}`, f]));
  for (const f of fresh) if (!pastAtRead(power, f.since ?? "")) byKey.set(`${f.kind}|${f.component}`, f);
  return [...byKey.values()].sort(
    (a, b) => (a.kind ?? "").localeCompare(b.kind ?? "") || (a.component ?? "").localeCompare(b.component ?? ""),
  );
}

/** Private-state key of the service root a read recorded (so that a refresh by fingerprint need not read it). */
export const PRIVATE_ROOT = "service_root";

/** The recorded service root, when there is one. */
export function rootIn(priv: PrivateState): Readonly<Record<string, unknown>> | undefined {
  const v = priv[PRIVATE_ROOT];
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
}

/** `priv` with the service root recorded, or removed when undefined. */
export function withRoot(priv: PrivateState, root: Readonly<Record<string, unknown>> | undefined): PrivateState {
  const { [PRIVATE_ROOT]: _, ...rest } = priv;
  return root ? { ...rest, [PRIVATE_ROOT]: JSON.parse(JSON.stringify(root)) as JsonValue } : rest;
}
