/**
 * The BMC's system event log of each node and what writes to it: a health fault logs its entry when injected (and
 * again at each power-on it survives, as POST and the GPU driver find the condition again); cures remove health faults
 * when the host power-cycles or the node is deployed again (world/health-faults.ts). An OS hang is a health fault the
 * BMC does not see: it logs nothing and changes nothing the BMC serves (only the schedulers notice, glue/joins.ts).
 */
import type { Fault } from "./faults.js";
import { bmcSees, type Cure, cureOf, isHealthFault, XID_CRITICAL, XID_FALLEN_OFF_BUS } from "./health-faults.js";
import {
  FAMILY_OF,
  formatMessage,
  HEALTH_MESSAGES,
  type HealthEvent,
  type MessageContext,
  xidText,
} from "./health-messages.js";
import type { LabNode, World } from "./model.js";

/** One log entry. */
export interface LogRecord {
  /** 1, 2, … per node, never reused (also not after ClearLog). */
  readonly id: number;
  /** Simulated ms. */
  readonly created: number;
  readonly severity: "OK" | "Warning" | "Critical";
  readonly messageId: string;
  readonly message: string;
  readonly args: readonly string[];
  readonly entryType: "SEL" | "Event";
  readonly sensorType?: string;
  /** Path of the component it is about. */
  readonly origin: string;
}

/** Entries a node's log keeps; older ones are overwritten (OverWritePolicy WrapsWhenFull). */
export const LOG_CAPACITY = 1024;

/** The event logs of every node. */
export class EventLogs {
  private readonly logs = new Map<string, { next: number; entries: LogRecord[] }>();

  /** A node's entries, oldest first. */
  entries(node: string): readonly LogRecord[] {
    return this.logs.get(node)?.entries ?? [];
  }
  /** Appends an entry; returns it. */
  append(node: string, rec: Omit<LogRecord, "id">): LogRecord {
    let log = this.logs.get(node);
    if (!log) {
      log = { next: 1, entries: [] };
      this.logs.set(node, log);
    }
    const entry = { ...rec, id: log.next++ };
    log.entries.push(entry);
    if (log.entries.length > LOG_CAPACITY) log.entries.shift();
    return entry;
  }
  /** LogService.ClearLog: the entries go, the numbering goes on. */
  clear(node: string): void {
    const log = this.logs.get(node);
    if (log) log.entries = [];
  }
}

/** PCIe device ids in the order of the PCIeDevices collection (GPUs, then NICs), for a fault's `device` index. */
export function pcieDeviceIds(node: LabNode): string[] {
  return [...node.gpus.map((g) => g.id), ...node.spec.hardware.nics.map((_, i) => `NIC${i + 1}`)];
}

/** The PCIe device a pcie-degraded fault names. */
export function faultDevice(node: LabNode, f: { readonly device?: string | number }): string {
  return typeof f.device === "string" ? f.device : (pcieDeviceIds(node)[f.device ?? 0] ?? "NIC1");
}

function eventOf(f: Fault): HealthEvent | undefined {
  switch (f.kind) {
    case "gpu-xid":
      if (f.xid === XID_FALLEN_OFF_BUS) return "xid-fallen-off-bus";
      if (f.xid === 48) return "xid-dbe";
      return XID_CRITICAL.has(f.xid ?? 0) ? "xid-row-remap" : "xid-other";
    case "memory-ecc":
      return "memory-ue";
    case "pcie-degraded":
      return "pcie-degraded";
    case "nvlink-down":
      return "nvlink-down";
    case "thermal":
      return "thermal";
    default:
      return undefined; // an os-hang: the BMC has nothing to log
  }
}

/** What the entry is about: its component's path. */
function originOf(node: LabNode, f: Fault): string {
  const sys = `/redfish/v1/Systems/${node.systemId}`;
  const ch = `/redfish/v1/Chassis/${node.chassisId}`;
  if (f.kind === "memory-ecc") return `${sys}/Memory/DIMM${f.dimm ?? 0}`;
  if (f.kind === "pcie-degraded") return `${ch}/PCIeDevices/${faultDevice(node, f)}`;
  if (f.kind === "thermal") return `${ch}/Thermal`;
  return `${sys}/Processors/${node.gpus[f.gpu ?? 0]?.id ?? node.ids.gpu(f.gpu ?? 0)}`;
}

function contextOf(node: LabNode, f: Fault): MessageContext {
  const gpu = node.gpus[f.gpu ?? 0]?.id ?? node.ids.gpu(f.gpu ?? 0);
  const device = faultDevice(node, f);
  const xid = f.kind === "nvlink-down" ? 74 : (f.xid ?? 0);
  const desc = f.kind === "pcie-degraded" ? `PCIe link degraded to x${DEGRADED_LANES}` : xidText(xid);
  return {
    gpu,
    xid: String(xid),
    xidText: desc,
    dimm: `DIMM${f.dimm ?? 0}`,
    device,
    lanes: String(DEGRADED_LANES),
    maxLanes: "16",
    sensor: "Inlet Temp",
    reading: String(THERMAL_READING_C),
    threshold: String(THERMAL_CRITICAL_C),
    bus: String(0x18 + pcieDeviceIds(node).indexOf(device) * 0x10),
    zero: "0",
  };
}

/** Lanes a degraded link trains at. */
export const DEGRADED_LANES = 8;
/** The inlet reading during a thermal trip, and its upper critical threshold. */
export const THERMAL_READING_C = 47;
export const THERMAL_CRITICAL_C = 42;

/** Logs a health fault in the node's BMC log as its vendor words it. */
export function logFault(logs: EventLogs, node: LabNode, f: Fault, now: number): void {
  const event = eventOf(f);
  if (!event) return;
  const family = FAMILY_OF[node.spec.vendor];
  const row = HEALTH_MESSAGES[family][event];
  const { message, args } = formatMessage(row, contextOf(node, f));
  // A log-only XID (13, 31, 43, …) is a warning where the vendor's own row does not say otherwise.
  const severity = event === "xid-other" && family !== "hgx" ? "Warning" : row.severity;
  const sel = family === "idrac" || family === "ipmi-sel";
  logs.append(node.spec.name, {
    created: now,
    severity,
    messageId: row.messageId,
    message,
    args,
    entryType: sel ? "SEL" : "Event",
    ...(sel && row.sensorType ? { sensorType: row.sensorType } : {}),
    origin: originOf(node, f),
  });
}

/** The health faults of a node that `how` clears. */
export function curedBy(node: string, how: Cure): (f: Fault) => boolean {
  return (f) => isHealthFault(f) && f.node === node && cureOf(f) === how;
}

/**
 * A health fault logged in its node's BMC log; the node's ComputerSystem changes with it (its ETag too). An OS hang
 * only gets its time: the BMC neither logs it nor serves anything new.
 */
function logHealth(world: World, f: Fault): void {
  const node = f.node === undefined ? undefined : world.nodes.get(f.node);
  if (!node || !isHealthFault(f)) return;
  f.at ??= world.now();
  if (!bmcSees(f)) return;
  node.generation++;
  logFault(world.logs, node, f, world.now());
}

/**
 * Logs each health fault as it is injected. A fault removed (a cure, or through the control API) may change what the
 * ComputerSystem of its node shows (Status, GPUs, versions), so that node's ETag changes — every node's for a fault
 * scoped to none; not for an OS hang, which the BMC never showed.
 */
export function wireHealth(world: World): void {
  world.faults.onAdded((f) => logHealth(world, f));
  world.faults.onRemoved((removed) => {
    for (const f of removed) {
      if (isHealthFault(f) && !bmcSees(f)) continue;
      const scoped = f.node === undefined ? undefined : world.nodes.get(f.node);
      if (scoped) scoped.generation++;
      else if (f.pdu === undefined) for (const n of world.nodes.values()) n.generation++;
    }
  });
}

/**
 * Clears the node's health faults that `how` cures (a power-on after power was off, or a new deploy); after a power
 * cycle the ones that survive are found again (POST, the GPU driver loading) and logged anew.
 */
export function cureHealth(world: World, node: LabNode, how: Cure): void {
  world.faults.removeWhere(curedBy(node.spec.name, how));
  if (how !== "power-cycle") return;
  for (const f of world.faults.list()) if (isHealthFault(f) && f.node === node.spec.name) logHealth(world, f);
}
