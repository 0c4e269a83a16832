/** /v1/ports: create, list, show, patch, delete. */
import { randomUUID } from "node:crypto";
import { type Ctx, jsonBody, objectBody, type Reply } from "./context.js";
import { conflict, invalid, notFound } from "./errors.js";
import { applyPatch, parsePatch } from "./json-patch.js";
import { parseFields, renderPort } from "./render.js";
import type { PortRecord } from "./store.js";

const MAC = /^([0-9a-f]{2}[:-]){5}[0-9a-f]{2}$/i;
const PORT_FIELDS = [
  "uuid",
  "created_at",
  "updated_at",
  "address",
  "extra",
  "internal_info",
  "is_smartnic",
  "local_link_connection",
  "physical_network",
  "pxe_enabled",
  "node_uuid",
  "links",
  "portgroup_uuid",
];

function mac(value: unknown): string {
  if (typeof value !== "string" || !MAC.test(value))
    throw invalid(`Expected valid MAC address for address: ${String(value)}`);
  return value.toLowerCase().replace(/-/g, ":");
}

function portOr404(ctx: Ctx): PortRecord {
  const p = ctx.store.ports.get(ctx.params.id.toLowerCase());
  if (!p) throw notFound("Port", ctx.params.id);
  return p;
}

/** POST /v1/ports */
export function createPort(ctx: Ctx): Reply {
  const body = objectBody(ctx);
  const node = ctx.store.findNode(String(body.node_uuid ?? ""));
  if (!node) throw notFound("Node", String(body.node_uuid));
  const address = mac(body.address);
  if ([...ctx.store.ports.values()].some((p) => p.address === address))
    throw conflict(`A port with MAC address ${address} already exists.`);
  const uuid = randomUUID();
  const port: PortRecord = {
    uuid,
    address,
    node_uuid: node.uuid,
    pxe_enabled: body.pxe_enabled === undefined ? true : Boolean(body.pxe_enabled),
    extra: (body.extra as Record<string, unknown>) ?? {},
    internal_info: {},
    is_smartnic: Boolean(body.is_smartnic),
    local_link_connection: (body.local_link_connection as Record<string, unknown>) ?? {},
    physical_network: (body.physical_network as string | undefined) ?? null,
    name: null,
    created_at: Date.now(),
    updated_at: null,
  };
  ctx.store.ports.set(uuid, port);
  return {
    status: 201,
    body: renderPort(port, ctx.base, "full"),
    headers: { Location: `${ctx.base}/v1/ports/${uuid}` },
  };
}

/** GET /v1/ports[/detail] with node, address, detail, fields. */
export function listPorts(ctx: Ctx, detailPath: boolean): Reply {
  const detail = detailPath || ["true", "1"].includes(ctx.query.get("detail") ?? "");
  const fields = parseFields(ctx.query.get("fields"), PORT_FIELDS);
  const nodeIdent = ctx.query.get("node") ?? ctx.query.get("node_uuid");
  const node = nodeIdent ? ctx.store.findNode(nodeIdent) : undefined;
  if (nodeIdent && !node) throw notFound("Node", nodeIdent);
  const address = ctx.query.get("address")?.toLowerCase();
  const ports = [...ctx.store.ports.values()].filter(
    (p) => (!node || p.node_uuid === node.uuid) && (!address || p.address === address),
  );
  return {
    status: 200,
    body: { ports: ports.map((p) => renderPort(p, ctx.base, fields ?? (detail ? "full" : "list"))) },
  };
}

/** GET /v1/ports/{id} */
export function showPort(ctx: Ctx): Reply {
  return {
    status: 200,
    body: renderPort(portOr404(ctx), ctx.base, parseFields(ctx.query.get("fields"), PORT_FIELDS) ?? "full"),
  };
}

/** PATCH /v1/ports/{id} */
export function patchPort(ctx: Ctx): Reply {
  const ops = parsePatch(jsonBody(ctx));
  const p = portOr404(ctx);
  const next = applyPatch({ ...p }, ops);
  const address = mac(next.address);
  if (address !== p.address && [...ctx.store.ports.values()].some((x) => x.address === address)) {
    throw conflict(`A port with MAC address ${address} already exists.`);
  }
  p.address = address;
  p.pxe_enabled = Boolean(next.pxe_enabled ?? true);
  p.extra = (next.extra as Record<string, unknown>) ?? {};
  p.local_link_connection = (next.local_link_connection as Record<string, unknown>) ?? {};
  p.physical_network = (next.physical_network as string | null | undefined) ?? null;
  p.updated_at = Date.now();
  return { status: 200, body: renderPort(p, ctx.base, "full") };
}

/** DELETE /v1/ports/{id} */
export function deletePort(ctx: Ctx): Reply {
  ctx.store.ports.delete(portOr404(ctx).uuid);
  return { status: 204 };
}
