/** /v1/allocations: create (processed on a timer like the conductor's allocation worker), list, show, delete. */
import { randomUUID } from "node:crypto";
import type { LabClock } from "../maas/clock.js";
import { type Ctx, objectBody, type Reply } from "./context.js";
import { conflict, invalid, notFound } from "./errors.js";
import { renderAllocation } from "./render.js";
import { S } from "./states.js";
import type { AllocationRecord, IronicStore } from "./store.js";

/** Picks a node for an allocation as Ironic's conductor does (available, powered, unassociated, not in maintenance). */
export function processAllocation(store: IronicStore, a: AllocationRecord, now: number): void {
  const candidates = [...store.nodes.values()].filter(
    (n) =>
      n.provision_state === S.AVAILABLE &&
      !n.maintenance &&
      n.instance_uuid === null &&
      n.power_state !== null &&
      n.resource_class === a.resource_class &&
      (a.candidate_nodes.length === 0 || a.candidate_nodes.includes(n.uuid)),
  );
  const fitting = candidates.filter((n) => a.traits.every((t) => n.traits.includes(t)));
  a.updated_at = now;
  const node = fitting[0];
  if (!node) {
    const why = !candidates.length
      ? a.candidate_nodes.length
        ? `none of the requested nodes are available and match the resource class ${a.resource_class}`
        : `no available nodes match the resource class ${a.resource_class}`
      : `no suitable nodes have the requested traits ${a.traits.join(", ")}`;
    a.state = "error";
    a.last_error = `Failed to process allocation ${a.uuid}: ${why}.`;
    return;
  }
  node.instance_uuid = a.uuid;
  node.allocation_uuid = a.uuid;
  node.updated_at = now;
  a.node_uuid = node.uuid;
  a.state = "active";
}

/** POST /v1/allocations */
export function createAllocation(ctx: Ctx, clock: LabClock, delayMs: number): Reply {
  const body = objectBody(ctx);
  if (typeof body.resource_class !== "string")
    throw invalid("Schema error for allocation: 'resource_class' is a required property");
  const candidates = ((body.candidate_nodes as string[] | undefined) ?? []).map((ident) => {
    const n = ctx.store.findNode(ident);
    if (!n) throw invalid(`Cannot use node ${ident} as a candidate node: Node ${ident} could not be found.`);
    return n.uuid;
  });
  if (typeof body.name === "string" && ctx.store.findAllocation(body.name))
    throw conflict(`An allocation with name ${body.name} already exists.`);
  const a: AllocationRecord = {
    uuid: typeof body.uuid === "string" ? body.uuid : randomUUID(),
    name: (body.name as string | undefined) ?? null,
    resource_class: body.resource_class,
    candidate_nodes: candidates,
    traits: (body.traits as string[] | undefined) ?? [],
    extra: (body.extra as Record<string, unknown> | undefined) ?? {},
    owner: (body.owner as string | undefined) ?? null,
    state: "allocating",
    last_error: null,
    node_uuid: null,
    created_at: clock.now(),
    updated_at: null,
  };
  ctx.store.allocations.set(a.uuid, a);
  const rendered = renderAllocation(a, ctx.base);
  clock.setTimer(() => {
    if (ctx.store.allocations.get(a.uuid) === a) processAllocation(ctx.store, a, clock.now());
  }, delayMs);
  return { status: 201, body: rendered, headers: { Location: `${ctx.base}/v1/allocations/${a.uuid}` } };
}

function allocationOr404(ctx: Ctx): AllocationRecord {
  const a = ctx.store.findAllocation(ctx.params.id);
  if (!a) throw notFound("Allocation", ctx.params.id);
  return a;
}

/** GET /v1/allocations (filters node, resource_class, state) */
export function listAllocations(ctx: Ctx): Reply {
  const q = ctx.query;
  const list = [...ctx.store.allocations.values()].filter(
    (a) =>
      (!q.get("state") || a.state === q.get("state")) &&
      (!q.get("resource_class") || a.resource_class === q.get("resource_class")) &&
      (!q.get("node") || a.node_uuid === ctx.store.findNode(q.get("node") ?? "")?.uuid),
  );
  return { status: 200, body: { allocations: list.map((a) => renderAllocation(a, ctx.base)) } };
}

/** GET /v1/allocations/{id} */
export function showAllocation(ctx: Ctx): Reply {
  return { status: 200, body: renderAllocation(allocationOr404(ctx), ctx.base) };
}

/** DELETE /v1/allocations/{id}: frees the node (Ironic refuses while the node is active and not in maintenance). */
export function deleteAllocation(ctx: Ctx): Reply {
  const a = allocationOr404(ctx);
  const node = a.node_uuid ? ctx.store.nodes.get(a.node_uuid) : undefined;
  if (node && node.provision_state === S.ACTIVE && !node.maintenance) {
    throw conflict(
      `Cannot remove allocation ${a.uuid} for node ${node.uuid}, which is in the active state. Wait until the node is in the available state or set it into maintenance mode.`,
    );
  }
  if (node) {
    node.instance_uuid = null;
    node.allocation_uuid = null;
  }
  ctx.store.allocations.delete(a.uuid);
  return { status: 204 };
}
