/**
 * Hardware inventory of one ComputerSystem: MACs, CPUs, memory, GPUs, drives and firmware, read by following
 * links with bounded parallelism. GPUs come from Processors (ProcessorType GPU) and from PCIe display/3D
 * controllers; a GPU seen both ways is reported once.
 */
import { RedfishError } from "../errors.js";
import { mapLimit } from "../http/semaphore.js";
import {
  interfaceMac,
  isAbsent,
  isGpuFunction,
  isObj,
  lastSegment,
  link,
  linkList,
  members,
  parseDrive,
  parseProcessor,
  pcieFunctionRefs,
  pcieGpu,
  simpleStorageDrives,
} from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { CpuInfo, DriveInfo, FirmwareInfo, GpuInfo, Inventory, RedfishJson } from "./types.js";

/** Reads everything the inventory needs below `system`. */
export async function collectInventory(
  t: RedfishTransport,
  system: RedfishJson,
  firmware: readonly FirmwareInfo[],
  parallel: number,
): Promise<Inventory> {
  const read = (refs: readonly string[]): Promise<RedfishJson[]> => mapLimit(refs, parallel, (r) => t.getJson(r));
  const collection = async (ref: string | undefined): Promise<RedfishJson[]> =>
    ref ? read(members(await t.getJson(ref))) : [];
  const odataId = typeof system["@odata.id"] === "string" ? system["@odata.id"] : "";
  const systemId = typeof system.Id === "string" ? system.Id : lastSegment(odataId);
  if (!systemId)
    throw new RedfishError("RACKFORM_ERR_REDFISH_BAD_PAYLOAD", "the ComputerSystem has neither Id nor @odata.id");

  const [ifaces, procs, pcie, drives] = await Promise.all([
    collection(link(system, "EthernetInterfaces")),
    collection(link(system, "Processors")),
    pcieDevices(t, system, read),
    systemDrives(t, system, read, collection),
  ]);

  const macs = [...new Set(ifaces.flatMap((i) => interfaceMac(i) ?? []))];
  const cpus: CpuInfo[] = [];
  const procGpus: GpuInfo[] = [];
  for (const p of procs) {
    if (isAbsent(p)) continue;
    const parsed = parseProcessor(p);
    if (parsed.cpu) cpus.push(parsed.cpu);
    if (parsed.gpu) procGpus.push(parsed.gpu);
  }
  const gpus = dedupeGpus(procGpus, await pcieGpus(t, pcie, read), await graphicsLinks(system, collection));
  const mem = isObj(system.MemorySummary) ? system.MemorySummary.TotalSystemMemoryGiB : undefined;
  return {
    systemId,
    serial: str(system.SerialNumber),
    model: str(system.Model),
    manufacturer: str(system.Manufacturer),
    macs,
    cpus,
    memoryGiB: typeof mem === "number" ? mem : await memoryFromModules(system, collection),
    gpus,
    drives,
    firmware,
  };
}

/** PCIe devices of the system: System.PCIeDevices (a link array or a collection), else those of its chassis. */
async function pcieDevices(
  t: RedfishTransport,
  system: RedfishJson,
  read: (r: readonly string[]) => Promise<RedfishJson[]>,
) {
  const direct = system.PCIeDevices;
  let refs: string[] = [];
  if (Array.isArray(direct)) refs = linkList(direct);
  else if (link(system, "PCIeDevices")) refs = members(await t.getJson(link(system, "PCIeDevices")!));
  if (refs.length === 0) {
    const chassis = isObj(system.Links) ? linkList(system.Links.Chassis) : [];
    for (const c of await read(chassis)) {
      const col = link(c, "PCIeDevices");
      if (col) refs.push(...members(await t.getJson(col)));
    }
  }
  return read([...new Set(refs)]);
}

/** GPUs among PCIe devices: those with a display/3D-controller function. */
async function pcieGpus(
  t: RedfishTransport,
  devices: RedfishJson[],
  read: (r: readonly string[]) => Promise<RedfishJson[]>,
) {
  const out: { gpu: GpuInfo; processors: string[] }[] = [];
  for (const d of devices) {
    if (isAbsent(d)) continue;
    const { collection, functions } = pcieFunctionRefs(d);
    const refs = functions.length ? functions : collection ? members(await t.getJson(collection)) : [];
    const fns = (await read(refs)).filter(isGpuFunction);
    if (fns.length === 0) continue;
    const processors = fns.flatMap((f) => (isObj(f.Links) ? linkList(f.Links.Processors) : []));
    out.push({ gpu: pcieGpu(d), processors });
  }
  return out;
}

/** Processor ↔ PCIeDevice pairs stated by GraphicsControllers. */
async function graphicsLinks(
  system: RedfishJson,
  collection: (ref: string | undefined) => Promise<RedfishJson[]>,
): Promise<Map<string, string>> {
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

/** Drives from Storage (Drives links) and SimpleStorage (Devices), de-duplicated by URI. */
async function systemDrives(
  t: RedfishTransport,
  system: RedfishJson,
  read: (r: readonly string[]) => Promise<RedfishJson[]>,
  collection: (ref: string | undefined) => Promise<RedfishJson[]>,
): Promise<DriveInfo[]> {
  const storages = await collection(link(system, "Storage"));
  const driveRefs = new Set<string>();
  for (const s of storages) {
    for (const r of linkList(s.Drives)) driveRefs.add(r);
    if (link(s, "Drives") && !Array.isArray(s.Drives))
      for (const r of members(await t.getJson(link(s, "Drives")!))) driveRefs.add(r);
  }
  const drives = (await read([...driveRefs])).filter((d) => !isAbsent(d)).map(parseDrive);
  if (drives.length === 0)
    for (const s of await collection(link(system, "SimpleStorage"))) drives.push(...simpleStorageDrives(s));
  return drives;
}

/** Memory in GiB from the modules when MemorySummary is missing. */
async function memoryFromModules(
  system: RedfishJson,
  collection: (ref: string | undefined) => Promise<RedfishJson[]>,
): Promise<number | undefined> {
  const dimms = await collection(link(system, "Memory"));
  const mib = dimms.reduce(
    (sum, d) => sum + (typeof d.CapacityMiB === "number" && !isAbsent(d) ? d.CapacityMiB : 0),
    0,
  );
  return mib > 0 ? mib / 1024 : undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}
