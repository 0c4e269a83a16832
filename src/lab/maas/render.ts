/** Renders lab records as the JSON bodies MAAS serves (field names and types as MAAS 3.x returns them). */
import { resultTypeName, SCRIPT_FAILED, scriptStatusName, statusName } from "./statuses.js";
import type {
  BootResourceRecord,
  EventRecord,
  InterfaceRecord,
  MachineRecord,
  NamedRecord,
  ScriptRecord,
  ScriptResultRecord,
  ScriptSetRecord,
  TagRecord,
} from "./store.js";

/** Path prefix of the MAAS 2.0 API. */
export const API = "/MAAS/api/2.0";

const VLAN = {
  vid: 0,
  mtu: 1500,
  dhcp_on: true,
  external_dhcp: null,
  relay_vlan: null,
  name: "untagged",
  fabric_id: 0,
  id: 5001,
  secondary_rack: null,
  space: "undefined",
  primary_rack: "lab-rack",
  fabric: "fabric-0",
  resource_uri: `${API}/vlans/5001/`,
};

const SUBNET = {
  name: "10.20.0.0/16",
  description: "",
  vlan: VLAN,
  cidr: "10.20.0.0/16",
  rdns_mode: 2,
  gateway_ip: "10.20.0.1",
  dns_servers: [],
  allow_dns: true,
  allow_proxy: true,
  active_discovery: false,
  managed: true,
  id: 1,
  space: "undefined",
  resource_uri: `${API}/subnets/1/`,
};

/** An interface of a machine (nodes/{system_id}/interfaces/{id}/). */
export function renderInterface(m: MachineRecord, i: InterfaceRecord): Record<string, unknown> {
  return {
    system_id: m.systemId,
    name: i.name,
    vlan: VLAN,
    vendor: i.vendor,
    enabled: i.enabled,
    children: [],
    discovered: [],
    id: i.id,
    params: "",
    type: i.type,
    firmware_version: null,
    mac_address: i.macAddress,
    parents: [],
    tags: [],
    links: i.ipAddress ? [{ id: i.id, mode: "auto", ip_address: i.ipAddress, subnet: SUBNET }] : [],
    effective_mtu: 1500,
    product: i.product,
    resource_uri: `${API}/nodes/${m.systemId}/interfaces/${i.id}/`,
  };
}

// Summary status of one kind of results: the worst script status of the current set, -1 when none ran.
function summary(m: MachineRecord, setId: number | null): number {
  const set = m.scriptSets.find((s) => s.id === setId);
  if (!set || set.results.length === 0) return -1;
  const order = [...SCRIPT_FAILED, 5, 1, 0, 6, 2, 9];
  for (const s of order) if (set.results.some((r) => r.status === s)) return s;
  return set.results[0].status;
}

const STATUS_ACTION: Record<number, string> = { 1: "commissioning", 9: "deploying", 12: "releasing", 21: "testing" };

/** A machine (machines/{system_id}/), with every key MAAS 3.x returns. */
export function renderMachine(m: MachineRecord): Record<string, unknown> {
  return {
    ...machineIdentity(m),
    ...machineSettings(m),
    ...machineDevices(m),
    ...machineResults(m),
    zone: renderZone(m.zone),
    pool: renderPool(m.pool),
    pod: null,
    resource_uri: `${API}/machines/${m.systemId}/`,
  };
}

/** A machine's keys that name it and give its status (the first of renderMachine's keys, in MAAS's order). */
function machineIdentity(m: MachineRecord): Record<string, unknown> {
  return {
    system_id: m.systemId,
    hostname: m.hostname,
    description: m.description,
    fqdn: `${m.hostname}.maas`,
    domain: {
      authoritative: true,
      ttl: null,
      name: "maas",
      resource_record_count: 0,
      id: 0,
      is_default: true,
      resource_uri: `${API}/domains/0/`,
    },
    architecture: m.architecture,
    status: m.status,
    status_name: statusName(m.status),
    status_message: m.statusMessage,
    status_action: STATUS_ACTION[m.status] ?? "",
    node_type: 0,
    node_type_name: "Machine",
  };
}

/** A machine's owner, OS, power and size keys (renderMachine's keys after its identity, in MAAS's order). */
function machineSettings(m: MachineRecord): Record<string, unknown> {
  const storageMB = 960_197.124096;
  return {
    owner: m.owner,
    owner_data: { ...m.ownerData },
    locked: m.locked,
    netboot: m.netboot,
    osystem: m.osystem,
    distro_series: m.distroSeries,
    hwe_kernel: m.hweKernel,
    min_hwe_kernel: null,
    power_type: m.powerType,
    power_state: m.powerState,
    cpu_count: m.cpuCount,
    cpu_speed: 2400,
    memory: m.memoryMiB,
    storage: storageMB,
    swap_size: null,
    disable_ipv4: false,
    address_ttl: null,
  };
}

/** A machine's addresses, interfaces, storage layout and hardware info (in MAAS's order). */
function machineDevices(m: MachineRecord): Record<string, unknown> {
  const interfaces = m.interfaces.map((i) => renderInterface(m, i));
  return {
    ip_addresses: m.interfaces.flatMap((i) => (i.ipAddress ? [i.ipAddress] : [])),
    tag_names: [...m.tags],
    interface_set: interfaces,
    boot_interface: interfaces[0] ?? null,
    boot_disk: null,
    blockdevice_set: [],
    physicalblockdevice_set: [],
    virtualblockdevice_set: [],
    iscsiblockdevice_set: [],
    special_filesystems: [],
    volume_groups: [],
    raids: [],
    bcaches: [],
    cache_sets: [],
    default_gateways: { ipv4: { gateway_ip: null, link_id: null }, ipv6: { gateway_ip: null, link_id: null } },
    hardware_info: {
      system_vendor: "Unknown",
      system_product: "Unknown",
      system_version: "Unknown",
      system_serial: "Unknown",
      cpu_model: "Unknown",
      mainboard_vendor: "Unknown",
      mainboard_product: "Unknown",
      mainboard_firmware_version: "Unknown",
      mainboard_firmware_date: "Unknown",
      ...m.hardwareInfo,
    },
  };
}

/** A machine's commissioning and testing result summaries and its current result sets (in MAAS's order). */
function machineResults(m: MachineRecord): Record<string, unknown> {
  const commissioning = summary(m, m.currentCommissioningSetId);
  const testing = summary(m, m.currentTestingSetId);
  return {
    commissioning_status: commissioning,
    commissioning_status_name: scriptStatusName(commissioning),
    testing_status: testing,
    testing_status_name: scriptStatusName(testing),
    cpu_test_status: -1,
    cpu_test_status_name: scriptStatusName(-1),
    memory_test_status: -1,
    memory_test_status_name: scriptStatusName(-1),
    storage_test_status: -1,
    storage_test_status_name: scriptStatusName(-1),
    other_test_status: testing,
    other_test_status_name: scriptStatusName(testing),
    current_commissioning_result_id: m.currentCommissioningSetId,
    current_testing_result_id: m.currentTestingSetId,
    current_installation_result_id: m.currentInstallationSetId,
  };
}

/** A zone as ZoneHandler renders it. */
export function renderZone(z: NamedRecord): Record<string, unknown> {
  return { name: z.name, description: z.description, id: z.id, resource_uri: `${API}/zones/${z.name}/` };
}

/** A resource pool as ResourcePoolHandler renders it. */
export function renderPool(p: NamedRecord): Record<string, unknown> {
  return { name: p.name, description: p.description, id: p.id, resource_uri: `${API}/resourcepool/${p.id}/` };
}

/** A tag (tags/{name}/). */
export function renderTag(t: TagRecord): Record<string, unknown> {
  return {
    name: t.name,
    definition: t.definition,
    comment: t.comment,
    kernel_opts: t.kernelOpts,
    resource_uri: `${API}/tags/${encodeURIComponent(t.name)}/`,
  };
}

/** A boot resource; `withSets` adds the per-version file sets as boot-resources/{id}/ does. */
export function renderBootResource(b: BootResourceRecord, withSets: boolean): Record<string, unknown> {
  const base: Record<string, unknown> = {
    id: b.id,
    type: b.type,
    name: b.name,
    architecture: b.architecture,
    resource_uri: `${API}/boot-resources/${b.id}/`,
    last_deployed: null,
    subarches: b.subarches,
  };
  if (b.type === "Uploaded") {
    base.title = b.title;
    base.base_image = b.baseImage;
  }
  if (!withSets) return base;
  const complete = b.files.every((f) => f.complete);
  const size = b.files.reduce((n, f) => n + f.size, 0);
  const files: Record<string, unknown> = {};
  b.files.forEach((f, i) => {
    files[f.filename] = {
      filename: f.filename,
      filetype: f.filetype,
      sha256: f.sha256,
      size: f.size,
      complete: f.complete,
      // MAAS 3.4+ reports an incomplete file's progress as sync_progress, the percentage held (one region here).
      ...(!f.complete ? { progress: f.size > 0 ? (100 * b.held) / f.size : 0 } : {}),
      // Where the bytes of an uploaded file go, until they have all arrived (boot_resource_file_to_dict).
      ...(b.type === "Uploaded" && !f.complete ? { upload_uri: `${API}/boot-resources/${b.id}/upload/${i + 1}/` } : {}),
    };
  });
  base.sets = {
    [b.version]: {
      version: b.version,
      label: b.type === "Uploaded" ? "uploaded" : "stable",
      size,
      complete,
      ...(!complete ? { progress: size > 0 ? (100 * Math.min(b.held, size)) / size : 0 } : {}),
      files,
    },
  };
  return base;
}

const MONTHS = ["Jan.", "Feb.", "March", "April", "May", "June", "July", "Aug.", "Sept.", "Oct.", "Nov.", "Dec."];
const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const pad = (n: number) => String(n).padStart(2, "0");

/** Django's "D, d N. Y H:i:s" as events carry it ("Fri, 07 Dec. 2018 20:11:08"). */
export function eventTime(ms: number): string {
  const d = new Date(ms);
  const month = MONTHS[d.getUTCMonth()];
  return `${DAYS[d.getUTCDay()]}, ${pad(d.getUTCDate())} ${month} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
}

/** RFC 2822 time as script results carry it ("Tue, 21 Oct 2025 15:17:12 +0000"). */
export function resultTime(ms: number | null): string | null {
  if (ms === null) return null;
  return new Date(ms).toUTCString().replace("GMT", "+0000");
}

/** An event row of events/?op=query. */
export function renderEvent(e: EventRecord): Record<string, unknown> {
  return {
    username: e.username,
    node: e.systemId,
    hostname: e.hostname,
    id: e.id,
    level: e.level,
    created: eventTime(e.created),
    type: e.type,
    description: e.description,
  };
}

function runtime(started: number | null, ended: number | null): string {
  if (started === null) return "";
  const s = Math.max(0, Math.round(((ended ?? started) - started) / 1000));
  return `${Math.floor(s / 3600)}:${pad(Math.floor(s / 60) % 60)}:${pad(s % 60)}`;
}

function renderResult(r: ScriptResultRecord, includeOutput: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: r.id,
    created: resultTime(r.created),
    updated: resultTime(r.updated),
    name: r.name,
    status: r.status,
    status_name: scriptStatusName(r.status),
    exit_status: r.exitStatus,
    started: resultTime(r.started),
    ended: resultTime(r.ended),
    runtime: runtime(r.started, r.ended),
    starttime: r.started === null ? "" : r.started / 1000,
    endtime: r.ended === null ? "" : r.ended / 1000,
    estimated_runtime: "0:00:10",
    parameters: r.parameters,
    script_id: r.scriptId,
    script_revision_id: r.scriptId,
    suppressed: false,
  };
  if (includeOutput) {
    const b64 = r.output.toString("base64");
    Object.assign(out, { output: b64, stdout: b64, stderr: "", result: "" });
  }
  return out;
}

/** Overall status of a result set: failed if any failed, running while any runs, else passed. */
export function setStatus(set: ScriptSetRecord): number {
  const st = set.results.map((r) => r.status);
  for (const s of [...SCRIPT_FAILED, 5, 1, 0, 6]) if (st.includes(s)) return s;
  return 2;
}

/** A script set (nodes/{system_id}/results/{id}/). */
export function renderScriptSet(
  m: MachineRecord,
  set: ScriptSetRecord,
  includeOutput: boolean,
): Record<string, unknown> {
  const status = setStatus(set);
  return {
    id: set.id,
    system_id: m.systemId,
    type: set.type,
    type_name: resultTypeName(set.type),
    last_ping: resultTime(set.lastPing),
    status,
    status_name: scriptStatusName(status),
    started: resultTime(set.started),
    ended: resultTime(set.ended),
    runtime: runtime(set.started, set.ended),
    results: set.results.map((r) => renderResult(r, includeOutput)),
    resource_uri: `${API}/nodes/${m.systemId}/results/${set.id}/`,
  };
}

const HARDWARE: Record<number, string> = { 0: "Node", 1: "CPU", 2: "Memory", 3: "Storage", 4: "Network", 5: "GPU" };

/** A script (scripts/{name}/). */
export function renderScript(s: ScriptRecord): Record<string, unknown> {
  return {
    id: s.id,
    name: s.name,
    title: s.title,
    description: s.description,
    tags: [...s.tags],
    type: s.type,
    type_name: s.type === 0 ? "Commissioning script" : "Testing script",
    hardware_type: s.hardwareType,
    hardware_type_name: HARDWARE[s.hardwareType] ?? "Node",
    parallel: 0,
    parallel_name: "Disabled",
    timeout: `0:${pad(Math.floor(s.timeoutSeconds / 60) % 60)}:${pad(s.timeoutSeconds % 60)}`,
    destructive: s.destructive,
    default: s.isDefault,
    parameters: s.parameters ?? {},
    results: {},
    packages: {},
    for_hardware: [],
    may_reboot: false,
    recommission: false,
    apply_configured_networking: false,
    history: [{ id: s.id, comment: null, created: resultTime(0) }],
    resource_uri: `${API}/scripts/${encodeURIComponent(s.name)}`,
  };
}
