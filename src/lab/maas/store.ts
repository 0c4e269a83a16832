/** In-memory state of the MAAS lab region: machines, scripts and their results, tags, boot resources, events. */
import { type Hash, randomInt } from "node:crypto";
import type { PowerParams } from "./power.js";

/** One network interface of a machine. */
export interface InterfaceRecord {
  id: number;
  name: string;
  macAddress: string;
  type: "physical";
  enabled: boolean;
  /** Vendor and product lshw reports for the NIC (null until commissioned). */
  vendor: string | null;
  product: string | null;
  /** The address the deployed OS got on this interface (MAAS's AUTO link), null unless Deployed. */
  ipAddress: string | null;
}

/** One script run inside a result set. */
export interface ScriptResultRecord {
  id: number;
  name: string;
  scriptId: number | null;
  status: number;
  exitStatus: number | null;
  output: Buffer;
  created: number;
  updated: number;
  started: number | null;
  ended: number | null;
  parameters: Record<string, unknown>;
}

/** A ScriptSet: the scripts one commissioning, testing, installation or release run executed. */
export interface ScriptSetRecord {
  id: number;
  type: number;
  started: number | null;
  ended: number | null;
  lastPing: number | null;
  results: ScriptResultRecord[];
}

/** A machine as the lab keeps it; rendered to MAAS JSON by render.ts. */
export interface MachineRecord {
  id: number;
  systemId: string;
  hostname: string;
  architecture: string;
  description: string;
  status: number;
  /** Status before the current operation; abort/mark_fixed/testing return to it. */
  previousStatus: number;
  statusMessage: string;
  owner: string | null;
  osystem: string;
  distroSeries: string;
  hweKernel: string | null;
  powerType: string;
  powerParams: PowerParams;
  powerState: "on" | "off" | "unknown" | "error";
  cpuCount: number;
  memoryMiB: number;
  /** Physical zone and resource pool (both "default" unless set). */
  zone: NamedRecord;
  pool: NamedRecord;
  /** hardware_info as commissioning found it (system_vendor, cpu_model, …); empty until commissioned. */
  hardwareInfo: Record<string, string>;
  interfaces: InterfaceRecord[];
  tags: string[];
  ownerData: Record<string, string>;
  userData: Buffer | null;
  locked: boolean;
  netboot: boolean;
  scriptSets: ScriptSetRecord[];
  currentCommissioningSetId: number | null;
  currentTestingSetId: number | null;
  currentInstallationSetId: number | null;
  /** Cancels the timer of the operation in flight (commission, deploy, release, erase, test). */
  cancel: (() => void) | null;
}

/** A script known to the region (scripts/). */
export interface ScriptRecord {
  id: number;
  name: string;
  title: string;
  description: string;
  type: 0 | 2;
  hardwareType: number;
  tags: string[];
  timeoutSeconds: number;
  destructive: boolean;
  isDefault: boolean;
  content: Buffer;
  /** Declared parameters (script metadata `parameters:`), e.g. { dcgm_level: { type: "choice", default: "3" } }. */
  parameters?: Record<string, { type: string; default?: string; [key: string]: unknown }>;
}

/** A tag (tags/). */
export interface TagRecord {
  name: string;
  comment: string;
  definition: string;
  kernelOpts: string;
}

/** A file inside a boot resource set. */
export interface BootFileRecord {
  filename: string;
  filetype: string;
  sha256: string;
  size: number;
  complete: boolean;
}

/** A boot resource (boot-resources/): synced Ubuntu images and uploaded custom images. */
export interface BootResourceRecord {
  id: number;
  type: "Synced" | "Uploaded" | "Generated";
  name: string;
  architecture: string;
  title: string;
  subarches: string;
  baseImage: string;
  version: string;
  files: BootFileRecord[];
  /** Bytes of the (single) uploaded file received so far; the bytes themselves are not kept, only their hash. */
  held: number;
  /** sha256 of the bytes received so far (copied to check at the last byte); null when nothing is being uploaded. */
  hasher: Hash | null;
}

/** An event row (events/?op=query). */
export interface EventRecord {
  id: number;
  systemId: string;
  hostname: string;
  username: string;
  level: "DEBUG" | "INFO" | "WARNING" | "ERROR" | "AUDIT";
  type: string;
  description: string;
  created: number;
}

/** A zone or resource pool. */
export interface NamedRecord {
  id: number;
  name: string;
  description: string;
}

/** The whole in-memory region with id counters. */
export class MaasStore {
  readonly machines = new Map<string, MachineRecord>();
  readonly scripts = new Map<string, ScriptRecord>();
  readonly tags = new Map<string, TagRecord>();
  readonly bootResources = new Map<number, BootResourceRecord>();
  readonly events: EventRecord[] = [];
  /** Physical zones (zones/) and resource pools (resourcepools/) by name; MAAS always has "default" of each. */
  readonly zones = new Map<string, NamedRecord>([["default", { id: 1, name: "default", description: "" }]]);
  readonly pools = new Map<string, NamedRecord>([["default", { id: 0, name: "default", description: "Default pool" }]]);
  private counters = new Map<string, number>();

  constructor(private readonly now: () => number) {}

  /** Next id of a kind ("machine", "interface", "scriptset", …), starting at 1. */
  nextId(kind: string): number {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    return n;
  }

  /** A new unique 6-character system id in MAAS's alphabet. */
  newSystemId(): string {
    const alphabet = "abcdefghjkmnpqrstwxy0123456789";
    for (;;) {
      let id = "";
      for (let i = 0; i < 6; i++) id += alphabet[randomInt(alphabet.length)];
      if (!this.machines.has(id)) return id;
    }
  }

  /** Records an event for a machine. */
  event(m: MachineRecord, level: EventRecord["level"], type: string, description = "", username = "unknown"): void {
    this.events.push({
      id: this.nextId("event"),
      systemId: m.systemId,
      hostname: m.hostname,
      username,
      level,
      type,
      description,
      created: this.now(),
    });
  }

  /** Looks a machine up by system id. */
  machine(systemId: string): MachineRecord | undefined {
    return this.machines.get(systemId);
  }
}
