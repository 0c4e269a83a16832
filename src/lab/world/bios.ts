/**
 * A node's BIOS: the attribute set its vendor's firmware exposes (an AttributeRegistry, DMTF AttributeRegistry
 * schema in DSP8010), the current values, the values staged in the settings object (DSP0266 "Settings
 * resource") and what happened when they were last applied. Staged values apply at the host's next power-on (a reset
 * or power cycle), as a BIOS reads its settings at POST; the `bios-settings-ignored` fault makes one power-on ignore
 * them (they stay pending and the Messages say SettingsFailed, as in the DMTF public-rackmount1 mockup).
 */
import type { BiosJob } from "./bios-shapes.js";
import type { VendorStyle } from "./spec.js";

/** A BIOS attribute value as Redfish carries it. */
export type BiosValue = string | number | boolean;

/** One attribute of a vendor's registry. */
export interface BiosAttribute {
  readonly name: string;
  readonly display: string;
  readonly type: "Enumeration" | "Integer" | "String" | "Boolean";
  /** ValueName of each allowed value (Enumeration). */
  readonly values?: readonly string[];
  readonly lower?: number;
  readonly upper?: number;
  readonly readOnly?: boolean;
  readonly menu: string;
  /** The value a new node starts with (`model` for the system model name). */
  readonly initial: BiosValue | "model";
}

/** A Map dependency (AttributeRegistry `Dependencies[]`): while `from` equals `value`, `to` is read-only. */
export interface BiosDependency {
  readonly from: string;
  readonly value: BiosValue;
  readonly to: string;
}

/** What one vendor's BIOS exposes. */
export interface BiosFlavour {
  /** The AttributeRegistry's Id (and the Bios resource's `AttributeRegistry`). */
  readonly registryId: string;
  /** The MessageRegistryFile's Id under /redfish/v1/Registries. */
  readonly fileId: string;
  readonly owningEntity: string;
  readonly attributes: readonly BiosAttribute[];
  readonly dependencies: readonly BiosDependency[];
}

/** A message of the last settings apply (the `@Redfish.Settings` Messages); MessageId is a Base registry key. */
export interface BiosApplyMessage {
  readonly MessageId: "SettingsFailed" | "Success";
  readonly Message: string;
  readonly RelatedProperties?: readonly string[];
  readonly Severity: "OK" | "Warning" | "Critical";
}

/** A node's BIOS state. */
export interface BiosState {
  readonly flavour: BiosFlavour;
  current: Record<string, BiosValue>;
  /** Values written to the settings object and not applied yet. */
  staged: Record<string, BiosValue>;
  /** Messages of the last apply (empty before the first). */
  messages: BiosApplyMessage[];
  /** When staged values were last applied (or refused), simulated ms. */
  appliedAt?: number;
  /** Dell-style configuration jobs created by PATCHes with OnReset, oldest first (bios-shapes.ts). */
  readonly jobs: BiosJob[];
}

const ENABLED = ["Enabled", "Disabled"];

/** Dell PowerEdge names (per Dell's iDRAC Redfish API reference; inferred, not checked against a live iDRAC). */
const DELL: BiosFlavour = {
  registryId: "BiosAttributeRegistry.v1_0_0",
  fileId: "BiosAttributeRegistry",
  owningEntity: "Dell",
  attributes: [
    {
      name: "SystemModelName",
      display: "System Model Name",
      type: "String",
      readOnly: true,
      menu: "./SysInformation",
      initial: "model",
    },
    {
      name: "BootMode",
      display: "Boot Mode",
      type: "Enumeration",
      values: ["Uefi", "Bios"],
      menu: "./BootSettings",
      initial: "Uefi",
    },
    {
      name: "ProcVirtualization",
      display: "Virtualization Technology",
      type: "Enumeration",
      values: ENABLED,
      menu: "./ProcSettings",
      initial: "Enabled",
    },
    {
      name: "SriovGlobalEnable",
      display: "SR-IOV Global Enable",
      type: "Enumeration",
      values: ENABLED,
      menu: "./IntegratedDevices",
      initial: "Disabled",
    },
    {
      name: "MmioAbove4Gb",
      display: "Memory Mapped I/O above 4GB",
      type: "Enumeration",
      values: ENABLED,
      menu: "./IntegratedDevices",
      initial: "Enabled",
    },
    {
      name: "NumaNodesPerSocket",
      display: "NUMA Nodes Per Socket",
      type: "Integer",
      lower: 1,
      upper: 4,
      menu: "./ProcSettings",
      initial: 1,
    },
    {
      name: "SysProfile",
      display: "System Profile",
      type: "Enumeration",
      values: ["PerfPerWattOptimizedDapc", "PerfPerWattOptimizedOs", "PerfOptimized", "Custom"],
      menu: "./SysProfileSettings",
      initial: "PerfPerWattOptimizedDapc",
    },
  ],
  dependencies: [{ from: "BootMode", value: "Bios", to: "MmioAbove4Gb" }],
};

/** HPE ProLiant names (per HPE's iLO Redfish API reference; inferred). */
const HPE: BiosFlavour = {
  registryId: "BiosAttributeRegistryU54.v1_2_40",
  fileId: "BiosAttributeRegistryU54.v1_2_40",
  owningEntity: "HPE",
  attributes: [
    {
      name: "ServerModelName",
      display: "Server Model",
      type: "String",
      readOnly: true,
      menu: "./SystemInformation",
      initial: "model",
    },
    {
      name: "BootMode",
      display: "Boot Mode",
      type: "Enumeration",
      values: ["Uefi", "LegacyBios"],
      menu: "./BootOptions",
      initial: "Uefi",
    },
    {
      name: "ProcVirtualization",
      display: "Virtualization Technology",
      type: "Enumeration",
      values: ENABLED,
      menu: "./ProcessorOptions",
      initial: "Enabled",
    },
    {
      name: "Sriov",
      display: "SR-IOV",
      type: "Enumeration",
      values: ENABLED,
      menu: "./PciDeviceConfig",
      initial: "Enabled",
    },
    {
      name: "ProcAmdIoVt",
      display: "AMD I/O Virtualization Technology",
      type: "Enumeration",
      values: ENABLED,
      menu: "./ProcessorOptions",
      initial: "Enabled",
    },
    {
      name: "NumaGroupSizeOpt",
      display: "NUMA Group Size Optimization",
      type: "Enumeration",
      values: ["Flat", "Clustered"],
      menu: "./ProcessorOptions",
      initial: "Clustered",
    },
    {
      name: "WorkloadProfile",
      display: "Workload Profile",
      type: "Enumeration",
      values: ["GeneralPowerEfficientCompute", "GeneralPeakFrequencyCompute", "HighPerformanceCompute", "Custom"],
      menu: "./WorkloadProfile",
      initial: "GeneralPowerEfficientCompute",
    },
  ],
  dependencies: [{ from: "BootMode", value: "LegacyBios", to: "Sriov" }],
};

/** AMI Aptio-style names as Supermicro, NVIDIA DGX, Lenovo and other BMCs expose them (lab choice; inferred). */
const AMI: BiosFlavour = {
  registryId: "BiosAttributeRegistryAMI.v1_0_0",
  fileId: "BiosAttributeRegistryAMI.v1_0_0",
  owningEntity: "AMI",
  attributes: [
    {
      name: "SystemProductName",
      display: "Product Name",
      type: "String",
      readOnly: true,
      menu: "./Main",
      initial: "model",
    },
    {
      name: "BootMode",
      display: "Boot Mode Select",
      type: "Enumeration",
      values: ["Uefi", "LegacyBios"],
      menu: "./Boot",
      initial: "Uefi",
    },
    {
      name: "Iommu",
      display: "IOMMU",
      type: "Enumeration",
      values: ["Enabled", "Disabled", "Auto"],
      menu: "./Advanced/CpuConfiguration",
      initial: "Auto",
    },
    {
      name: "SriovSupport",
      display: "SR-IOV Support",
      type: "Enumeration",
      values: ENABLED,
      menu: "./Advanced/PciSubsystem",
      initial: "Enabled",
    },
    {
      name: "Above4GDecoding",
      display: "Above 4G Decoding",
      type: "Enumeration",
      values: ENABLED,
      menu: "./Advanced/PciSubsystem",
      initial: "Enabled",
    },
    {
      name: "NumaNodesPerSocket",
      display: "NUMA Nodes Per Socket",
      type: "Enumeration",
      values: ["NPS0", "NPS1", "NPS2", "NPS4", "Auto"],
      menu: "./Advanced/CpuConfiguration",
      initial: "Auto",
    },
    {
      name: "PowerPerformanceProfile",
      display: "Power/Performance Profile",
      type: "Enumeration",
      values: ["Balanced", "MaximumPerformance", "EnergyEfficient"],
      menu: "./Advanced/CpuConfiguration",
      initial: "Balanced",
    },
  ],
  dependencies: [{ from: "BootMode", value: "LegacyBios", to: "Above4GDecoding" }],
};

/** The BIOS flavour of a vendor style. */
export const BIOS_FLAVOURS: Readonly<Record<VendorStyle, BiosFlavour>> = {
  dell: DELL,
  hpe: HPE,
  supermicro: AMI,
  lenovo: AMI,
  "nvidia-dgx": AMI,
  contoso: AMI,
};

/**
 * Problems with a node's BIOS overrides (spec `hardware.bios`) for its vendor's registry, one sentence each naming the
 * attribute: a name the registry lacks, or a value of the wrong type or outside the enumeration or bounds. Read-only
 * attributes may be overridden (they are the factory's values).
 */
export function biosOverrideProblems(
  vendor: VendorStyle,
  overrides: Readonly<Record<string, unknown>>,
): { readonly attribute: string; readonly problem: string }[] {
  const flavour = BIOS_FLAVOURS[vendor];
  const defs = new Map(flavour.attributes.map((a) => [a.name, a]));
  return Object.entries(overrides).flatMap(([name, v]) => {
    const a = defs.get(name);
    if (!a) {
      const known = flavour.attributes.map((x) => x.name).join(", ");
      return [{ attribute: name, problem: `unknown BIOS attribute "${name}" for ${vendor} (${known})` }];
    }
    const bad = refuseValue(a, name, v);
    if (!bad) return [];
    const allowed = a.values ? ` (${a.values.join(", ")})` : a.type === "Integer" ? ` (${a.lower}..${a.upper})` : "";
    return [{ attribute: name, problem: `${JSON.stringify(v)} is not a valid ${a.type} for "${name}"${allowed}` }];
  });
}

/**
 * A new node's BIOS: every attribute at its initial value, or at `overrides`' (spec `hardware.bios`), nothing staged.
 * Throws naming `node` and the attribute when an override does not fit the vendor's registry.
 */
export function initialBios(
  vendor: VendorStyle,
  model: string,
  overrides: Readonly<Record<string, BiosValue>> = {},
  node = "(unnamed)",
): BiosState {
  const problems = biosOverrideProblems(vendor, overrides);
  if (problems.length > 0)
    throw new Error(`node "${node}" hardware.bios: ${problems.map((p) => p.problem).join("; ")}`);
  const flavour = BIOS_FLAVOURS[vendor];
  const current = Object.fromEntries(
    flavour.attributes.map((a) => [a.name, a.initial === "model" ? model : a.initial]),
  );
  return { flavour, current: { ...current, ...overrides }, staged: {}, messages: [], jobs: [] };
}

/** Why a setting is refused, as the Base registry's MessageId and its arguments. */
export interface BiosRefusal {
  readonly key: "PropertyUnknown" | "PropertyValueTypeError" | "PropertyValueNotInList" | "PropertyNotWritable";
  readonly args: readonly string[];
}

function refuseValue(a: BiosAttribute, prop: string, v: unknown): BiosRefusal | undefined {
  const json = JSON.stringify(v);
  const want = { Enumeration: "string", String: "string", Integer: "number", Boolean: "boolean" }[a.type];
  if (typeof v !== want || (a.type === "Integer" && !Number.isInteger(v)))
    return { key: "PropertyValueTypeError", args: [json, prop] };
  if (a.values && !a.values.includes(String(v))) return { key: "PropertyValueNotInList", args: [String(v), prop] };
  if (typeof v === "number" && ((a.lower !== undefined && v < a.lower) || (a.upper !== undefined && v > a.upper)))
    // Bounds refused as not in the list: the Base 1.5 registry (DMTF mockups) has no range message to name.
    return { key: "PropertyValueNotInList", args: [String(v), prop] };
  return undefined;
}

/**
 * The first refusal of staging `wanted` on top of what is current and staged, judged by the registry: an unknown
 * name, a wrong type, a value outside the enumeration or bounds, a read-only attribute, or one a Map dependency makes
 * read-only given the settings after the change. Undefined when every setting may be staged.
 */
export function checkStage(bios: BiosState, wanted: Readonly<Record<string, unknown>>): BiosRefusal | undefined {
  const after: Record<string, unknown> = { ...bios.current, ...bios.staged, ...wanted };
  const defs = new Map(bios.flavour.attributes.map((a) => [a.name, a]));
  for (const [name, v] of Object.entries(wanted)) {
    const prop = `Attributes/${name}`;
    const a = defs.get(name);
    if (!a) return { key: "PropertyUnknown", args: [prop] };
    const bad = refuseValue(a, prop, v);
    if (bad) return bad;
    const locked = bios.flavour.dependencies.some((d) => d.to === name && after[d.from] === d.value);
    if ((a.readOnly || locked) && v !== bios.current[name]) return { key: "PropertyNotWritable", args: [prop] };
  }
  return undefined;
}

/** Merges `wanted` into the staged settings (already checked); a value equal to the current one unstages it. */
export function stage(bios: BiosState, wanted: Readonly<Record<string, BiosValue>>): void {
  for (const [k, v] of Object.entries(wanted)) {
    if (bios.current[k] === v) delete bios.staged[k];
    else bios.staged[k] = v;
  }
}

/**
 * Applies the staged settings at a host power-on (unless `ignored`: the settings stay pending and the Messages say
 * SettingsFailed for each of them). Returns whether anything was pending.
 */
export function applyStaged(bios: BiosState, now: number, ignored: boolean): boolean {
  const names = Object.keys(bios.staged);
  if (names.length === 0) return false;
  bios.appliedAt = now;
  if (ignored) {
    bios.messages = names.map((n) => ({
      MessageId: "SettingsFailed",
      Message: `The BIOS did not apply the pending value of ${n} at the last reset.`,
      RelatedProperties: [`/Attributes/${n}`],
      Severity: "Warning",
    }));
    return true;
  }
  Object.assign(bios.current, bios.staged);
  bios.staged = {};
  bios.messages = [{ MessageId: "Success", Message: "Successfully Completed Request", Severity: "OK" }];
  return true;
}
