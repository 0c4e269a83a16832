/**
 * What clients read at start-up and after inspection: /v1/conductors (API 1.49), /v1/drivers and
 * /v1/nodes/{ident}/inventory (API 1.81). Bodies and key order as Debian's Ironic 21.4 answers them
 * (ironic/api/controllers/v1/conductor.py, driver.py, node.py NodeInventoryController; the lab's one conductor is
 * "localhost", like the reservation it puts on busy nodes).
 */
import type { Ctx, Reply } from "./context.js";
import { fault, notFound, webobError } from "./errors.js";
import { isoTime } from "./render.js";
import { DRIVER_INTERFACES } from "./store.js";

/** The conductor's hostname (what Ironic's `[DEFAULT]host` names it). */
export const CONDUCTOR_HOST = "localhost";

type Json = Record<string, unknown>;

function links(base: string, kind: string, id: string, sub = ""): Json[] {
  return [
    { href: `${base}/v1/${kind}/${id}${sub}`, rel: "self" },
    { href: `${base}/${kind}/${id}${sub}`, rel: "bookmark" },
  ];
}

const atLeast = (ctx: Ctx, minor: number) => ctx.version.minor >= minor;
const detailOf = (ctx: Ctx) => /^(true|1|yes|on)$/i.test(ctx.query.get("detail") ?? "");

function conductor(ctx: Ctx, startedAt: number, detail: boolean): Json {
  const base = { hostname: CONDUCTOR_HOST, conductor_group: "" };
  const link = links(ctx.base, "conductors", CONDUCTOR_HOST);
  if (!detail) return { ...base, links: link, alive: true };
  // updated_at is the last heartbeat; the lab's conductor is always alive, so "now".
  return {
    created_at: isoTime(startedAt),
    updated_at: isoTime(ctx.store.now()),
    ...base,
    drivers: Object.keys(DRIVER_INTERFACES),
    links: link,
    alive: true,
  };
}

// Below 1.49 the conductors controller answers wsme's NotFound (not the webob 404 of an unknown path).
const tooOld = () => fault(404, "Resource could not be found.");

/** GET /v1/conductors[?detail=true] — 1.49+. */
export function listConductors(ctx: Ctx, startedAt: number): Reply {
  if (!atLeast(ctx, 49)) throw tooOld();
  return { status: 200, body: { conductors: [conductor(ctx, startedAt, detailOf(ctx))] } };
}

/** GET /v1/conductors/{hostname} */
export function showConductor(ctx: Ctx, startedAt: number): Reply {
  if (!atLeast(ctx, 49)) throw tooOld();
  if (ctx.params.id !== CONDUCTOR_HOST) throw notFound("Conductor", ctx.params.id);
  return { status: 200, body: conductor(ctx, startedAt, true) };
}

// Interface kinds of the default_*/enabled_* pairs (21.4 lists them in set order, which varies between runs).
const KINDS = ["bios", "raid", "vendor", "power", "deploy", "network", "console", "inspect", "boot", "rescue"];
const KINDS_TAIL = ["management", "storage"];

function driver(ctx: Ctx, name: string, detail: boolean): Json {
  const body: Json = {
    name,
    hosts: [CONDUCTOR_HOST],
    links: links(ctx.base, "drivers", name),
    properties: links(ctx.base, "drivers", name, "/properties"),
    type: "dynamic",
  };
  if (!detail) return body;
  for (const kind of [...KINDS, ...KINDS_TAIL]) {
    const def = DRIVER_INTERFACES[name][`${kind}_interface`];
    body[`default_${kind}_interface`] = def;
    body[`enabled_${kind}_interfaces`] = [def];
  }
  return body;
}

/** GET /v1/drivers[?detail=true][&type=dynamic|classic] — the lab's hardware types, all dynamic. */
export function listDrivers(ctx: Ctx): Reply {
  const type = ctx.query.get("type");
  if (type !== null && type !== "classic" && type !== "dynamic") {
    throw fault(400, `Invalid value for type: ${type}. Valid values are classic, dynamic.`);
  }
  const names = type === "classic" ? [] : Object.keys(DRIVER_INTERFACES);
  return { status: 200, body: { drivers: names.map((n) => driver(ctx, n, detailOf(ctx))) } };
}

/** GET /v1/drivers/{name} (always the detailed form). */
export function showDriver(ctx: Ctx): Reply {
  const name = ctx.params.id;
  if (!DRIVER_INTERFACES[name]) {
    throw fault(404, `Could not find the following driver(s) or hardware type(s): ${name}.`);
  }
  return { status: 200, body: driver(ctx, name, true) };
}

/** GET /v1/nodes/{ident}/inventory — 1.81+: what the last inspection stored, else 404 naming the node's database id. */
export function nodeInventory(ctx: Ctx): Reply {
  if (!atLeast(ctx, 81)) throw webobError(404, "Not Found");
  const n = ctx.store.findNode(ctx.params.id);
  if (!n) throw notFound("Node", ctx.params.id);
  if (!n.inventory) throw fault(404, `Node inventory record for node ${n.id} could not be found.`);
  return { status: 200, body: structuredClone(n.inventory) };
}
