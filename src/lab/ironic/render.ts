/** JSON bodies of nodes, ports and allocations, with keys in the order Ironic 21.4 emits them (see the captured fixtures). */
import { invalid } from "./errors.js";
import type { AllocationRecord, NodeRecord, PortRecord } from "./store.js";
import type { Microversion } from "./versions.js";

type Json = Record<string, unknown>;

/** Ironic's timestamp style: 2026-11-22T01:42:09.182893+00:00 (microseconds from the ms clock). */
export function isoTime(ms: number | null | undefined): string | null {
  if (ms === null || ms === undefined) return null;
  return new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00");
}

// Values of keys with these words are secrets in Ironic (oslo strutils.mask_dict_password).
const SECRET_KEY = /(pass|secret|token|configdrive|encryption_key)/i;

/** A copy of `d` with secret values replaced by "******", recursively, as Ironic masks driver_info and instance_info. */
export function maskSecrets(d: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(d)) {
    if (SECRET_KEY.test(k) && v !== null && typeof v !== "object") out[k] = "******";
    else if (v && typeof v === "object" && !Array.isArray(v)) out[k] = maskSecrets(v as Json);
    else out[k] = v;
  }
  return out;
}

/** Minimum minor version of node fields newer than 1.1 (ironic/api/controllers/v1/utils.py VERSIONED_FIELDS). */
const NODE_FIELD_MINOR: Readonly<Record<string, number>> = {
  driver_internal_info: 3,
  name: 5,
  inspection_finished_at: 6,
  inspection_started_at: 6,
  clean_step: 7,
  raid_config: 12,
  target_raid_config: 12,
  network_interface: 20,
  resource_class: 21,
  boot_interface: 31,
  console_interface: 31,
  deploy_interface: 31,
  inspect_interface: 31,
  management_interface: 31,
  power_interface: 31,
  raid_interface: 31,
  vendor_interface: 31,
  storage_interface: 33,
  traits: 37,
  rescue_interface: 38,
  bios_interface: 40,
  fault: 42,
  deploy_step: 44,
  conductor_group: 46,
  automated_clean: 47,
  protected: 48,
  protected_reason: 48,
  conductor: 49,
  owner: 50,
  description: 51,
  allocation_uuid: 52,
  retired: 61,
  retired_reason: 61,
  lessee: 65,
  network_data: 66,
  boot_mode: 75,
  secure_boot: 75,
  shard: 82,
  service_step: 87,
};

/** True when the node field exists at this microversion. */
export function nodeFieldAllowed(field: string, v: Microversion): boolean {
  return v.minor >= (NODE_FIELD_MINOR[field] ?? 0);
}

function links(base: string, kind: string, id: string, sub = ""): Json[] {
  return [
    { href: `${base}/v1/${kind}/${id}${sub}`, rel: "self" },
    { href: `${base}/${kind}/${id}${sub}`, rel: "bookmark" },
  ];
}

/** Every node field at the newest version, in Ironic's order. */
function fullNode(n: NodeRecord, base: string): Json {
  const i = n.interfaces;
  return {
    uuid: n.uuid,
    created_at: isoTime(n.created_at),
    updated_at: isoTime(n.updated_at),
    automated_clean: n.automated_clean,
    bios_interface: i.bios_interface,
    boot_interface: i.boot_interface,
    boot_mode: n.boot_mode,
    clean_step: n.clean_step,
    conductor_group: n.conductor_group,
    console_enabled: false,
    console_interface: i.console_interface,
    deploy_interface: i.deploy_interface,
    deploy_step: n.deploy_step,
    description: n.description,
    driver: n.driver,
    driver_info: maskSecrets(n.driver_info),
    driver_internal_info: n.driver_internal_info,
    extra: n.extra,
    fault: n.fault,
    inspection_finished_at: isoTime(n.inspection_finished_at),
    inspection_started_at: isoTime(n.inspection_started_at),
    inspect_interface: i.inspect_interface,
    instance_info: maskSecrets(n.instance_info),
    instance_uuid: n.instance_uuid,
    last_error: n.last_error,
    lessee: n.lessee,
    maintenance: n.maintenance,
    maintenance_reason: n.maintenance_reason,
    management_interface: i.management_interface,
    name: n.name,
    network_data: n.network_data,
    network_interface: i.network_interface,
    owner: n.owner,
    power_interface: i.power_interface,
    power_state: n.power_state,
    properties: n.properties,
    protected: n.protected,
    protected_reason: n.protected_reason,
    provision_state: n.provision_state,
    provision_updated_at: isoTime(n.provision_updated_at),
    raid_config: {},
    raid_interface: i.raid_interface,
    rescue_interface: i.rescue_interface,
    reservation: n.reservation,
    resource_class: n.resource_class,
    retired: n.retired,
    retired_reason: n.retired_reason,
    secure_boot: n.secure_boot,
    service_step: n.service_step,
    shard: n.shard,
    storage_interface: i.storage_interface,
    target_power_state: n.target_power_state,
    target_provision_state: n.target_provision_state,
    target_raid_config: {},
    traits: n.traits,
    vendor_interface: i.vendor_interface,
    links: links(base, "nodes", n.uuid),
    conductor: "localhost",
    allocation_uuid: n.allocation_uuid,
    chassis_uuid: n.chassis_uuid,
    ports: links(base, "nodes", n.uuid, "/ports"),
    states: links(base, "nodes", n.uuid, "/states"),
    portgroups: links(base, "nodes", n.uuid, "/portgroups"),
    volume: links(base, "nodes", n.uuid, "/volume"),
  };
}

const NODE_LIST_FIELDS = ["instance_uuid", "maintenance", "name", "power_state", "provision_state", "uuid", "links"];

/** Parses `fields=a,b`; unknown names are a 400 (Ironic answers them differently per version; the lab keeps it simple). */
export function parseFields(raw: string | null, known: readonly string[]): string[] | undefined {
  if (raw === null) return undefined;
  const fields = raw
    .split(",")
    .map((f) => f.trim())
    .filter(Boolean);
  const bad = fields.filter((f) => !known.includes(f));
  if (bad.length) throw invalid(`Field(s) "${bad.join(", ")}" are not valid`);
  return fields;
}

/** Names of the node fields at the newest version. */
export const NODE_FIELDS: readonly string[] = Object.keys(fullNode(placeholderNode(), ""));

function placeholderNode(): NodeRecord {
  return { interfaces: {}, driver_info: {}, instance_info: {} } as unknown as NodeRecord;
}

/** A node body: full (show/detail), the list subset, or `fields` (links always added, as Ironic does). */
export function renderNode(n: NodeRecord, base: string, v: Microversion, shape: "full" | "list" | string[]): Json {
  const all = fullNode(n, base);
  const wanted = shape === "full" ? Object.keys(all) : shape === "list" ? NODE_LIST_FIELDS : [...shape, "links"];
  const out: Json = {};
  for (const k of Object.keys(all)) if (wanted.includes(k) && nodeFieldAllowed(k, v)) out[k] = all[k];
  return out;
}

/** A port body (port-create.json order); `list` = uuid, address, links. */
export function renderPort(p: PortRecord, base: string, shape: "full" | "list" | string[]): Json {
  const all: Json = {
    uuid: p.uuid,
    created_at: isoTime(p.created_at),
    updated_at: isoTime(p.updated_at),
    address: p.address,
    extra: p.extra,
    internal_info: p.internal_info,
    is_smartnic: p.is_smartnic,
    local_link_connection: p.local_link_connection,
    physical_network: p.physical_network,
    pxe_enabled: p.pxe_enabled,
    node_uuid: p.node_uuid,
    links: links(base, "ports", p.uuid),
    portgroup_uuid: null,
  };
  const wanted =
    shape === "full" ? Object.keys(all) : shape === "list" ? ["uuid", "address", "links"] : [...shape, "links"];
  return Object.fromEntries(Object.entries(all).filter(([k]) => wanted.includes(k)));
}

/** An allocation body (allocation-create.json order). */
export function renderAllocation(a: AllocationRecord, base: string): Json {
  return {
    uuid: a.uuid,
    created_at: isoTime(a.created_at),
    updated_at: isoTime(a.updated_at),
    candidate_nodes: a.candidate_nodes,
    extra: a.extra,
    last_error: a.last_error,
    name: a.name,
    owner: a.owner,
    resource_class: a.resource_class,
    state: a.state,
    traits: a.traits,
    links: links(base, "allocations", a.uuid),
    node_uuid: a.node_uuid,
  };
}

/** GET /v1/nodes/{id}/states (node-states.json). */
export function renderStates(n: NodeRecord): Json {
  return {
    console_enabled: false,
    last_error: n.last_error,
    power_state: n.power_state,
    provision_state: n.provision_state,
    target_power_state: n.target_power_state,
    target_provision_state: n.target_provision_state,
    provision_updated_at: isoTime(n.provision_updated_at),
    raid_config: {},
    target_raid_config: {},
    boot_mode: n.boot_mode,
    secure_boot: n.secure_boot,
  };
}
