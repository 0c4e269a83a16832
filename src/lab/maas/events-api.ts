/** MAAS handler for events/ (op=query): node events, newest first, filtered and paged as MAAS does. */
import { normaliseMac } from "./machine-forms.js";
import type { RegionDeps } from "./region-deps.js";
import { API, renderEvent } from "./render.js";
import type { ActionContext, Handler } from "./router.js";

function queryEvents(deps: RegionDeps, ctx: ActionContext) {
  const p = ctx.params;
  const ids = p.all("id");
  const hostnames = p.all("hostname");
  const macs = p.all("mac_address").map((m) => normaliseMac(m) ?? m);
  const levels = ["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"];
  const minLevel = levels.indexOf((p.get("level") ?? "INFO").toUpperCase());
  const limit = Math.min(Number(p.get("limit") ?? 100) || 100, 1000);
  const after = p.get("after") === undefined ? undefined : Number(p.get("after"));
  const before = p.get("before") === undefined ? undefined : Number(p.get("before"));
  const macHosts = new Set(
    [...deps.store.machines.values()]
      .filter((m) => m.interfaces.some((i) => macs.includes(i.macAddress)))
      .map((m) => m.systemId),
  );
  let rows = deps.store.events
    .filter((e) => ids.length === 0 || ids.includes(e.systemId))
    .filter((e) => hostnames.length === 0 || hostnames.includes(e.hostname))
    .filter((e) => macs.length === 0 || macHosts.has(e.systemId))
    .filter((e) => levels.indexOf(e.level) >= minLevel || e.level === "AUDIT")
    .filter((e) => (after === undefined || e.id > after) && (before === undefined || e.id < before));
  // Newest first, as MAAS returns them; `after` pages towards newer rows.
  rows = after !== undefined ? rows.slice(0, limit) : rows.slice(-limit);
  rows.reverse();
  const base = `${API}/events/?op=query&limit=${limit}`;
  return {
    count: rows.length,
    events: rows.map(renderEvent),
    next_uri: rows.length > 0 ? `${base}&after=${rows[0].id}` : base,
    prev_uri: rows.length > 0 ? `${base}&before=${rows[rows.length - 1].id}` : base,
  };
}

/** EventsHandler, bound to a region. */
export function eventsHandler(deps: RegionDeps): Handler {
  return {
    name: "EventsHandler",
    path: "events/",
    doc: "Retrieve filtered node events.",
    actions: [
      {
        name: "query",
        method: "GET",
        op: "query",
        doc: "List node events (filters: id, hostname, mac_address, level, limit, after, before).",
        run: (ctx) => ({ json: queryEvents(deps, ctx) }),
      },
    ],
  };
}
