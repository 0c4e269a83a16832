/** Turns MAAS JSON bodies into typed objects; tolerant of the field differences between MAAS 2.x and 3.x. */
import { MaasError } from "./errors.js";
import { MAAS_SCRIPT_FAILED_STATUSES, statusLabel } from "./status.js";
import type {
  MaasBootResource,
  MaasBootResourceFile,
  MaasEvent,
  MaasInterface,
  MaasMachine,
  MaasScriptResultSet,
  MaasTag,
} from "./types.js";

type Obj = Record<string, unknown>;

/** True for a plain JSON object. */
export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const str = (v: unknown, d = ""): string => (typeof v === "string" ? v : d);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const objs = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const nameOf = (v: unknown): string | undefined => (isObj(v) ? str(v.name) || undefined : str(v) || undefined);

function bad(what: string, why: string): MaasError {
  return new MaasError("RACKFORM_ERR_MAAS_BAD_PAYLOAD", `MAAS ${what}: ${why}`);
}

/** An interface of `interface_set`. */
export function parseInterface(j: unknown): MaasInterface {
  if (!isObj(j)) throw bad("interface", "expected a JSON object");
  const vlan = isObj(j.vlan) ? j.vlan : undefined;
  return {
    id: num(j.id) ?? -1,
    name: str(j.name),
    type: str(j.type),
    macAddress: typeof j.mac_address === "string" ? j.mac_address.toLowerCase() : null,
    enabled: j.enabled !== false,
    vlanName: vlan ? str(vlan.name) || undefined : undefined,
    fabric: vlan ? str(vlan.fabric) || undefined : undefined,
    ipAddresses: objs(j.links)
      .map((l) => str(l.ip_address))
      .filter(Boolean),
  };
}

/** A machine (or any node) body. */
export function parseMachine(j: unknown): MaasMachine {
  if (!isObj(j)) throw bad("machine", "expected a JSON object");
  const systemId = str(j.system_id);
  if (!systemId) throw bad("machine", "the object has no system_id");
  // Controllers (node_type 2–4) carry no status; -1 keeps them listable without matching any wanted status.
  const status = num(j.status) ?? -1;
  const interfaces = objs(j.interface_set).map(parseInterface);
  const macs = new Set<string>();
  for (const i of interfaces) if (i.macAddress) macs.add(i.macAddress);
  for (const m of objs(j.macaddress_set)) if (typeof m.mac_address === "string") macs.add(m.mac_address.toLowerCase());
  const boot = isObj(j.boot_interface) ? str(j.boot_interface.mac_address).toLowerCase() || undefined : undefined;
  if (boot) macs.add(boot);
  return {
    systemId,
    hostname: str(j.hostname),
    fqdn: str(j.fqdn) || undefined,
    status,
    statusName: str(j.status_name) || (status >= 0 ? statusLabel(status) : ""),
    nodeTypeName: str(j.node_type_name) || undefined,
    statusMessage: str(j.status_message),
    description: str(j.description),
    powerType: str(j.power_type),
    powerState: str(j.power_state, "unknown"),
    architecture: str(j.architecture),
    osystem: str(j.osystem),
    distroSeries: str(j.distro_series),
    cpuCount: num(j.cpu_count),
    memoryMiB: num(j.memory),
    tags: strs(j.tag_names),
    ipAddresses: strs(j.ip_addresses),
    macAddresses: [...macs],
    bootMacAddress: boot,
    interfaces,
    owner: typeof j.owner === "string" && j.owner !== "" ? j.owner : null,
    pool: nameOf(j.pool),
    zone: nameOf(j.zone),
    locked: typeof j.locked === "boolean" ? j.locked : undefined,
    testing:
      typeof j.current_testing_result_id === "number"
        ? { resultId: j.current_testing_result_id, status: num(j.testing_status) ?? -1 }
        : undefined,
    raw: j,
  };
}

/** A list of machines; a non-array body is a payload error. */
export function parseMachines(j: unknown): MaasMachine[] {
  if (!Array.isArray(j)) throw bad("machine list", "expected a JSON array");
  return j.map(parseMachine);
}

/** The `events` of an events query (newest first, as MAAS returns them). */
export function parseEvents(j: unknown): MaasEvent[] {
  const list = isObj(j) ? objs(j.events) : objs(j);
  return list.map((e) => ({
    id: num(e.id) ?? -1,
    node: str(e.node) || undefined,
    hostname: str(e.hostname) || undefined,
    level: str(e.level),
    type: str(e.type),
    description: str(e.description),
    created: str(e.created),
  }));
}

/** Script result sets of `nodes/{id}/results/`. */
export function parseScriptResults(j: unknown): MaasScriptResultSet[] {
  if (!Array.isArray(j)) throw bad("script results", "expected a JSON array");
  return objs(j).map((r) => ({
    id: num(r.id) ?? -1,
    systemId: str(r.system_id),
    type: num(r.type) ?? -1,
    typeName: str(r.type_name),
    statusName: str(r.status_name),
    results: objs(r.results).map((x) => {
      const status = num(x.status) ?? -1;
      return {
        name: str(x.name),
        status,
        statusName: str(x.status_name),
        failed: MAAS_SCRIPT_FAILED_STATUSES.has(status),
        exitStatus: num(x.exit_status) ?? null,
      };
    }),
    raw: r,
  }));
}

/** A tag. */
export function parseTag(j: unknown): MaasTag {
  if (!isObj(j) || !str(j.name)) throw bad("tag", "expected an object with a name");
  return { name: str(j.name), comment: str(j.comment), definition: str(j.definition), kernelOpts: str(j.kernel_opts) };
}

/** A boot resource (list item or detail). */
export function parseBootResource(j: unknown): MaasBootResource {
  if (!isObj(j) || num(j.id) === undefined) throw bad("boot resource", "expected an object with an id");
  const sets = isObj(j.sets) ? Object.values(j.sets).filter(isObj) : undefined;
  return {
    id: num(j.id) as number,
    type: str(j.type),
    name: str(j.name),
    architecture: str(j.architecture),
    subarches: str(j.subarches)
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    complete: sets ? sets.some((s) => s.complete === true) : undefined,
    file: sets ? newestFile(j.sets as Obj) : undefined,
  };
}

/** The first file of the newest set (set keys are versions such as "20261125" or "20261125.1": newest sorts last). */
function newestFile(sets: Obj): MaasBootResourceFile | undefined {
  const keys = Object.keys(sets).sort();
  const set = sets[keys[keys.length - 1]];
  const f = isObj(set) && isObj(set.files) ? Object.values(set.files).find(isObj) : undefined;
  if (!f) return undefined;
  return {
    filename: str(f.filename),
    filetype: str(f.filetype),
    sha256: str(f.sha256).toLowerCase(),
    size: num(f.size) ?? 0,
    complete: f.complete === true,
    progress: num(f.progress),
    uploadUri: str(f.upload_uri) || undefined,
  };
}

/**
 * How many bytes of an incomplete uploaded file MAAS holds, from the progress it reports: MAAS before 3.4 reports
 * LargeFile.progress, total/held (src/maasserver/models/largefile.py); 3.4 and later the percentage held
 * (sync_progress, over every region: exact with one region). `maasVersion` is version/'s "version".
 */
export function bytesHeld(file: MaasBootResourceFile, maasVersion: string): number {
  if (file.complete) return file.size;
  const p = file.progress ?? 0;
  if (!(p > 0) || file.size <= 0) return 0;
  const [major, minor] = maasVersion.split(".").map((x) => Number.parseInt(x, 10));
  const percentage = major > 3 || (major === 3 && minor >= 4);
  const held = percentage ? Math.round((p * file.size) / 100) : Math.round(file.size / p);
  return Math.min(Math.max(held, 0), file.size);
}
