/**
 * Pure parsers from Redfish payloads to the client's types. They tolerate the variations of real BMCs
 * (links as arrays or collections, single-object ExtendedInfo, missing optional properties) and never throw
 * on absent optional data.
 */
import type {
  BootState,
  CpuInfo,
  DriveInfo,
  FirmwareInfo,
  GpuInfo,
  OutletState,
  PduInfo,
  RedfishJson,
  SystemState,
  TaskSnapshot,
} from "./types.js";

/** The @odata.id of a navigation property `obj[key]`, if it is a link. */
export function link(obj: RedfishJson | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return isObj(v) && typeof v["@odata.id"] === "string" ? v["@odata.id"] : undefined;
}

/** The @odata.ids of a value that is a link array (or a single link). */
export function linkList(v: unknown): string[] {
  const items = Array.isArray(v) ? v : isObj(v) ? [v] : [];
  return items.flatMap((i) => (isObj(i) && typeof i["@odata.id"] === "string" ? [i["@odata.id"]] : []));
}

/** Member URIs of a resource collection. */
export function members(collection: RedfishJson): string[] {
  return linkList(collection.Members);
}

/** The last path segment of a URI: per the Redfish spec, a member's Id. */
export function lastSegment(uri: string): string {
  const parts = uri.replace(/\/+$/, "").split("/");
  return decodeURIComponent(parts[parts.length - 1] ?? "");
}

/** Power, boot and reset facts of a ComputerSystem. */
export function parseSystem(json: RedfishJson, etag?: string): SystemState {
  const boot = isObj(json.Boot) ? json.Boot : {};
  const actions = isObj(json.Actions) ? json.Actions : {};
  const reset = isObj(actions["#ComputerSystem.Reset"]) ? actions["#ComputerSystem.Reset"] : undefined;
  const odataId = str(json["@odata.id"]) ?? "";
  const b: BootState = {
    target: str(boot.BootSourceOverrideTarget),
    enabled: str(boot.BootSourceOverrideEnabled),
    mode: str(boot.BootSourceOverrideMode),
    allowedTargets: strList(boot["BootSourceOverrideTarget@Redfish.AllowableValues"]),
  };
  return {
    id: str(json.Id) ?? lastSegment(odataId),
    odataId,
    name: str(json.Name),
    powerState: str(json.PowerState),
    boot: b,
    resetTarget: str(reset?.target),
    resetTypes: strList(reset?.["ResetType@Redfish.AllowableValues"]),
    resetActionInfo: str(reset?.["@Redfish.ActionInfo"]),
    etag: etag ?? str(json["@odata.etag"]),
    uuid: str(json.UUID)?.toLowerCase(),
    serial: str(json.SerialNumber),
    lastResetTime: str(json.LastResetTime),
    secureBootUri: link(json, "SecureBoot"),
  };
}

/** Allowed values of parameter `name` in an ActionInfo resource. */
export function actionInfoAllowed(json: RedfishJson, name: string): string[] | undefined {
  const params = Array.isArray(json.Parameters) ? json.Parameters : [];
  const p = params.find((x) => isObj(x) && x.Name === name);
  return isObj(p) ? strList(p.AllowableValues) : undefined;
}

/** A MAC in upper-case colon form; undefined for empty, malformed or all-zero addresses. */
export function normalizeMac(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  const hex = v.replace(/[:\-.\s]/g, "").toUpperCase();
  if (!/^[0-9A-F]{12}$/.test(hex) || /^0+$/.test(hex)) return undefined;
  return hex.match(/../g)!.join(":");
}

/** The MAC of an EthernetInterface: the current MACAddress, else the PermanentMACAddress. */
export function interfaceMac(json: RedfishJson): string | undefined {
  return normalizeMac(json.MACAddress) ?? normalizeMac(json.PermanentMACAddress);
}

/** True when a resource's Status.State says the part is not there. */
export function isAbsent(json: RedfishJson): boolean {
  return isObj(json.Status) && json.Status.State === "Absent";
}

/** A Processor classified as CPU, GPU or other (FPGA, DSP, accelerator…). */
export function parseProcessor(json: RedfishJson): { kind: "cpu" | "gpu" | "other"; cpu?: CpuInfo; gpu?: GpuInfo } {
  const odataId = str(json["@odata.id"]) ?? "";
  const id = str(json.Id) ?? lastSegment(odataId);
  const type = str(json.ProcessorType);
  if (type === "GPU") {
    const links = isObj(json.Links) ? json.Links : {};
    const gpu: GpuInfo = {
      id,
      odataId,
      model: str(json.Model),
      manufacturer: str(json.Manufacturer),
      serial: str(json.SerialNumber),
      source: "processor",
      pcieDevice: linkList(links.PCIeDevice)[0],
    };
    return { kind: "gpu", gpu };
  }
  if (type === undefined || type === "CPU") {
    return {
      kind: "cpu",
      cpu: { id, model: str(json.Model), manufacturer: str(json.Manufacturer), cores: num(json.TotalCores) },
    };
  }
  return { kind: "other" };
}

/** PCI vendor ids of BMC-integrated VGA (ASPEED, Matrox, Nuvoton): display controllers that are not GPUs. */
const BMC_VGA_VENDORS: ReadonlySet<number> = new Set([0x1a03, 0x102b, 0x1050]);

/** PCI base classes of GPUs: 0x03 display controller (VGA, 3D), 0x12 processing accelerator. */
const GPU_CLASSES: ReadonlySet<number> = new Set([0x03, 0x12]);

/** A PCI id given as a number or as a hex string ("0x10de", "10DE"). */
function pciNumber(v: unknown): number | undefined {
  if (typeof v === "number" && Number.isInteger(v) && v >= 0) return v;
  const t = str(v);
  if (t === undefined || !/^(0x)?[0-9a-f]+$/i.test(t)) return undefined;
  return Number.parseInt(t.replace(/^0x/i, ""), 16);
}

/**
 * The PCI base class of a function or device: DeviceClass names it; ClassCode may be the full 24-bit
 * 0xCCSSPP (standard), 16-bit 0xCCSS, or the bare base class (HPE's OEM PCIDevices give `ClassCode: 3`).
 */
export function pciBaseClass(json: RedfishJson): number | undefined {
  const dc = str(json.DeviceClass);
  if (dc === "DisplayController") return 0x03;
  if (dc === "ProcessingAccelerators") return 0x12;
  if (dc !== undefined) return -1;
  const cc = pciNumber(json.ClassCode);
  if (cc === undefined) return undefined;
  const t = str(json.ClassCode);
  const digits = t ? t.replace(/^0x/i, "").length : undefined;
  if (digits !== undefined) return digits > 4 ? cc >> 16 : digits > 2 ? cc >> 8 : cc;
  return cc > 0xffff ? cc >> 16 : cc > 0xff ? cc >> 8 : cc;
}

/**
 * True when a PCIe function (or an OEM PCI device) is a display/3D controller or a processing accelerator (PCI base
 * class 0x03 or 0x12) that is not a BMC's own VGA.
 */
export function isGpuFunction(json: RedfishJson): boolean {
  const vendor = pciNumber(json.VendorId ?? json.VendorID);
  if (vendor !== undefined && BMC_VGA_VENDORS.has(vendor)) return false;
  const cls = pciBaseClass(json);
  return cls !== undefined && GPU_CLASSES.has(cls);
}

/**
 * Links a vendor publishes under `Oem.<Vendor>` or `Oem.<Vendor>.Links` with one of `names` (e.g. HPE iLO's
 * `Oem.Hpe.Links.PCIDevices`): each is a collection link or an array of member links.
 */
export function oemLinks(json: RedfishJson, names: readonly string[]): { collections: string[]; members: string[] } {
  const out = { collections: [] as string[], members: [] as string[] };
  const oem = isObj(json.Oem) ? json.Oem : {};
  for (const vendor of Object.values(oem)) {
    if (!isObj(vendor)) continue;
    for (const holder of [vendor, isObj(vendor.Links) ? vendor.Links : {}]) {
      for (const name of names) {
        const v = holder[name];
        if (Array.isArray(v)) out.members.push(...linkList(v));
        else if (link(holder, name)) out.collections.push(link(holder, name)!);
      }
    }
  }
  return out;
}

/** A GPU found on a PCIe device (or an OEM PCI device: HPE names it DeviceName). */
export function pcieGpu(device: RedfishJson): GpuInfo {
  const odataId = str(device["@odata.id"]) ?? "";
  return {
    id: str(device.Id) ?? lastSegment(odataId),
    odataId,
    model: str(device.Model) ?? str(device.DeviceName) ?? str(device.Name),
    manufacturer: str(device.Manufacturer),
    serial: str(device.SerialNumber),
    source: "pcie",
    pcieDevice: odataId,
  };
}

/** PCIeFunction URIs of a PCIeDevice: the PCIeFunctions collection link or the deprecated Links.PCIeFunctions. */
export function pcieFunctionRefs(device: RedfishJson): { collection?: string; functions: string[] } {
  const links = isObj(device.Links) ? device.Links : {};
  return { collection: link(device, "PCIeFunctions"), functions: linkList(links.PCIeFunctions) };
}

/** A Drive resource. */
export function parseDrive(json: RedfishJson): DriveInfo {
  const odataId = str(json["@odata.id"]) ?? "";
  return {
    id: str(json.Id) ?? lastSegment(odataId),
    name: str(json.Name),
    model: str(json.Model),
    serial: str(json.SerialNumber),
    capacityBytes: num(json.CapacityBytes),
    mediaType: str(json.MediaType),
    protocol: str(json.Protocol),
  };
}

/** The present devices of a SimpleStorage resource as drives (they have no Id; the name stands in). */
export function simpleStorageDrives(json: RedfishJson): DriveInfo[] {
  const base = str(json.Id) ?? lastSegment(str(json["@odata.id"]) ?? "");
  const devices = Array.isArray(json.Devices) ? json.Devices : [];
  return devices.flatMap((d, i) => {
    if (!isObj(d) || isAbsent(d)) return [];
    const name = str(d.Name);
    return [{ id: `${base}/${name ?? i}`, name, model: str(d.Model), capacityBytes: num(d.CapacityBytes) }];
  });
}

/** A SoftwareInventory entry. */
export function parseFirmware(json: RedfishJson): FirmwareInfo {
  const odataId = str(json["@odata.id"]) ?? "";
  const related = linkList(json.RelatedItem);
  return {
    id: str(json.Id) ?? lastSegment(odataId),
    name: str(json.Name),
    version: str(json.Version),
    ...(odataId ? { odataId } : {}),
    ...(related.length > 0 ? { relatedItems: related } : {}),
  };
}

/**
 * Task states after which a task will not change any more: DSP8010 Task.TaskState's Completed, Exception, Killed
 * (deprecated) and Cancelled, plus the vendor value Failed. Suspended, Interrupted, Pending, Service and Cancelling
 * may still move on and are waited through.
 */
export const TERMINAL_TASK_STATES: ReadonlySet<string> = new Set([
  "Completed",
  "Exception",
  "Killed",
  "Cancelled",
  "Failed",
]);

/** True when a TaskState (any case) is terminal. */
export function isTerminalTaskState(state: string | undefined): boolean {
  if (state === undefined) return false;
  const s = state.toLowerCase();
  return [...TERMINAL_TASK_STATES].some((t) => t.toLowerCase() === s);
}

/** A Task (or a task monitor's Task body). */
export function parseTask(json: RedfishJson, uri: string): TaskSnapshot {
  const msgs = Array.isArray(json.Messages) ? json.Messages : [];
  return {
    uri: str(json["@odata.id"]) ?? uri,
    state: str(json.TaskState),
    status: str(json.TaskStatus),
    percentComplete: num(json.PercentComplete),
    messages: msgs.flatMap((m) =>
      isObj(m) && typeof m.Message === "string" ? [fillArgs(m.Message, m.MessageArgs)] : [],
    ),
  };
}

/** A PowerDistribution (rack PDU). */
export function parsePdu(json: RedfishJson): PduInfo {
  const odataId = str(json["@odata.id"]) ?? "";
  return {
    id: str(json.Id) ?? lastSegment(odataId),
    odataId,
    name: str(json.Name),
    manufacturer: str(json.Manufacturer),
    model: str(json.Model),
    serial: str(json.SerialNumber),
    firmwareVersion: str(json.FirmwareVersion),
  };
}

/** An Outlet, with the target of #Outlet.PowerControl when it can be switched. */
export function parseOutlet(json: RedfishJson): OutletState {
  const odataId = str(json["@odata.id"]) ?? "";
  const actions = isObj(json.Actions) ? json.Actions : {};
  const ctl = isObj(actions["#Outlet.PowerControl"]) ? actions["#Outlet.PowerControl"] : undefined;
  return {
    id: str(json.Id) ?? lastSegment(odataId),
    odataId,
    name: str(json.Name),
    powerState: str(json.PowerState),
    powerEnabled: typeof json.PowerEnabled === "boolean" ? json.PowerEnabled : undefined,
    controlTarget: str(ctl?.target),
  };
}

/** Fills %1, %2… placeholders of a registry message with its MessageArgs. */
function fillArgs(message: string, args: unknown): string {
  if (!Array.isArray(args)) return message;
  return message.replace(/%(\d+)/g, (m, n: string) => {
    const v = args[Number(n) - 1];
    return v === undefined ? m : String(v);
  });
}

/** True for a plain JSON object. */
export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A string property; blank strings (BMCs fill unset serials with spaces) count as absent. */
export function str(v: unknown): string | undefined {
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

/** A list of strings, blanks dropped; undefined when the value is not an array or lists nothing. */
function strList(v: unknown): string[] | undefined {
  const out = Array.isArray(v) ? v.flatMap((x) => str(x) ?? []) : [];
  return out.length > 0 ? out : undefined;
}
