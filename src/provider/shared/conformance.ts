/**
 * Conformance of a node's discovered hardware and firmware to the baseline its flavor sets. Pure: the resource turns
 * the differences into one diagnostic per node, one measured-vs-expected line per difference, in a stable order.
 */
import type { FirmwareInfo, Inventory } from "../../clients/redfish/index.js";

/** What a flavor expects of a node; every field is optional and an absent one is not checked. */
export interface Baseline {
  /** Substring every GPU's model must contain, case-insensitive (e.g. "H100"). */
  readonly gpuModel?: string;
  readonly gpuCount?: number;
  /** BlueField DPUs the host lists among its PCIe devices. */
  readonly dpuCount?: number;
  readonly minMemoryGiB?: number;
  readonly cpuCount?: number;
  /** Network ports with a MAC address (EthernetInterfaces). */
  readonly nicCount?: number;
  /** The exact set of MAC addresses (any case, `:` or `-` separated). */
  readonly macs?: readonly string[];
  /** Component (FirmwareInventory Id or Name) → exact version. */
  readonly firmware?: Readonly<Record<string, string>>;
}

/** One difference between the node and its baseline. */
export interface Difference {
  /** The baseline field, as the user writes it in `expected` (e.g. `gpu_count`, `firmware["BIOS"]`). */
  readonly field: string;
  readonly found: string;
  readonly expected: string;
}

/** A MAC in canonical form: upper case, colon separated. */
export function normalMac(mac: string): string {
  return mac.trim().toUpperCase().replaceAll("-", ":");
}

/** Firmware entries a baseline key names: by Id first, else by Name (both case-insensitive). */
export function firmwareMatches(firmware: readonly FirmwareInfo[], key: string): FirmwareInfo[] {
  const k = key.toLowerCase();
  const byId = firmware.filter((f) => f.id.toLowerCase() === k);
  return byId.length > 0 ? byId : firmware.filter((f) => f.name?.toLowerCase() === k);
}

function gpuModelDiff(inv: Inventory, want: string): Difference | undefined {
  const expected = `a model containing "${want}"`;
  if (inv.gpus.length === 0) return { field: "gpu_model", found: "no GPU", expected };
  const bad = inv.gpus.filter((g) => !(g.model ?? "").toLowerCase().includes(want.toLowerCase()));
  if (bad.length === 0) return undefined;
  const models = [...new Set(bad.map((g) => g.model ?? "an unnamed model"))].map((m) => `"${m}"`).join(", ");
  const ids = bad.map((g) => g.id).join(", ");
  return { field: "gpu_model", found: `${models} on ${bad.length} of ${inv.gpus.length} GPUs (${ids})`, expected };
}

function macDiffs(inv: Inventory, want: readonly string[]): Difference[] {
  const have = new Set(inv.macs.map(normalMac));
  const wanted = new Set(want.map(normalMac));
  const missing = [...wanted].filter((m) => !have.has(m)).sort();
  const extra = [...have].filter((m) => !wanted.has(m)).sort();
  const out: Difference[] = [];
  if (missing.length > 0) out.push({ field: "macs", found: `no ${missing.join(", ")}`, expected: "present" });
  if (extra.length > 0) out.push({ field: "macs", found: extra.join(", "), expected: "not present" });
  return out;
}

/**
 * FirmwareInventory plus the versions the system and its manager report themselves, under the names of the
 * computed attributes (`bios_version`, `bmc_firmware_version`), so a baseline can require them on BMCs whose
 * FirmwareInventory is missing or names components its own way.
 */
function firmwareWithSummary(inv: Inventory): FirmwareInfo[] {
  const extra: FirmwareInfo[] = [];
  if (inv.biosVersion) extra.push({ id: "bios_version", version: inv.biosVersion });
  if (inv.bmcFirmwareVersion) extra.push({ id: "bmc_firmware_version", version: inv.bmcFirmwareVersion });
  return [...inv.firmware, ...extra];
}

function firmwareDiffs(inv: Inventory, want: Readonly<Record<string, string>>): Difference[] {
  const out: Difference[] = [];
  const firmware = firmwareWithSummary(inv);
  for (const key of Object.keys(want).sort()) {
    const field = `firmware[${JSON.stringify(key)}]`;
    const hits = firmwareMatches(firmware, key);
    if (hits.length === 0) {
      const known = firmware.map((f) => (f.name && f.name !== f.id ? `${f.id} (${f.name})` : f.id)).join(", ");
      out.push({ field, found: `no such component (the BMC lists: ${known || "none"})`, expected: want[key] });
      continue;
    }
    const versions = [...new Set(hits.map((f) => f.version ?? "no version"))];
    if (versions.length !== 1 || versions[0] !== want[key])
      out.push({ field, found: versions.join(", "), expected: want[key] });
  }
  return out;
}

/** Every difference between `inv` and `b`, in schema order (GPUs, memory, CPUs, NICs, MACs, firmware by key). */
export function conformanceDifferences(b: Baseline, inv: Inventory): Difference[] {
  const out: Difference[] = [];
  const num = (field: string, found: number | undefined, expected: number, atLeast = false) => {
    const bad = found === undefined || (atLeast ? found < expected : found !== expected);
    if (bad)
      out.push({
        field,
        found: found === undefined ? "unknown" : String(found),
        expected: `${atLeast ? "at least " : ""}${expected}`,
      });
  };
  if (b.gpuModel !== undefined) {
    const d = gpuModelDiff(inv, b.gpuModel);
    if (d) out.push(d);
  }
  if (b.gpuCount !== undefined) num("gpu_count", inv.gpus.length, b.gpuCount);
  if (b.dpuCount !== undefined) num("dpu_count", inv.dpuCount, b.dpuCount);
  if (b.minMemoryGiB !== undefined) num("min_memory_gib", inv.memoryGiB, b.minMemoryGiB, true);
  if (b.cpuCount !== undefined) num("cpu_count", inv.cpus.length, b.cpuCount);
  if (b.nicCount !== undefined) num("nic_count", inv.macs.length, b.nicCount);
  if (b.macs !== undefined) out.push(...macDiffs(inv, b.macs));
  if (b.firmware !== undefined) out.push(...firmwareDiffs(inv, b.firmware));
  return out;
}

/** The measured-vs-expected lines of a diagnostic: `gpu_count: found 7, expected 8`. */
export function formatDifferences(diffs: readonly Difference[]): string {
  return diffs.map((d) => `${d.field}: found ${d.found}, expected ${d.expected}`).join("\n");
}
