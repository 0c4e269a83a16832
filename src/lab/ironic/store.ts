/** In-memory records of the lab Ironic: nodes, ports, allocations (what the conductor's database holds). */
import { randomUUID } from "node:crypto";
import { S } from "./states.js";

type Json = Record<string, unknown>;

/** Hardware interfaces a node gets from its driver (the captured 21.4 defaults for each hardware type). */
export const DRIVER_INTERFACES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  "fake-hardware": {
    bios_interface: "fake",
    boot_interface: "fake",
    console_interface: "fake",
    deploy_interface: "fake",
    inspect_interface: "fake",
    management_interface: "fake",
    network_interface: "noop",
    power_interface: "fake",
    raid_interface: "fake",
    rescue_interface: "fake",
    storage_interface: "noop",
    vendor_interface: "fake",
  },
  redfish: {
    bios_interface: "redfish",
    boot_interface: "redfish-virtual-media",
    console_interface: "no-console",
    deploy_interface: "direct",
    inspect_interface: "redfish",
    management_interface: "redfish",
    network_interface: "noop",
    power_interface: "redfish",
    raid_interface: "redfish",
    rescue_interface: "no-rescue",
    storage_interface: "noop",
    vendor_interface: "redfish",
  },
};

/** A node as the lab stores it; field names are the API's. */
export interface NodeRecord {
  /** The database id (Ironic names it in some messages, e.g. a missing inventory record). */
  readonly id: number;
  uuid: string;
  name: string | null;
  driver: string;
  interfaces: Record<string, string>;
  driver_info: Json;
  driver_internal_info: Json;
  properties: Json;
  extra: Json;
  instance_info: Json;
  instance_uuid: string | null;
  allocation_uuid: string | null;
  resource_class: string | null;
  provision_state: string;
  target_provision_state: string | null;
  power_state: string | null;
  target_power_state: string | null;
  maintenance: boolean;
  maintenance_reason: string | null;
  fault: string | null;
  last_error: string | null;
  reservation: string | null;
  clean_step: Json;
  deploy_step: Json;
  service_step: Json;
  boot_mode: string | null;
  secure_boot: boolean | null;
  traits: string[];
  owner: string | null;
  lessee: string | null;
  description: string | null;
  conductor_group: string;
  automated_clean: boolean | null;
  protected: boolean;
  protected_reason: string | null;
  retired: boolean;
  retired_reason: string | null;
  network_data: Json;
  shard: string | null;
  chassis_uuid: string | null;
  created_at: number;
  updated_at: number | null;
  provision_updated_at: number | null;
  inspection_started_at: number | null;
  inspection_finished_at: number | null;
  /** What the last inspection stored (GET /v1/nodes/{ident}/inventory), null until one did. */
  inventory: { inventory: Json; plugin_data: Json } | null;
}

/** A port (a NIC's MAC bound to a node). */
export interface PortRecord {
  uuid: string;
  address: string;
  node_uuid: string;
  pxe_enabled: boolean;
  extra: Json;
  internal_info: Json;
  is_smartnic: boolean;
  local_link_connection: Json;
  physical_network: string | null;
  name: string | null;
  created_at: number;
  updated_at: number | null;
}

/** An allocation (a request for a node by resource class and traits). */
export interface AllocationRecord {
  uuid: string;
  name: string | null;
  resource_class: string;
  candidate_nodes: string[];
  traits: string[];
  extra: Json;
  owner: string | null;
  state: "allocating" | "active" | "error";
  last_error: string | null;
  node_uuid: string | null;
  created_at: number;
  updated_at: number | null;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for a canonical UUID (Ironic looks idents up by uuid first, else by name). */
export const isUuid = (s: string) => UUID_RE.test(s);

/** The lab's tables. */
export class IronicStore {
  readonly nodes = new Map<string, NodeRecord>();
  readonly ports = new Map<string, PortRecord>();
  readonly allocations = new Map<string, AllocationRecord>();

  private nodeSeq = 0;

  constructor(readonly now: () => number) {}

  /** A new node in enroll with the driver's default interfaces. */
  newNode(driver: string, uuid: string = randomUUID()): NodeRecord {
    const node: NodeRecord = {
      id: ++this.nodeSeq,
      uuid,
      name: null,
      driver,
      interfaces: { ...DRIVER_INTERFACES[driver] },
      driver_info: {},
      driver_internal_info: {},
      properties: {},
      extra: {},
      instance_info: {},
      instance_uuid: null,
      allocation_uuid: null,
      resource_class: null,
      provision_state: S.ENROLL,
      target_provision_state: null,
      power_state: null,
      target_power_state: null,
      maintenance: false,
      maintenance_reason: null,
      fault: null,
      last_error: null,
      reservation: null,
      clean_step: {},
      deploy_step: {},
      service_step: {},
      boot_mode: null,
      secure_boot: null,
      traits: [],
      owner: null,
      lessee: null,
      description: null,
      conductor_group: "",
      automated_clean: null,
      protected: false,
      protected_reason: null,
      retired: false,
      retired_reason: null,
      network_data: {},
      shard: null,
      chassis_uuid: null,
      created_at: this.now(),
      updated_at: null,
      provision_updated_at: null,
      inspection_started_at: null,
      inspection_finished_at: null,
      inventory: null,
    };
    return node;
  }

  /** Node by uuid, or by name when the ident is not a UUID. */
  findNode(ident: string): NodeRecord | undefined {
    if (isUuid(ident)) return this.nodes.get(ident.toLowerCase());
    for (const n of this.nodes.values()) if (n.name === ident) return n;
    return undefined;
  }

  /** Allocation by uuid or name. */
  findAllocation(ident: string): AllocationRecord | undefined {
    if (isUuid(ident)) return this.allocations.get(ident.toLowerCase());
    for (const a of this.allocations.values()) if (a.name === ident) return a;
    return undefined;
  }

  /** Ports of a node, oldest first. */
  portsOf(nodeUuid: string): PortRecord[] {
    return [...this.ports.values()].filter((p) => p.node_uuid === nodeUuid);
  }

  /** A new port of the node for a discovered MAC (pxe_enabled, as inspection creates them). */
  newPort(nodeUuid: string, mac: string): PortRecord {
    const uuid = randomUUID();
    const port: PortRecord = {
      uuid,
      address: mac,
      node_uuid: nodeUuid,
      pxe_enabled: true,
      extra: {},
      internal_info: {},
      is_smartnic: false,
      local_link_connection: {},
      physical_network: null,
      name: null,
      created_at: this.now(),
      updated_at: null,
    };
    this.ports.set(uuid, port);
    return port;
  }

  /** Marks a record changed now. */
  touch(r: { updated_at: number | null }): void {
    r.updated_at = this.now();
  }
}
