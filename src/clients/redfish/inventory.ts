/**
 * Hardware inventory of one ComputerSystem: MACs, CPUs, memory, GPUs, drives and firmware, read by following
 * links with bounded parallelism. GPUs come from Processors (ProcessorType GPU), from PCIe display/3D/accelerator
 * functions, and — only when those find none — from OEM PCI device links; a GPU seen twice is reported once.
 *
 * Real BMCs publish dead links, so everything but the node's identity degrades per member: a linked resource that
 * answers 404/500 (or is not JSON) is skipped and named in `warnings`. The system itself and its MAC addresses
 * (EthernetInterfaces) stay required: a node whose identity cannot be read fails.
 */
import { HttpStatusError, isClientError, RedfishError } from "../errors.js";
import { mapLimit } from "../http/semaphore.js";
import type { JsonSource } from "./expand.js";
import { finding, memoryFindings, memorySuspect, sortedFindings } from "./health.js";
import {
  interfaceMac,
  isAbsent,
  isGpuFunction,
  isObj,
  lastSegment,
  link,
  linkList,
  members,
  oemLinks,
  parseDrive,
  parseProcessor,
  pcieFunctionRefs,
  pcieGpu,
  simpleStorageDrives,
  str,
} from "./parse.js";
import type { ComponentHealth, CpuInfo, DriveInfo, FirmwareInfo, GpuInfo, Inventory, RedfishJson } from "./types.js";

/** Statuses that mean "not now" rather than "this link is dead": they are retried or reported, never skipped. */
const TRANSIENT = new Set([401, 403, 408, 429, 503]);

/** True for a failure that means a linked resource is dead (404, 500, 501…, or not JSON), not that the BMC is. */
export function isDeadLink(e: unknown): boolean {
  if (e instanceof HttpStatusError) return e.status !== undefined && e.status >= 400 && !TRANSIENT.has(e.status);
  return isClientError(e, "RACKFORM_ERR_HTTP_BAD_BODY") || isClientError(e, "RACKFORM_ERR_REDFISH_BAD_PAYLOAD");
}

/** A short reason for a warning: `HTTP 404`, or the error code. */
export function statusOf(e: unknown): string {
  if (isClientError(e)) return e.status !== undefined ? `HTTP ${e.status}` : e.code;
  return e instanceof Error ? e.message : String(e);
}

type Read = (refs: readonly string[]) => Promise<RedfishJson[]>;
type Collection = (ref: string | undefined) => Promise<RedfishJson[]>;

/** Reads everything the inventory needs below `system`; skipped members are appended to `warnings`. */
export async function collectInventory(
  t: JsonSource,
  system: RedfishJson,
  firmware: readonly FirmwareInfo[],
  parallel: number,
  warnings: string[] = [],
  /** The Manager's FirmwareVersion when the caller already knows it is unchanged (the Manager is then not read). */
  knownBmcFirmware?: string,
): Promise<Inventory> {
  const soft = async (ref: string): Promise<RedfishJson | undefined> => {
    try {
      return await t.getJson(ref);
    } catch (e) {
      if (!isDeadLink(e)) throw e;
      warnings.push(`skipped ${(isClientError(e) && e.url) || ref}: ${statusOf(e)}`);
      return undefined;
    }
  };
  const read: Read = async (refs) =>
    (await mapLimit(refs, parallel, soft)).filter((x): x is RedfishJson => x !== undefined);
  const collection: Collection = async (ref) => {
    const c = ref ? await soft(ref) : undefined;
    return c ? read(members(c)) : [];
  };
  const strict: Collection = async (ref) =>
    ref ? mapLimit(members(await t.getJson(ref)), parallel, (r) => t.getJson(r)) : [];
  const odataId = str(system["@odata.id"]) ?? "";
  const systemId = str(system.Id) ?? lastSegment(odataId);
  if (!systemId)
    throw new RedfishError("RACKFORM_ERR_REDFISH_BAD_PAYLOAD", "the ComputerSystem has neither Id nor @odata.id");

  const skippedBefore = warnings.length;
  const [ifaces, procs, pcie, drives, bmcFirmwareVersion] = await Promise.all([
    interfaces(system, strict, parallel, t),
    collection(link(system, "Processors")),
    pcieDevices(t, system, read, soft),
    systemDrives(system, read, collection, soft),
    knownBmcFirmware ?? managerFirmware(t, system, soft, firmware),
  ]);
  const procSkipped = warnings.slice(skippedBefore).some((w) => w.includes("/Processors"));

  const macs = [...new Set(ifaces.flatMap((i) => interfaceMac(i) ?? []))];
  const cpus: CpuInfo[] = [];
  const procGpus: GpuInfo[] = [];
  const procHealth: ComponentHealth[] = [];
  for (const p of procs) {
    if (isAbsent(p)) continue;
    const parsed = parseProcessor(p);
    if (parsed.cpu) cpus.push(parsed.cpu);
    if (parsed.gpu) procGpus.push(parsed.gpu);
    if (parsed.kind !== "other") procHealth.push(...finding(parsed.kind, p));
  }
  cpus.push(...summaryCpus(system, cpus.length, procSkipped));
  let gpus = dedupeGpus(procGpus, await pcieGpus(pcie, read, soft), await graphicsLinks(system, collection));
  if (gpus.length === 0) gpus = await oemPciGpus(system, read, collection);
  const mem = isObj(system.MemorySummary) ? system.MemorySummary.TotalSystemMemoryGiB : undefined;
  const health = sortedFindings([
    ...procHealth,
    ...pcie.flatMap((d) => (isAbsent(d) ? [] : finding("pcie", d))),
    ...ifaces.flatMap((i) => finding("nic", i)),
    ...(memorySuspect(system) ? memoryFindings(system, await collection(link(system, "Memory"))) : []),
  ]);
  return {
    systemId,
    serial: str(system.SerialNumber),
    model: str(system.Model),
    manufacturer: str(system.Manufacturer),
    macs,
    cpus,
    memoryGiB: typeof mem === "number" && mem > 0 ? mem : await memoryFromModules(system, collection),
    gpus,
    dpuCount: pcie.filter((d) => !isAbsent(d) && isBlueField(d)).length,
    drives,
    firmware,
    biosVersion: str(system.BiosVersion),
    bmcFirmwareVersion,
    health,
    warnings,
  };
}

/**
 * The system's EthernetInterfaces (required: MACs are the node's identity), else those a vendor lists only under
 * `Oem.<Vendor>[.Links].EthernetInterfaces`.
 */
async function interfaces(
  system: RedfishJson,
  strict: Collection,
  parallel: number,
  t: JsonSource,
): Promise<RedfishJson[]> {
  const std = await strict(link(system, "EthernetInterfaces"));
  if (std.some((i) => interfaceMac(i))) return std;
  const oem = oemLinks(system, ["EthernetInterfaces", "NetworkInterfaces"]);
  const refs = [...oem.members];
  for (const c of oem.collections) refs.push(...members(await t.getJson(c)));
  return refs.length ? [...std, ...(await mapLimit(refs, parallel, (r) => t.getJson(r)))] : std;
}

/**
 * CPUs that ProcessorSummary.Count vouches for beyond those read: all of them when Processors has no CPU members
 * (some BMCs publish an empty collection), or the missing ones when a processor link was dead.
 */
function summaryCpus(system: RedfishJson, found: number, skipped: boolean): CpuInfo[] {
  const sum = isObj(system.ProcessorSummary) ? system.ProcessorSummary : undefined;
  const count = typeof sum?.Count === "number" && Number.isInteger(sum.Count) ? sum.Count : 0;
  if (count <= found || (found > 0 && !skipped)) return [];
  return Array.from({ length: count - found }, (_, i) => ({
    id: `ProcessorSummary.${found + i + 1}`,
    model: str(sum?.Model),
  }));
}

/**
 * FirmwareVersion of the manager that manages the system (Links.ManagedBy, else the service's only manager); the
 * version FirmwareInventory lists for that Manager (its RelatedItem) where it does, without reading the Manager.
 */
async function managerFirmware(
  t: JsonSource,
  system: RedfishJson,
  soft: (ref: string) => Promise<RedfishJson | undefined>,
  firmware: readonly FirmwareInfo[],
): Promise<string | undefined> {
  let ref = isObj(system.Links) ? linkList(system.Links.ManagedBy)[0] : undefined;
  // FirmwareInventory lists the BMC's own firmware with the Manager as its RelatedItem: no read of the Manager.
  const trim = (u: string) => u.replace(/\/+$/, "");
  const listed = ref
    ? firmware.find((f) => f.version && f.relatedItems?.some((r) => trim(r) === trim(ref ?? "")))
    : undefined;
  if (listed?.version) return listed.version;
  if (!ref) {
    const col = link(await t.root(), "Managers");
    const all = col ? members((await soft(col)) ?? {}) : [];
    ref = all.length === 1 ? all[0] : undefined;
  }
  const mgr = ref ? await soft(ref) : undefined;
  return mgr ? str(mgr.FirmwareVersion) : undefined;
}

/** Whether a PCIe device is a BlueField DPU (NVIDIA names the card BlueField in Model or Name). */
function isBlueField(d: RedfishJson): boolean {
  return [d.Model, d.Name, d.DeviceName].some((v) => typeof v === "string" && /bluefield/i.test(v));
}

/** PCIe devices of the system: System.PCIeDevices (a link array or a collection), else those of its chassis. */
async function pcieDevices(
  _t: JsonSource,
  system: RedfishJson,
  read: Read,
  soft: (ref: string) => Promise<RedfishJson | undefined>,
) {
  const direct = system.PCIeDevices;
  const col = link(system, "PCIeDevices");
  let refs: string[] = [];
  if (Array.isArray(direct)) refs = linkList(direct);
  else if (col) refs = members((await soft(col)) ?? {});
  if (refs.length === 0) {
    const chassis = isObj(system.Links) ? linkList(system.Links.Chassis) : [];
    for (const c of await read(chassis)) {
      const cc = link(c, "PCIeDevices");
      if (cc) refs.push(...members((await soft(cc)) ?? {}));
    }
  }
  return read([...new Set(refs)]);
}

/** GPUs among PCIe devices: those with a display/3D/accelerator function (or, without functions, such a class). */
async function pcieGpus(devices: RedfishJson[], read: Read, soft: (ref: string) => Promise<RedfishJson | undefined>) {
  const out: { gpu: GpuInfo; processors: string[] }[] = [];
  for (const d of devices) {
    if (isAbsent(d)) continue;
    const { collection, functions } = pcieFunctionRefs(d);
    const refs = functions.length ? functions : collection ? members((await soft(collection)) ?? {}) : [];
    const fns = (await read(refs)).filter(isGpuFunction);
    if (fns.length === 0 && !(refs.length === 0 && isGpuFunction(d))) continue;
    const processors = fns.flatMap((f) => (isObj(f.Links) ? linkList(f.Links.Processors) : []));
    out.push({ gpu: pcieGpu(d), processors });
  }
  return out;
}

/** Processor ↔ PCIeDevice pairs stated by GraphicsControllers. */
async function graphicsLinks(system: RedfishJson, collection: Collection): Promise<Map<string, string>> {
  const pairs = new Map<string, string>();
  const ref = link(system, "GraphicsControllers");
  if (!ref) return pairs;
  for (const g of await collection(ref).catch(() => [])) {
    const links = isObj(g.Links) ? g.Links : {};
    const dev = linkList(links.PCIeDevice)[0];
    if (dev) for (const p of linkList(links.Processors)) pairs.set(p, dev);
  }
  return pairs;
}

/** Processor GPUs, plus PCIe GPUs that no processor GPU already stands for (by link or by serial number). */
function dedupeGpus(
  procs: GpuInfo[],
  pcie: { gpu: GpuInfo; processors: string[] }[],
  gc: Map<string, string>,
): GpuInfo[] {
  const out = procs.map((g) => (g.pcieDevice || !gc.has(g.odataId) ? g : { ...g, pcieDevice: gc.get(g.odataId) }));
  const claimedDevices = new Set(out.flatMap((g) => g.pcieDevice ?? []));
  const procIds = new Set(out.map((g) => g.odataId));
  const serials = new Set(out.flatMap((g) => (g.serial ? [g.serial] : [])));
  for (const { gpu, processors } of pcie) {
    const dup =
      claimedDevices.has(gpu.odataId) ||
      processors.some((p) => procIds.has(p)) ||
      (gpu.serial !== undefined && serials.has(gpu.serial));
    if (!dup) out.push(gpu);
  }
  return out;
}

/** GPUs among the PCI devices a vendor lists only under OEM links (HPE iLO: `Oem.Hpe.Links.PCIDevices`). */
async function oemPciGpus(system: RedfishJson, read: Read, collection: Collection): Promise<GpuInfo[]> {
  const oem = oemLinks(system, ["PCIDevices", "PCIeDevices"]);
  const devices = [...(await read(oem.members))];
  for (const c of oem.collections) devices.push(...(await collection(c)));
  return devices.filter((d) => !isAbsent(d) && isGpuFunction(d)).map(pcieGpu);
}

/** Drives from Storage (Drives links) and SimpleStorage (Devices), de-duplicated by URI. */
async function systemDrives(
  system: RedfishJson,
  read: Read,
  collection: Collection,
  soft: (ref: string) => Promise<RedfishJson | undefined>,
): Promise<DriveInfo[]> {
  const storages = await collection(link(system, "Storage"));
  const driveRefs = new Set<string>();
  for (const s of storages) {
    for (const r of linkList(s.Drives)) driveRefs.add(r);
    const dc = link(s, "Drives");
    if (dc && !Array.isArray(s.Drives)) for (const r of members((await soft(dc)) ?? {})) driveRefs.add(r);
  }
  const drives = (await read([...driveRefs])).filter((d) => !isAbsent(d)).map(parseDrive);
  if (drives.length === 0)
    for (const s of await collection(link(system, "SimpleStorage"))) drives.push(...simpleStorageDrives(s));
  return drives;
}

/** Memory in GiB from the modules when MemorySummary is missing. */
async function memoryFromModules(system: RedfishJson, collection: Collection): Promise<number | undefined> {
  const dimms = await collection(link(system, "Memory"));
  const mib = dimms.reduce(
    (sum, d) => sum + (typeof d.CapacityMiB === "number" && !isAbsent(d) ? d.CapacityMiB : 0),
    0,
  );
  return mib > 0 ? mib / 1024 : undefined;
}
