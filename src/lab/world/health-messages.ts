/**
 * How each vendor's BMC words a health event in its system event log: MessageId, message (with %1… arguments),
 * severity, and for SEL-style logs the IPMI sensor type — each row with the public source it rests on. A row whose
 * wording was not found in a public source says `inferred` in its source: the lab then uses a real, generic registry
 * message (DMTF ResourceEvent) the way a BMC could, but no document shows this vendor doing so for this event.
 */
import type { VendorStyle } from "./spec.js";

/** A health event the lab logs. */
export type HealthEvent =
  | "xid-fallen-off-bus"
  | "xid-dbe"
  | "xid-row-remap"
  | "xid-other"
  | "memory-ue"
  | "pcie-degraded"
  | "nvlink-down"
  | "thermal";

/** Named values a message's arguments are taken from. */
export interface MessageContext {
  readonly gpu: string;
  readonly xid: string;
  readonly xidText: string;
  readonly dimm: string;
  readonly device: string;
  readonly lanes: string;
  readonly maxLanes: string;
  readonly sensor: string;
  readonly reading: string;
  readonly threshold: string;
  /** The PCIe bus number of the device. */
  readonly bus: string;
  /** "0", for registry arguments the lab does not model (socket, channel, rank, device and function numbers). */
  readonly zero: string;
}

/** One row: how a vendor family logs one event. */
export interface HealthMessage {
  readonly messageId: string;
  /** With %1… replaced by the values of `args`, in order. */
  readonly message: string;
  readonly severity: "OK" | "Warning" | "Critical";
  /** The IPMI sensor type (SEL entries only). */
  readonly sensorType?: string;
  readonly args: readonly (keyof MessageContext)[];
  /** The public source of the wording (registry, document, URL), or `inferred: …`. */
  readonly source: string;
}

/** Families of BMC firmware that word events alike. */
export type MessageFamily = "idrac" | "ilo" | "hgx" | "ipmi-sel" | "openbmc";

/** Which family each vendor style's BMC belongs to. */
export const FAMILY_OF: Readonly<Record<VendorStyle, MessageFamily>> = {
  dell: "idrac",
  hpe: "ilo",
  "nvidia-dgx": "hgx",
  supermicro: "ipmi-sel",
  lenovo: "ipmi-sel",
  contoso: "openbmc",
};

const DMTF_RESOURCE_EVENT = "DMTF ResourceEvent 1.0 registry (ResourceErrorsDetected, ResourceStatusChanged*)";
const OPENBMC_REGISTRY =
  "OpenBMC message registry OpenBMC.0.x, bmcweb redfish-core/include/registries/openbmc_message_registry.hpp";
const HGX_XID =
  "OpenBMC dbus-sensors nvidia-gpu NvidiaGpuXid.cpp: 'The resource property <device> Driver Event Message has detected errors of type [...] XID <n> <text>', level Critical";
const IPMI = "IPMI 2.0 spec, Table 42-3 sensor type codes and sensor-specific offsets";
const XID_CATALOGUE = "NVIDIA Xid catalogue, docs.nvidia.com/deploy/xid-errors/analyzing-xid-catalog.html";

/** ResourceEvent.ResourceErrorsDetected as a generic fallback. */
const errorsDetected = (
  sev: HealthMessage["severity"],
  args: readonly (keyof MessageContext)[],
  why: string,
): HealthMessage => ({
  messageId: "ResourceEvent.1.0.ResourceErrorsDetected",
  message: "The resource property %1 has detected errors of type '%2'.",
  severity: sev,
  args,
  source: `inferred: ${why}; wording from ${DMTF_RESOURCE_EVENT}`,
});

/** An XID as the HGX BMC's GPU sensor logs it. */
const hgxXid = (sev: HealthMessage["severity"]): HealthMessage => ({
  messageId: "ResourceEvent.1.0.ResourceErrorsDetected",
  message: "The resource property %1 Driver Event Message has detected errors of type XID %2 %3",
  severity: sev,
  args: ["gpu", "xid", "xidText"],
  source: `${HGX_XID}; the lab drops the timestamp/sequence/flags brackets; XID text from ${XID_CATALOGUE}`,
});

const OPENBMC_UE: HealthMessage = {
  messageId: "OpenBMC.0.1.MemoryECCUncorrectable",
  message: "Memory ECC uncorrectable error. Socket=%1 Channel=%2 DIMM=%3 Rank=%4.",
  severity: "Critical",
  args: ["zero", "zero", "dimm", "zero"],
  source: `${OPENBMC_REGISTRY} (MemoryECCUncorrectable, 4 args; the lab passes socket/channel/rank as 0)`,
};
const OPENBMC_THERMAL: HealthMessage = {
  messageId: "OpenBMC.0.1.SensorThresholdCriticalHighGoingHigh",
  message: "%1 sensor crossed a critical high threshold going high. Reading=%2 Threshold=%3.",
  severity: "Critical",
  args: ["sensor", "reading", "threshold"],
  source: `${OPENBMC_REGISTRY} (SensorThresholdCriticalHighGoingHigh)`,
};

const GPU_XIDS_GENERIC = {
  "xid-fallen-off-bus": errorsDetected("Critical", ["gpu", "xidText"], "no vendor GPU fallen-off-bus message found"),
  "xid-dbe": errorsDetected("Critical", ["gpu", "xidText"], "no vendor GPU ECC message found"),
  "xid-row-remap": errorsDetected("Critical", ["gpu", "xidText"], "no vendor GPU row-remap message found"),
  "xid-other": errorsDetected("Warning", ["gpu", "xidText"], "no vendor GPU XID message found"),
  "nvlink-down": errorsDetected("Warning", ["gpu", "xidText"], "no vendor NVLink message found"),
  "pcie-degraded": errorsDetected("Warning", ["device", "xidText"], "no vendor PCIe link-width message found"),
} as const;

/** The table: per family, per event. */
export const HEALTH_MESSAGES: Readonly<Record<MessageFamily, Readonly<Record<HealthEvent, HealthMessage>>>> = {
  idrac: {
    ...GPU_XIDS_GENERIC,
    "memory-ue": {
      messageId: "MEM0001",
      message: "Multi-bit memory errors detected on a memory device at location(s) %1.",
      severity: "Critical",
      sensorType: "Memory",
      args: ["dimm"],
      source:
        "Dell KB 000137261 (SC9000 SEL: 'MEM0001 Multi-bit memory errors detected on a memory device at location(s) DIMM_XX'); Dell OpenManage Server Administrator 7.0 Reference Guide, Memory ECC Events",
    },
    thermal: {
      messageId: "TMP0120",
      message: "The system board %1 temperature is greater than the upper critical threshold.",
      severity: "Critical",
      sensorType: "Temperature",
      args: ["sensor"],
      source:
        "inferred: TMP0120 wording as remembered from the iDRAC Event and Error Message Reference; not found in the searched corpora",
    },
  },
  ilo: {
    ...GPU_XIDS_GENERIC,
    "memory-ue": {
      messageId: "iLOEvents.2.1.MemoryUncorrectableError",
      message: "Uncorrectable Memory Error detected on %1.",
      severity: "Critical",
      args: ["dimm"],
      source:
        "inferred: IML 'Uncorrectable Memory Error' category (iLO 5 user guide, IML section) with an assumed registry id",
    },
    thermal: {
      messageId: "iLOEvents.2.1.TemperatureCritical",
      message: "Temperature sensor %1 reading %2 C exceeds the critical threshold of %3 C.",
      severity: "Critical",
      args: ["sensor", "reading", "threshold"],
      source: "inferred: iLO IML 'Temperature Status' events; no public registry text found",
    },
  },
  hgx: {
    "xid-fallen-off-bus": hgxXid("Critical"),
    "xid-dbe": hgxXid("Critical"),
    "xid-row-remap": hgxXid("Critical"),
    "xid-other": hgxXid("Critical"),
    "nvlink-down": hgxXid("Critical"),
    "pcie-degraded": GPU_XIDS_GENERIC["pcie-degraded"],
    "memory-ue": OPENBMC_UE,
    thermal: OPENBMC_THERMAL,
  },
  "ipmi-sel": {
    ...GPU_XIDS_GENERIC,
    "memory-ue": {
      messageId: "0x0C01",
      message: "Uncorrectable ECC @ %1 - Assertion",
      severity: "Critical",
      sensorType: "Memory",
      args: ["dimm"],
      source: `${IPMI} (Memory 0Ch, offset 01h Uncorrectable ECC); the '@ DIMM - Assertion' layout is inferred`,
    },
    "pcie-degraded": {
      messageId: "0x1307",
      message: "Bus Correctable Error @ %1 - Assertion",
      severity: "Warning",
      sensorType: "Critical Interrupt",
      args: ["device"],
      source: `${IPMI} (Critical Interrupt 13h, offset 07h Bus Correctable Error); Dell PowerEdge C8220 owner's manual 'PCIe Error' SEL table`,
    },
    thermal: {
      messageId: "0x0109",
      message: "%1 Upper Critical - going high - Assertion",
      severity: "Critical",
      sensorType: "Temperature",
      args: ["sensor"],
      source: `${IPMI} (threshold event offset 09h upper critical going high); DMTF mockup public-rackmount1 Log1 entry 'Upper Critical - going high'`,
    },
  },
  openbmc: {
    ...GPU_XIDS_GENERIC,
    "pcie-degraded": {
      messageId: "OpenBMC.0.1.PCIeFatalUncorrectableInternal",
      message: "PCIe Fatal Uncorrectable Internal Error. Bus=%1 Device=%2 Function=%3.",
      severity: "Critical",
      args: ["bus", "zero", "zero"],
      source: `${OPENBMC_REGISTRY} (PCIeFatalUncorrectableInternal: an AER error, not a width change; the registry has no link-width message)`,
    },
    "memory-ue": OPENBMC_UE,
    thermal: OPENBMC_THERMAL,
  },
};

/** Message text with %1… replaced. */
export function formatMessage(m: HealthMessage, ctx: MessageContext): { message: string; args: string[] } {
  const args = m.args.map((k) => ctx[k]);
  return { message: m.message.replace(/%(\d+)/g, (_, n: string) => args[Number(n) - 1] ?? ""), args };
}

/** NVIDIA's short description of an XID, for messages (Xid catalogue mnemonics, shortened). */
export function xidText(xid: number): string {
  const known: Record<number, string> = {
    13: "Graphics Engine Exception",
    31: "GPU memory page fault",
    43: "GPU stopped processing",
    48: "Double Bit ECC Error",
    63: "Row Remapper: New row marked for remapping, reset gpu to activate",
    64: "Row Remapper: Failed to remap a row",
    74: "NVLink Error",
    79: "GPU has fallen off the bus",
  };
  return known[xid] ?? "GPU error";
}
