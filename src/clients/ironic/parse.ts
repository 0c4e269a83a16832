/** Turns Ironic JSON bodies into typed objects. */
import { IronicError } from "./errors.js";
import type { IronicAllocation, IronicNode, IronicPort, IronicValidation } from "./types.js";

type Obj = Record<string, unknown>;

/** True for a plain JSON object. */
export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const optStr = (v: unknown): string | null | undefined =>
  v === undefined ? undefined : typeof v === "string" ? v : null;
const nStr = (v: unknown): string | null => (typeof v === "string" ? v : null);
const optObj = (v: unknown): Obj | undefined => (isObj(v) ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

function bad(what: string, why: string): IronicError {
  return new IronicError("RACKFORM_ERR_IRONIC_BAD_PAYLOAD", `Ironic ${what}: ${why}`);
}

/** A node body (full, or a `fields=` selection that includes uuid). */
export function parseNode(j: unknown): IronicNode {
  if (!isObj(j) || typeof j.uuid !== "string") throw bad("node", "expected an object with a uuid");
  return {
    uuid: j.uuid,
    name: nStr(j.name),
    driver: typeof j.driver === "string" ? j.driver : undefined,
    provisionState: typeof j.provision_state === "string" ? j.provision_state : undefined,
    targetProvisionState: optStr(j.target_provision_state),
    powerState: optStr(j.power_state),
    targetPowerState: optStr(j.target_power_state),
    maintenance: typeof j.maintenance === "boolean" ? j.maintenance : undefined,
    maintenanceReason: optStr(j.maintenance_reason),
    fault: optStr(j.fault),
    lastError: optStr(j.last_error),
    instanceUuid: optStr(j.instance_uuid),
    resourceClass: optStr(j.resource_class),
    allocationUuid: optStr(j.allocation_uuid),
    reservation: optStr(j.reservation),
    properties: optObj(j.properties),
    driverInfo: optObj(j.driver_info),
    instanceInfo: optObj(j.instance_info),
    extra: optObj(j.extra),
    raw: j,
  };
}

/** The `nodes` of a node list. */
export function parseNodeList(j: unknown): { nodes: IronicNode[]; next?: string } {
  if (!isObj(j) || !Array.isArray(j.nodes)) throw bad("node list", "expected {nodes: [...]}");
  return { nodes: j.nodes.map(parseNode), next: typeof j.next === "string" ? j.next : undefined };
}

/** A port body. */
export function parsePort(j: unknown): IronicPort {
  if (!isObj(j) || typeof j.uuid !== "string" || typeof j.address !== "string") {
    throw bad("port", "expected an object with uuid and address");
  }
  return {
    uuid: j.uuid,
    address: j.address.toLowerCase(),
    nodeUuid: typeof j.node_uuid === "string" ? j.node_uuid : undefined,
    pxeEnabled: typeof j.pxe_enabled === "boolean" ? j.pxe_enabled : undefined,
    physicalNetwork: optStr(j.physical_network),
    localLinkConnection: optObj(j.local_link_connection),
    raw: j,
  };
}

/** The `ports` of a port list. */
export function parsePortList(j: unknown): { ports: IronicPort[]; next?: string } {
  if (!isObj(j) || !Array.isArray(j.ports)) throw bad("port list", "expected {ports: [...]}");
  return { ports: j.ports.map(parsePort), next: typeof j.next === "string" ? j.next : undefined };
}

/** An allocation body. */
export function parseAllocation(j: unknown): IronicAllocation {
  if (!isObj(j) || typeof j.uuid !== "string") throw bad("allocation", "expected an object with a uuid");
  return {
    uuid: j.uuid,
    name: nStr(j.name),
    state: typeof j.state === "string" ? j.state : "unknown",
    nodeUuid: nStr(j.node_uuid),
    resourceClass: nStr(j.resource_class),
    traits: strs(j.traits),
    candidateNodes: strs(j.candidate_nodes),
    lastError: nStr(j.last_error),
    raw: j,
  };
}

/** The `allocations` of an allocation list. */
export function parseAllocationList(j: unknown): IronicAllocation[] {
  if (!isObj(j) || !Array.isArray(j.allocations)) throw bad("allocation list", "expected {allocations: [...]}");
  return j.allocations.map(parseAllocation);
}

/** A validate body: interface → {result, reason}. */
export function parseValidation(j: unknown): IronicValidation {
  if (!isObj(j)) throw bad("validation", "expected an object");
  const out: Record<string, { result: boolean | null; reason?: string }> = {};
  for (const [iface, v] of Object.entries(j)) {
    if (!isObj(v)) continue;
    out[iface] = {
      result: typeof v.result === "boolean" ? v.result : null,
      ...(typeof v.reason === "string" ? { reason: v.reason } : {}),
    };
  }
  return out;
}

/** The API root: supported microversion range of v1. */
export function parseVersions(j: unknown): { min: string; max: string } {
  const versions = isObj(j) && Array.isArray(j.versions) ? j.versions : [];
  const v1 = versions.find((v) => isObj(v) && v.id === "v1");
  if (!isObj(v1) || typeof v1.version !== "string") throw bad("API root", "no v1 version listed");
  return { min: typeof v1.min_version === "string" ? v1.min_version : "1.1", max: v1.version };
}

/** The path of a `next` link, refusing other hosts (they would receive our credentials). */
export function sameOriginPath(next: string, origin: string): string {
  const u = new URL(next, origin);
  if (u.origin !== origin) {
    throw new IronicError(
      "RACKFORM_ERR_IRONIC_BAD_PAYLOAD",
      `Ironic links to another host (${u.origin}); rackform does not follow it`,
    );
  }
  return u.pathname + u.search;
}
