/** How the lab conductor reaches a node's BMC: the seam, and the default that speaks Redfish as Ironic's redfish driver does. */
import { readFileSync } from "node:fs";
import type { Agent } from "node:https";
import { BmcUnreachable, bmcRequest, settledSystem } from "../bmc-http.js";

/** driver_info of a redfish node (the keys Ironic's redfish hardware type reads). */
export interface RedfishDriverInfo {
  redfish_address?: string;
  redfish_system_id?: string;
  redfish_username?: string;
  redfish_password?: string;
  redfish_verify_ca?: boolean | string;
  [key: string]: unknown;
}

/**
 * What the redfish inspect interface learns: properties as Ironic stores them, MACs of enabled NICs, and the inventory
 * it stores for GET /v1/nodes/{ident}/inventory (memory, cpu, disks, interfaces, system_vendor, boot).
 */
export interface InspectedHardware {
  properties: { cpus: number; cpu_arch?: string; memory_mb: string; local_gb: string; capabilities?: string };
  macs: string[];
  inventory: Record<string, unknown>;
}

/** What verification (manage) learns: power state, vendor, boot mode. */
export interface VerifiedBmc {
  powerState: "power on" | "power off";
  vendor: string | null;
  bootMode: "uefi" | "bios" | null;
}

/** A BMC client; methods throw an Error whose message Ironic would put in last_error. */
export interface BmcDriver {
  verify(info: RedfishDriverInfo): Promise<VerifiedBmc>;
  getPowerState(info: RedfishDriverInfo): Promise<"power on" | "power off">;
  setPower(info: RedfishDriverInfo, target: string): Promise<void>;
  setBootDevice(info: RedfishDriverInfo, device: "pxe" | "cd" | "hdd"): Promise<void>;
  inspect(info: RedfishDriverInfo): Promise<InspectedHardware>;
}

/** Options of redfishBmc. */
export interface RedfishBmcOptions {
  /** PEM CA bundle trusted when redfish_verify_ca is true or absent (the conductor's trust store). @default Node's store */
  readonly caPem?: string;
  /** Per-request timeout. @default 10000 */
  readonly timeoutMs?: number;
  /** HTTPS connection pool (destroy it to drop kept-alive BMC connections at shutdown). @default Node's global agent */
  readonly agent?: Agent;
}

type Json = Record<string, unknown>;

const CPU_ARCH: Readonly<Record<string, string>> = {
  x86: "x86_64",
  "IA-64": "ia64",
  ARM: "arm",
  MIPS: "mips",
  OEM: "oem",
};
const GiB = 1024 ** 3;
// sushy's InstructionSet values as Ironic's redfish inspect maps them (PROCESSOR_INSTRUCTION_SET_MAP).
const INSTRUCTION_SET: Readonly<Record<string, string>> = {
  x86: "x86",
  "x86-64": "x86_64",
  "IA-64": "ia64",
  "ARM-A32": "arm",
  "ARM-A64": "aarch64",
  MIPS32: "mips",
  MIPS64: "mips64",
};

/** A BmcDriver over HTTP(S) with basic auth, following the same Redfish paths sushy does for Ironic. */
export function redfishBmc(opts: RedfishBmcOptions = {}): BmcDriver {
  const bmc = new RedfishClient(opts);
  return {
    async verify(info) {
      const path = await bmc.systemPath(info);
      const sys = await bmc.get(info, path);
      const mode = String((sys.Boot as Json | undefined)?.BootSourceOverrideMode ?? "");
      const bootMode = mode === "UEFI" ? "uefi" : mode === "Legacy" ? "bios" : null;
      return { powerState: powerOf(sys), vendor: (sys.Manufacturer as string | undefined) ?? null, bootMode };
    },
    async getPowerState(info) {
      return powerOf(await bmc.get(info, await bmc.systemPath(info)));
    },
    async setPower(info, target) {
      const path = await bmc.systemPath(info);
      const sys = await bmc.settled(info, path);
      const on = powerOf(sys) === "power on";
      const type: Record<string, string> = {
        "power on": on ? "" : "On",
        "power off": on ? "ForceOff" : "",
        "soft power off": on ? "GracefulShutdown" : "",
        rebooting: on ? "ForceRestart" : "On",
        "soft rebooting": on ? "GracefulRestart" : "On",
      };
      if (type[target]) await bmc.reset(info, path, sys, type[target]);
      // Ironic waits for the new power state (power_state_change_timeout) before the conductor moves on.
      await bmc.settled(info, path);
    },
    async setBootDevice(info, device) {
      const path = await bmc.systemPath(info);
      const target = { pxe: "Pxe", cd: "Cd", hdd: "Hdd" }[device];
      const r = await bmc.call(info, "PATCH", path, {
        Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideTarget: target },
      });
      if (r.status >= 400) throw new Error(`Redfish boot device ${target} of ${path} failed with HTTP ${r.status}`);
    },
    inspect: (info) => inspectSystem(bmc, info),
  };
}

/** The Redfish requests the driver makes to the BMC a node's driver_info names, with Ironic's error messages. */
class RedfishClient {
  private readonly opts: RedfishBmcOptions;
  private readonly timeoutMs: number;

  constructor(opts: RedfishBmcOptions) {
    this.opts = opts;
    this.timeoutMs = opts.timeoutMs ?? 10_000;
  }

  /** The TLS trust redfish_verify_ca asks for: none, a CA bundle file, or the conductor's trust store. */
  private tlsOptions(info: RedfishDriverInfo): { ca?: string; rejectUnauthorized: boolean } {
    const v = info.redfish_verify_ca;
    if (v === false || (typeof v === "string" && /^(false|no|0|off)$/i.test(v))) return { rejectUnauthorized: false };
    if (typeof v === "string" && !/^(true|yes|1|on)$/i.test(v))
      return { ca: readFileSync(v, "utf8"), rejectUnauthorized: true };
    return { ca: this.opts.caPem, rejectUnauthorized: true };
  }

  /** One request to the BMC; an unreachable BMC becomes Ironic's connection error. */
  async call(
    info: RedfishDriverInfo,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: Json }> {
    const target = {
      address: String(info.redfish_address ?? ""),
      username: String(info.redfish_username ?? ""),
      password: String(info.redfish_password ?? ""),
      ...this.tlsOptions(info),
      agent: this.opts.agent,
      timeoutMs: this.timeoutMs,
    };
    try {
      const r = await bmcRequest(target, method, path, body);
      return { status: r.status, json: r.json ?? {} };
    } catch (e) {
      if (!(e instanceof BmcUnreachable)) throw e;
      throw new Error(`Unable to connect to ${e.url.origin}. Error: ${e.message}`);
    }
  }

  /** A GET whose error status throws. */
  async get(info: RedfishDriverInfo, path: string): Promise<Json> {
    const r = await this.call(info, "GET", path);
    if (r.status === 401) throw new Error(`HTTP GET ${path} returned code 401. Base.1.0.GeneralError: access denied`);
    if (r.status >= 400) throw new Error(`HTTP GET ${path} returned code ${r.status}.`);
    return r.json;
  }

  /** Every member of a collection the resource links to (none when it links none). */
  async members(info: RedfishDriverInfo, collection: unknown): Promise<Json[]> {
    const path = (collection as Json | undefined)?.["@odata.id"];
    if (typeof path !== "string") return [];
    const c = await this.get(info, path);
    const list = (c.Members as Json[] | undefined) ?? [];
    return Promise.all(list.map((m) => this.get(info, String(m["@odata.id"]))));
  }

  /** The node's system: redfish_system_id, else the BMC's only system. */
  async systemPath(info: RedfishDriverInfo): Promise<string> {
    if (!info.redfish_address)
      throw new Error("Missing the following Redfish properties in node's driver_info: redfish_address");
    if (info.redfish_system_id) return String(info.redfish_system_id);
    const list = (await this.get(info, "/redfish/v1/Systems")).Members as Json[] | undefined;
    if (list?.length !== 1)
      throw new Error("Redfish system id must be given when the BMC manages more than one system");
    return String(list[0]["@odata.id"]);
  }

  /** The system once its power state settles: Ironic waits before acting (no resets while PoweringOn/Off). */
  async settled(info: RedfishDriverInfo, path: string): Promise<Json> {
    return (await settledSystem(() => this.get(info, path), this.timeoutMs)) ?? {};
  }

  /** Posts a ComputerSystem.Reset of the given type to the system's reset action. */
  async reset(info: RedfishDriverInfo, path: string, sys: Json, type: string): Promise<void> {
    const actions = sys.Actions as Record<string, { target?: string }> | undefined;
    const target = actions?.["#ComputerSystem.Reset"]?.target ?? `${path}/Actions/ComputerSystem.Reset`;
    const r = await this.call(info, "POST", target, { ResetType: type });
    if (r.status >= 400) throw new Error(`Redfish reset ${type} of ${path} failed with HTTP ${r.status}`);
  }
}

/** The power state Ironic reports for a system's PowerState. */
function powerOf(sys: Json): "power on" | "power off" {
  return ["On", "PoweringOff"].includes(String(sys.PowerState)) ? "power on" : "power off";
}

/** Redfish inspection: the system's processors, memory, drives and NICs, as Ironic's redfish inspect reads them. */
async function inspectSystem(bmc: RedfishClient, info: RedfishDriverInfo): Promise<InspectedHardware> {
  const path = await bmc.systemPath(info);
  const sys = await bmc.get(info, path);
  const processors = await bmc.members(info, sys.Processors);
  const { cpus, arch } = processorSummary(processors);
  const memGiB = Number((sys.MemorySummary as Json | undefined)?.TotalSystemMemoryGiB ?? 0);
  const { sizes, disks } = await drivesOf(bmc, info, sys);
  // The smallest disk of at least 4 GiB, in GiB, minus one (Ironic leaves room for partitioning).
  const disk = sizes.sort((a, b) => a - b).find((s) => s >= 4 * GiB) ?? 0;
  const localGb = Math.max(0, Math.floor(disk / GiB - 1));
  const { macs, allMacs } = await nicMacs(bmc, info, sys);
  const mode = String((sys.Boot as Json | undefined)?.BootSourceOverrideMode ?? "");
  const bootMode = mode === "UEFI" ? "uefi" : mode ? "bios" : undefined;
  return {
    properties: {
      ...(memGiB ? { memory_mb: String(memGiB * 1024) } : { memory_mb: "0" }),
      cpus,
      ...(arch && CPU_ARCH[arch] ? { cpu_arch: CPU_ARCH[arch] } : {}),
      local_gb: String(localGb),
      ...(bootMode ? { capabilities: `boot_mode:${bootMode}` } : {}),
    },
    macs,
    inventory: inventoryOf(sys, memGiB, cpus, processors[0], disks, allMacs, bootMode),
  };
}

/** CPU threads and architecture as sushy counts them: all Processors' TotalThreads (GPUs have none), the first arch. */
function processorSummary(processors: readonly Json[]): { cpus: number; arch: string | undefined } {
  let cpus = 0;
  let arch: string | undefined;
  for (const p of processors) {
    if (typeof p.TotalThreads === "number") cpus += p.TotalThreads;
    if (arch === undefined && typeof p.ProcessorArchitecture === "string") arch = p.ProcessorArchitecture;
  }
  return { cpus, arch };
}

/** The system's drives, read one by one: their capacities and the inventory's disk entries. */
async function drivesOf(
  bmc: RedfishClient,
  info: RedfishDriverInfo,
  sys: Json,
): Promise<{ sizes: number[]; disks: Json[] }> {
  const sizes: number[] = [];
  const disks: Json[] = [];
  for (const st of await bmc.members(info, sys.Storage)) {
    for (const d of (st.Drives as Json[] | undefined) ?? []) {
      const drive = await bmc.get(info, String(d["@odata.id"]));
      if (typeof drive.CapacityBytes === "number") sizes.push(drive.CapacityBytes);
      disks.push({ name: drive.Name ?? null, size: drive.CapacityBytes ?? null });
    }
  }
  return { sizes, disks };
}

/** The system's NIC MACs: every one (for the inventory), and the healthy enabled ones in lower case (for ports). */
async function nicMacs(
  bmc: RedfishClient,
  info: RedfishDriverInfo,
  sys: Json,
): Promise<{ macs: string[]; allMacs: string[] }> {
  const macs: string[] = [];
  const allMacs: string[] = [];
  for (const nic of await bmc.members(info, sys.EthernetInterfaces)) {
    const status = nic.Status as Json | undefined;
    if (typeof nic.MACAddress !== "string") continue;
    allMacs.push(nic.MACAddress);
    if (status?.Health === "OK" && status?.State === "Enabled") macs.push(nic.MACAddress.toLowerCase());
  }
  return { macs, allMacs };
}

// The inventory Ironic's redfish inspect stores (ironic/drivers/modules/redfish/inspect.py, 2023.2+), key by key.
function inventoryOf(
  sys: Json,
  memGiB: number,
  cpus: number,
  first: Json | undefined,
  disks: Json[],
  macs: string[],
  bootMode: string | undefined,
): Json {
  const inv: Json = {};
  if (memGiB) inv.memory = { physical_mb: memGiB * 1024 };
  const cpu: Json = {};
  if (cpus) cpu.count = cpus;
  if (typeof first?.Model === "string") cpu.model_name = first.Model;
  if (typeof first?.MaxSpeedMHz === "number") cpu.frequency = first.MaxSpeedMHz;
  if (typeof first?.InstructionSet === "string" && INSTRUCTION_SET[first.InstructionSet])
    cpu.architecture = INSTRUCTION_SET[first.InstructionSet];
  inv.cpu = cpu;
  if (disks.length > 0) inv.disks = disks;
  if (macs.length > 0) inv.interfaces = macs.map((mac_address) => ({ mac_address }));
  const vendor: Json = {};
  if (sys.Name) vendor.product_name = String(sys.Name);
  if (sys.SerialNumber) vendor.serial_number = String(sys.SerialNumber);
  if (sys.Manufacturer) vendor.manufacturer = String(sys.Manufacturer);
  if (Object.keys(vendor).length > 0) inv.system_vendor = vendor;
  if (bootMode) inv.boot = { current_boot_mode: bootMode };
  return inv;
}
