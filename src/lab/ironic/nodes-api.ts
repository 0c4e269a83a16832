/** /v1/nodes: create, list, show, patch, delete (provision, power, maintenance and validate live in node-actions-api.ts). */
import { type Ctx, jsonBody, objectBody, type Reply } from "./context.js";
import { conflict, fault, invalid, nodeLocked, notFound } from "./errors.js";
import { applyPatch, parsePatch } from "./json-patch.js";
import { NODE_FIELDS, parseFields, renderNode } from "./render.js";
import { DELETE_ALLOWED, S, UPDATE_ALLOWED } from "./states.js";
import { DRIVER_INTERFACES, isUuid, type NodeRecord } from "./store.js";

type Json = Record<string, unknown>;

/** Node fields PATCH may change (the list Ironic 21.4 prints when refusing another path). */
export const PATCHABLE = [
  "automated_clean",
  "bios_interface",
  "boot_interface",
  "chassis_uuid",
  "conductor_group",
  "console_interface",
  "deploy_interface",
  "description",
  "driver",
  "driver_info",
  "extra",
  "inspect_interface",
  "instance_info",
  "instance_uuid",
  "lessee",
  "maintenance",
  "management_interface",
  "name",
  "network_data",
  "network_interface",
  "owner",
  "power_interface",
  "properties",
  "protected",
  "protected_reason",
  "raid_interface",
  "rescue_interface",
  "resource_class",
  "retired",
  "retired_reason",
  "shard",
  "storage_interface",
  "vendor_interface",
] as const;

const CREATABLE = new Set<string>(
  [...PATCHABLE, "uuid", "traits"].filter((f) => f !== "instance_uuid" && f !== "maintenance"),
);
const OBJECT_FIELDS = new Set(["driver_info", "extra", "instance_info", "properties", "network_data"]);

/** The node named by the `id` path parameter, or 404. */
export function nodeOr404(ctx: Ctx): NodeRecord {
  const n = ctx.store.findNode(ctx.params.id);
  if (!n) throw notFound("Node", ctx.params.id);
  return n;
}

function unknownDriver(driver: string) {
  return invalid(
    `No valid host was found. Reason: No conductor service registered which supports driver ${driver} for conductor group "".`,
  );
}

function assign(n: NodeRecord, field: string, value: unknown): void {
  if (field.endsWith("_interface")) {
    if (value === null || value === undefined) n.interfaces[field] = DRIVER_INTERFACES[n.driver][field];
    else n.interfaces[field] = String(value);
    return;
  }
  const rec = n as unknown as Json;
  if (OBJECT_FIELDS.has(field)) rec[field] = value ?? {};
  else if (["automated_clean", "protected", "retired", "maintenance"].includes(field))
    rec[field] = value ?? (field === "automated_clean" ? null : false);
  else if (field === "conductor_group") rec[field] = value ?? "";
  else rec[field] = value ?? null;
}

/** POST /v1/nodes */
export function createNode(ctx: Ctx): Reply {
  const body = objectBody(ctx);
  if (typeof body.driver !== "string") throw invalid("Schema error for node: 'driver' is a required property");
  const extra = Object.keys(body).filter((k) => !CREATABLE.has(k));
  if (extra.length) {
    throw invalid(
      `Schema error for node: Additional properties are not allowed (${extra.map((k) => `'${k}'`).join(", ")} was unexpected)`,
    );
  }
  if (!DRIVER_INTERFACES[body.driver]) throw unknownDriver(body.driver);
  const uuid = typeof body.uuid === "string" ? body.uuid.toLowerCase() : undefined;
  if (uuid !== undefined && !isUuid(uuid)) throw invalid(`Expected a UUID but received ${body.uuid}.`);
  if (uuid && ctx.store.nodes.has(uuid)) throw conflict(`A node with UUID ${uuid} already exists.`);
  if (typeof body.name === "string" && ctx.store.findNode(body.name))
    throw conflict(`A node with name ${body.name} already exists.`);
  const n = ctx.store.newNode(body.driver, uuid);
  for (const [k, v] of Object.entries(body)) if (k !== "driver" && k !== "uuid") assign(n, k, v);
  ctx.store.nodes.set(n.uuid, n);
  return {
    status: 201,
    body: renderNode(n, ctx.base, ctx.version, "full"),
    headers: { Location: `${ctx.base}/v1/nodes/${n.uuid}` },
  };
}

function matches(n: NodeRecord, q: URLSearchParams): boolean {
  const bool = (s: string) => ["true", "1", "yes", "on"].includes(s.toLowerCase());
  for (const [key, value] of q) {
    if (key === "provision_state" && n.provision_state !== value) return false;
    if (key === "maintenance" && n.maintenance !== bool(value)) return false;
    if (key === "associated" && (n.instance_uuid !== null) !== bool(value)) return false;
    if (key === "retired" && n.retired !== bool(value)) return false;
    if (
      ["driver", "resource_class", "instance_uuid", "fault", "owner", "lessee", "conductor_group", "shard"].includes(
        key,
      )
    ) {
      if ((n as unknown as Json)[key] !== value) return false;
    }
  }
  return true;
}

/** GET /v1/nodes and /v1/nodes/detail */
export function listNodes(ctx: Ctx, detailPath: boolean): Reply {
  const detail = detailPath || ["true", "1"].includes(ctx.query.get("detail") ?? "");
  const fields = parseFields(ctx.query.get("fields"), NODE_FIELDS);
  if (fields && detail) throw invalid("Can not specify ?detail=True and fields in the same request.");
  const wantedState = ctx.query.get("provision_state");
  if (wantedState !== null && !(Object.values(S) as string[]).includes(wantedState)) {
    throw invalid(`Provision state "${wantedState}" is not valid`);
  }
  let nodes = [...ctx.store.nodes.values()].filter((n) => matches(n, ctx.query));
  const marker = ctx.query.get("marker");
  if (marker) nodes = nodes.slice(nodes.findIndex((n) => n.uuid === marker) + 1);
  const limit = Number(ctx.query.get("limit") ?? 0);
  const page = limit > 0 ? nodes.slice(0, limit) : nodes;
  const body: Json = {
    nodes: page.map((n) => renderNode(n, ctx.base, ctx.version, fields ?? (detail ? "full" : "list"))),
  };
  if (limit > 0 && nodes.length > limit) {
    const q = new URLSearchParams(ctx.query);
    q.set("marker", page[page.length - 1].uuid);
    body.next = `${ctx.base}/v1/nodes${detailPath ? "/detail" : ""}?${q}`;
  }
  return { status: 200, body };
}

/** GET /v1/nodes/{id} */
export function showNode(ctx: Ctx): Reply {
  const n = nodeOr404(ctx);
  const fields = parseFields(ctx.query.get("fields"), NODE_FIELDS);
  return { status: 200, body: renderNode(n, ctx.base, ctx.version, fields ?? "full") };
}

/** PATCH /v1/nodes/{id} */
export function patchNode(ctx: Ctx): Reply {
  const ops = parsePatch(jsonBody(ctx));
  for (const op of ops) {
    const root = op.path.split("/")[1] ?? "";
    if (!(PATCHABLE as readonly string[]).includes(root)) {
      throw invalid(`Cannot patch ${op.path}. Only the following can be updated: ${PATCHABLE.join(", ")}`);
    }
  }
  const n = nodeOr404(ctx);
  if (n.target_provision_state && !UPDATE_ALLOWED.includes(n.provision_state)) {
    throw conflict(`Node ${ctx.params.id} can not be updated while a state transition is in progress.`);
  }
  if (n.provision_state === S.INSPECTING) {
    throw conflict(`Cannot update node "${n.uuid}" while it is in state "${S.INSPECTING}".`);
  }
  if (n.reservation) throw nodeLocked(n.uuid, n.reservation);
  const view: Json = { driver: n.driver, ...n.interfaces };
  for (const f of PATCHABLE)
    if (!f.endsWith("_interface") && f !== "driver") view[f] = structuredClone((n as unknown as Json)[f]);
  const next = applyPatch(view, ops);
  if (next.driver !== n.driver && !DRIVER_INTERFACES[String(next.driver)]) throw unknownDriver(String(next.driver));
  if (typeof next.name === "string" && next.name !== n.name && ctx.store.findNode(next.name)) {
    throw conflict(`A node with name ${next.name} already exists.`);
  }
  if (next.driver !== n.driver) {
    n.driver = String(next.driver);
    n.interfaces = { ...DRIVER_INTERFACES[n.driver] };
  }
  for (const f of PATCHABLE) if (f !== "driver") assign(n, f, next[f]);
  ctx.store.touch(n);
  return { status: 200, body: renderNode(n, ctx.base, ctx.version, "full") };
}

/** DELETE /v1/nodes/{id} */
export function deleteNode(ctx: Ctx): Reply {
  const n = nodeOr404(ctx);
  if (n.reservation) throw nodeLocked(n.uuid, n.reservation);
  if (!n.maintenance && n.instance_uuid)
    throw conflict(`Node ${n.uuid} is associated with instance ${n.instance_uuid}.`);
  if (n.protected) throw conflict(`Node ${n.uuid} is protected and cannot be undeployed, rebuilt or deleted`);
  if (!n.maintenance && !DELETE_ALLOWED.includes(n.provision_state)) {
    const valid = `(${DELETE_ALLOWED.map((s) => `'${s}'`).join(", ")})`;
    throw fault(
      409,
      `Can not delete node "${n.uuid}" while it is in provision state "${n.provision_state}". Valid provision states to perform deletion are: "${valid}", or set the node into maintenance mode`,
    );
  }
  for (const p of ctx.store.portsOf(n.uuid)) ctx.store.ports.delete(p.uuid);
  ctx.store.nodes.delete(n.uuid);
  return { status: 204 };
}
