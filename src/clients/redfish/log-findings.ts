/**
 * Which event-log entries are health findings, as the vendors word them: a table of MessageIds and message patterns,
 * each row with the document it rests on. MessageIds are matched by their key (the part after the last dot:
 * `OpenBMC.0.1.MemoryECCUncorrectable` and `IDRAC.2.8.MEM0001` alike, as DSP0266 builds them from a registry prefix
 * and a key), so a registry version bump does not lose a row. An entry no row matches still counts when its Severity
 * is Critical (kind `critical`); a Warning or OK entry no row matches is not a finding.
 */
import type { LogEntryRecord } from "./types.js";

/** What a log entry says is wrong. */
export type LogFindingKind = "gpu-xid" | "memory-ecc" | "pcie-aer" | "nvlink" | "thermal" | "power" | "critical";

/** A finding read from one log entry. */
export interface LogFinding {
  readonly kind: LogFindingKind;
  readonly health: "Warning" | "Critical";
  /** The component the entry names (OriginOfCondition's last segment, else from its message), if any. */
  readonly component?: string;
  /** The GPU XID number, for gpu-xid and nvlink findings read from an XID. */
  readonly xid?: number;
  readonly entry: LogEntryRecord;
}

/** One row: how to recognise an entry, what it means, and where that rests. */
interface Row {
  readonly vendor: string;
  /** The MessageId key (after the last dot), exact or a pattern. */
  readonly key?: string | RegExp;
  /** A pattern on the message text (and MessageArgs), or on SEL SensorType + EntryCode. */
  readonly text?: RegExp;
  readonly sensorType?: string;
  readonly kind: LogFindingKind;
  /** Fixed, or "entry": the entry's own Severity (an OK entry then is no finding). */
  readonly health: "Warning" | "Critical" | "entry";
  readonly source: string;
}

const OPENBMC = "OpenBMC message registry, openbmc/bmcweb redfish-core/include/registries/openbmc_message_registry.hpp";
const DMTF_REG = "DMTF Redfish message registries (DSP8011), as bmcweb ships them in redfish-core/include/registries";
const IPMI = "IPMI 2.0 spec, Table 42-3 (sensor types and offsets) and the DMTF LogEntry schema's SensorType/EntryCode";
const DELL_EEMI =
  "Dell PowerEdge Servers Error and Event Messages Reference Guide (EEMI), dell.com/support/manuals error_event_message_guide";
const HPE_IML =
  "HPE Integrated Management Log Messages and Troubleshooting Guide for ProLiant Gen10/Gen11/Gen12 (support.hpe.com docId ilogen12-msg-en_us)";

/** The table, most specific rows first. XID entries are recognised before it (see `xidOf`). */
const ROWS: readonly Row[] = [
  // OpenBMC (bmcweb-based BMCs: HGX baseboards, many ODM boards).
  {
    vendor: "openbmc",
    key: "MemoryECCUncorrectable",
    kind: "memory-ecc",
    health: "Critical",
    source: OPENBMC,
  },
  {
    vendor: "openbmc",
    key: /^PCIeFatal/,
    kind: "pcie-aer",
    health: "Critical",
    source: OPENBMC,
  },
  // "PCIe Correctable Link BW Changed": the link retrained to a lower width or speed.
  {
    vendor: "openbmc",
    key: "PCIeCorrectableLinkBWChanged",
    kind: "pcie-aer",
    health: "Warning",
    source: OPENBMC,
  },
  {
    vendor: "openbmc",
    key: /^(SensorThresholdCriticalHighGoingHigh|CPUThermalTrip|MemoryThermTrip)$/,
    kind: "thermal",
    health: "Critical",
    source: OPENBMC,
  },
  {
    vendor: "openbmc",
    key: /^PowerSupply(Failed|PowerLost)$/,
    kind: "power",
    health: "Warning",
    source: OPENBMC,
  },
  // DMTF standard registries (Environmental, Power) any BMC may log.
  {
    vendor: "dmtf",
    key: /^Temperature(AboveUpperCritical|AboveUpperFatal)Threshold$/,
    kind: "thermal",
    health: "Critical",
    source: `${DMTF_REG} (Environmental 1.x)`,
  },
  {
    vendor: "dmtf",
    key: "PowerSupplyFailed",
    kind: "power",
    health: "Warning",
    source: `${DMTF_REG} (Power 1.x)`,
  },
  // Dell iDRAC: MEM0001 is "Multi-bit memory errors detected on a memory device at location(s) <location>".
  {
    vendor: "dell",
    key: "MEM0001",
    kind: "memory-ecc",
    health: "Critical",
    source: DELL_EEMI,
  },
  // The EEMI message-id prefixes name the subsystem; the entry's Severity says how bad.
  {
    vendor: "dell",
    key: /^PCI\d{4}$/,
    kind: "pcie-aer",
    health: "entry",
    source: `${DELL_EEMI} (PCI: PCI device events)`,
  },
  {
    vendor: "dell",
    key: /^TMP\d{4}$/,
    kind: "thermal",
    health: "entry",
    source: `${DELL_EEMI} (TMP: temperature)`,
  },
  {
    vendor: "dell",
    key: /^(PSU|PWR)\d{4}$/,
    kind: "power",
    health: "entry",
    source: `${DELL_EEMI} (PSU, PWR)`,
  },
  // HPE iLO IML: its message texts.
  {
    vendor: "hpe",
    text: /uncorrectable memory error/i,
    kind: "memory-ecc",
    health: "Critical",
    source: HPE_IML,
  },
  {
    vendor: "hpe",
    text: /uncorrectable pci express error/i,
    kind: "pcie-aer",
    health: "Critical",
    source: HPE_IML,
  },
  // IPMI SEL as Redfish serves it (Supermicro, Lenovo XCC, the DMTF mockups): sensor type and event.
  {
    vendor: "ipmi-sel",
    sensorType: "Memory",
    text: /uncorrectable/i,
    kind: "memory-ecc",
    health: "Critical",
    source: `${IPMI} (Memory 0Ch, offset 01h Uncorrectable ECC)`,
  },
  {
    vendor: "ipmi-sel",
    sensorType: "Critical Interrupt",
    text: /bus (uncorrectable|fatal)|pci serr/i,
    kind: "pcie-aer",
    health: "Critical",
    source: `${IPMI} (Critical Interrupt 13h: 05h PCI SERR, 08h Bus Uncorrectable, 0Ah Bus Fatal)`,
  },
  {
    vendor: "ipmi-sel",
    sensorType: "Critical Interrupt",
    text: /bus (correctable|degraded)|pci perr/i,
    kind: "pcie-aer",
    health: "Warning",
    source: `${IPMI} (Critical Interrupt 13h: 04h PCI PERR, 07h Bus Correctable, 0Bh Bus Degraded)`,
  },
  {
    vendor: "ipmi-sel",
    sensorType: "Temperature",
    text: /upper (critical|non-recoverable) - going high/i,
    kind: "thermal",
    health: "Critical",
    source: `${IPMI} (threshold offsets 09h, 0Bh); DMTF mockup public-rackmount1 Log1 entries`,
  },
  {
    vendor: "ipmi-sel",
    sensorType: "Power Supply",
    kind: "power",
    health: "entry",
    source: `${IPMI} (Power Supply 08h)`,
  },
];

/**
 * NVIDIA GPU XIDs by what they mean for the node, from NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors):
 * 48 double-bit ECC, 63/64 row remapping pending/failed, 74 NVLink, 79 fallen off the bus, 92 high single-bit ECC
 * rate, 94/95 contained/uncontained ECC — hardware, Critical; any other XID (13, 31, 43: most often the application)
 * a Warning.
 */
const HARDWARE_XIDS = new Set([48, 63, 64, 74, 79, 92, 94, 95]);
const NVLINK_XIDS = new Set([74]);

/**
 * The XID of an entry: the HGX BMC logs a GPU's driver event as ResourceEvent ResourceErrorsDetected with the args
 * "<GPU> Driver Event Message" and "[…] XID <n> <text>" (NVIDIA/nsmd example/gb200nvl_gpu_chassis.json,
 * XIDEventSetting, Severity Critical); other BMCs that relay the driver's text write "Xid" with the number after it.
 */
function xidOf(e: LogEntryRecord): number | undefined {
  const text = [e.message ?? "", ...e.args].join(" ");
  const m = /\bxid\b[\s:(]*(\d{1,3})\b/i.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** The GPU an XID entry names: OriginOfCondition, else the "<GPU> Driver Event Message" argument. */
function xidComponent(e: LogEntryRecord): string | undefined {
  const arg = e.args.map((a) => /^(.*?)\s+Driver Event Message$/i.exec(a)?.[1]).find((x) => x);
  return arg ?? e.component;
}

const keyOf = (messageId: string | undefined) => (messageId ? messageId.slice(messageId.lastIndexOf(".") + 1) : "");

function rowMatches(row: Row, e: LogEntryRecord): boolean {
  if (row.key !== undefined) {
    const k = keyOf(e.messageId);
    if (typeof row.key === "string" ? k !== row.key : !row.key.test(k)) return false;
  }
  if (row.sensorType !== undefined && e.sensorType?.toLowerCase() !== row.sensorType.toLowerCase()) return false;
  if (row.text !== undefined) {
    const text = [e.message ?? "", e.entryCode ?? "", ...e.args].join(" ");
    if (!row.text.test(text)) return false;
  }
  return true;
}

const entryHealth = (e: LogEntryRecord) =>
  e.severity === "Critical" || e.severity === "Warning" ? e.severity : undefined;

/** The finding an entry stands for, or undefined when it is none (an OK or unmatched Warning entry). */
export function logFinding(e: LogEntryRecord): LogFinding | undefined {
  const xid = xidOf(e);
  if (xid !== undefined) {
    const hw = HARDWARE_XIDS.has(xid);
    const health = hw || e.severity === "Critical" ? "Critical" : "Warning";
    const component = xidComponent(e);
    const kind = NVLINK_XIDS.has(xid) ? "nvlink" : "gpu-xid";
    return { kind, health, xid, entry: e, ...(component ? { component } : {}) };
  }
  for (const row of ROWS) {
    if (!rowMatches(row, e)) continue;
    const health = row.health === "entry" ? entryHealth(e) : row.health;
    if (!health) return undefined;
    return {
      kind: row.kind,
      health,
      entry: e,
      ...(e.component ? { component: e.component } : {}),
    };
  }
  if (e.severity !== "Critical") return undefined;
  return {
    kind: "critical",
    health: "Critical",
    entry: e,
    ...(e.component ? { component: e.component } : {}),
  };
}

/** The rows of the table, for documentation and tests: vendor, match, kind, health and source. */
export function logFindingRows(): readonly {
  vendor: string;
  match: string;
  kind: LogFindingKind;
  health: string;
  source: string;
}[] {
  return ROWS.map((r) => ({
    vendor: r.vendor,
    match: [
      r.key && `MessageId ${String(r.key)}`,
      r.sensorType && `SensorType ${r.sensorType}`,
      r.text && String(r.text),
    ]
      .filter(Boolean)
      .join(", "),
    kind: r.kind,
    health: r.health,
    source: r.source,
  }));
}
