/** What the Redfish client returns: plain readonly data, independent of Terraform. */

/** A Redfish JSON object as received. */
export type RedfishJson = Readonly<Record<string, unknown>>;

/** Boot source override settings of a system. */
export interface BootState {
  readonly target?: string;
  /** "Disabled" | "Once" | "Continuous". */
  readonly enabled?: string;
  /** "UEFI" | "Legacy". */
  readonly mode?: string;
  /** Targets the BMC accepts; undefined when it does not say. */
  readonly allowedTargets?: readonly string[];
}

/** Power and boot state of a ComputerSystem. */
export interface SystemState {
  readonly id: string;
  readonly odataId: string;
  readonly name?: string;
  /** "On" | "Off" | "PoweringOn" | "PoweringOff" | "Paused". */
  readonly powerState?: string;
  readonly boot: BootState;
  /** Target of #ComputerSystem.Reset, if advertised. */
  readonly resetTarget?: string;
  /** ResetType@Redfish.AllowableValues; undefined when the BMC does not say. */
  readonly resetTypes?: readonly string[];
  /** @Redfish.ActionInfo of the reset action, to read allowed values from when they are not inline. */
  readonly resetActionInfo?: string;
  /** ETag to send in If-Match on PATCH. */
  readonly etag?: string;
  /** The system's UUID and serial number, which identify the board whatever address its BMC answers on. */
  readonly uuid?: string;
  readonly serial?: string;
  /** When the host last came out of reset (ComputerSystem.LastResetTime, v1.12), where the BMC reports it. */
  readonly lastResetTime?: string;
  /** The System's SecureBoot resource, where it links one. */
  readonly secureBootUri?: string;
}

/** A CPU (ids `ProcessorSummary.N` stand for CPUs only ProcessorSummary.Count vouches for). */
export interface CpuInfo {
  readonly id: string;
  readonly model?: string;
  readonly manufacturer?: string;
  readonly cores?: number;
}

/** A GPU, found as a Processor of type GPU or as a PCIe display/3D controller. */
export interface GpuInfo {
  readonly id: string;
  readonly odataId: string;
  readonly model?: string;
  readonly manufacturer?: string;
  readonly serial?: string;
  readonly source: "processor" | "pcie";
  /** The PCIeDevice it sits on, when known. */
  readonly pcieDevice?: string;
}

/** A component its BMC reports as not healthy (Status.Health Warning or Critical). */
export interface ComponentHealth {
  readonly kind: "gpu" | "cpu" | "memory" | "pcie" | "nic";
  /** Its @odata.id (the component's Redfish URI path). */
  readonly id: string;
  readonly name?: string;
  readonly health: "Warning" | "Critical";
}

/** A drive, from Storage/Drives or SimpleStorage/Devices. */
export interface DriveInfo {
  readonly id: string;
  readonly name?: string;
  readonly model?: string;
  readonly serial?: string;
  readonly capacityBytes?: number;
  readonly mediaType?: string;
  readonly protocol?: string;
}

/** One FirmwareInventory entry. */
export interface FirmwareInfo {
  readonly id: string;
  readonly name?: string;
  readonly version?: string;
  /** The inventory item's URI, which an update's Targets name. */
  readonly odataId?: string;
  /** What the item is the firmware of (RelatedItem), e.g. the Manager for the BMC's own firmware. */
  readonly relatedItems?: readonly string[];
}

/** The hardware inventory of one system. */
export interface Inventory {
  readonly systemId: string;
  readonly serial?: string;
  readonly model?: string;
  readonly manufacturer?: string;
  /** Upper-case colon-separated MAC addresses, de-duplicated, in EthernetInterfaces order. */
  readonly macs: readonly string[];
  readonly cpus: readonly CpuInfo[];
  readonly memoryGiB?: number;
  readonly gpus: readonly GpuInfo[];
  /** BlueField DPUs among the PCIe devices (Model, Name or DeviceName naming BlueField). */
  readonly dpuCount?: number;
  readonly drives: readonly DriveInfo[];
  readonly firmware: readonly FirmwareInfo[];
  /** ComputerSystem.BiosVersion. */
  readonly biosVersion?: string;
  /** FirmwareVersion of the Manager (the BMC) that manages the system. */
  readonly bmcFirmwareVersion?: string;
  /** Components the BMC reports as Warning or Critical (health.ts); empty when every one is OK. */
  readonly health?: readonly ComponentHealth[];
  /** The Bios `Attributes`, when the System's expansion carried them inline (no request of their own). */
  readonly biosAttributes?: Readonly<Record<string, string | number | boolean | null>>;
  /** Linked resources skipped because they answered 404/500 or were not JSON: `skipped <url>: HTTP 404` (the client always sets it). */
  readonly warnings?: readonly string[];
  /** The event log, when the System's expansion carried its whole Entries collection inline (log-entries.ts). */
  readonly eventLog?: EmbeddedEventLog;
  /** Tags of the expanded reads this inventory came from; absent when the BMC offers no `$expand` (see expand.ts). */
  readonly refresh?: RefreshFingerprint;
}

/** One expanded read as a later refresh compares it: by ETag (If-None-Match) when set, else by a hash of its body. */
export interface RefreshTag {
  /** The path with its `$expand` query. */
  readonly path: string;
  readonly etag?: string;
  readonly hash: string;
}

/** The expanded System and FirmwareInventory reads that together cover every inventory value. */
export interface RefreshFingerprint {
  readonly system: RefreshTag;
  readonly firmware?: RefreshTag;
}

/** A snapshot of a Redfish Task. */
export interface TaskSnapshot {
  readonly uri: string;
  readonly state?: string;
  readonly status?: string;
  readonly percentComplete?: number;
  /** Texts of Messages[].Message. */
  readonly messages: readonly string[];
}

/** A rack PDU (PowerDistribution). */
export interface PduInfo {
  readonly id: string;
  readonly odataId: string;
  readonly name?: string;
  readonly manufacturer?: string;
  readonly model?: string;
  readonly serial?: string;
  readonly firmwareVersion?: string;
}

/** A PDU outlet. */
export interface OutletState {
  readonly id: string;
  readonly odataId: string;
  readonly name?: string;
  /** "On" | "Off". */
  readonly powerState?: string;
  readonly powerEnabled?: boolean;
  /** Target of #Outlet.PowerControl; undefined when the outlet cannot be switched. */
  readonly controlTarget?: string;
}

/** Power states an outlet can be asked for via #Outlet.PowerControl. */
export type OutletPowerRequest = "On" | "Off" | "PowerCycle";

/** Boot override enablement. */
export type BootOverrideEnabled = "Once" | "Continuous" | "Disabled";

/** One entry of a BMC's event log (DSP0268 LogEntry), as the client reads it. */
export interface LogEntryRecord {
  readonly id: string;
  /** The entry's own @odata.id. */
  readonly uri?: string;
  /** RFC 3339 (Created, else EventTimestamp). */
  readonly created?: string;
  readonly severity?: "OK" | "Warning" | "Critical";
  /** As logged, e.g. `OpenBMC.0.1.MemoryECCUncorrectable`, `IDRAC.2.8.MEM0001` or `MEM0001`. */
  readonly messageId?: string;
  readonly message?: string;
  readonly args: readonly string[];
  /** SEL entries: the IPMI sensor type (e.g. Memory, Temperature) and event (EntryCode). */
  readonly sensorType?: string;
  readonly entryCode?: string;
  /** The last segment of Links.OriginOfCondition (e.g. GPU_SXM_1, DIMM0), and the link itself. */
  readonly component?: string;
  readonly origin?: string;
}

/** Where a node's event log was last read up to: kept by the caller between reads (log-entries.ts). */
export interface EventLogCursor {
  /** The log's Entries collection. */
  readonly path: string;
  /** The newest entry Id seen; "" when the log was empty at the baseline; absent until a first read took one. */
  readonly lastId?: string;
  /** Whether to ask with `$filter` (the root advertises FilterQuery and the log has not refused it). */
  readonly filter: boolean;
  /** The ETag of the last filtered answer that held nothing new (If-None-Match on the next read). */
  readonly etag?: string;
  /** Members@odata.count when last paged; where the next page of an oldest-first log starts. */
  readonly count?: number;
  /** The log lists its newest entry first (as iDRAC pages its logs). */
  readonly newestFirst?: boolean;
  /** The entries came inline in the System's expansion: a System unchanged since holds no new ones. */
  readonly embedded?: boolean;
}

/** An event log whose entries an expanded System carried inline. */
export interface EmbeddedEventLog {
  readonly entriesPath: string;
  readonly entries: readonly LogEntryRecord[];
}
