/** A generator of realistic GPU racks, from one node to thousands, for demos, tests and benchmarks. */
import type { HardwareSpec, LabSpec, NodeSpec, PduSpec, RackSpec, VendorStyle } from "./spec.js";

/** Options of `defaultSpec`. */
export interface DefaultSpecOptions {
  /** Number of nodes. @default 8 */
  readonly nodes?: number;
  /** Number of racks. @default ceil(nodes / nodesPerRack) */
  readonly racks?: number;
  /** @default 8 */
  readonly nodesPerRack?: number;
  /** @default 2 */
  readonly pdusPerRack?: number;
  /** Vendor personalities, assigned round-robin. @default all styles */
  readonly vendors?: readonly VendorStyle[];
  /** BMC/PDU credentials. @default admin / "Lab0nly-Passw0rd" */
  readonly username?: string;
  readonly password?: string;
  /** Outlet state at start. @default "Off" */
  readonly initialOutlet?: "On" | "Off";
  /** BlueField-3 DPUs per node (each with its own BMC). @default 0 */
  readonly dpus?: number;
  /** The DPUs' mode at lab start. @default "DpuMode" */
  readonly dpuMode?: "DpuMode" | "NicMode";
  /**
   * Per-node changes to the generated hardware: firmware versions replacing the vendor's factory ones, and BIOS
   * attribute values (spec `hardware.bios`, names from the node's vendor registry). Called once per node, in order.
   * @default none: every node of a vendor alike
   */
  readonly nodeOverrides?: (
    index: number,
    node: { readonly name: string; readonly vendor: VendorStyle },
  ) => NodeOverride | undefined;
}

/** What `DefaultSpecOptions.nodeOverrides` may change on one node. */
export interface NodeOverride {
  readonly firmware?: Partial<HardwareSpec["firmware"]>;
  readonly bios?: NonNullable<HardwareSpec["bios"]>;
}

const ALL_VENDORS: readonly VendorStyle[] = ["nvidia-dgx", "dell", "supermicro", "hpe", "lenovo", "contoso"];

const CHASSIS: Record<VendorStyle, { manufacturer: string; model: string; bmc: string; bios: string }> = {
  "nvidia-dgx": { manufacturer: "NVIDIA", model: "DGXH100", bmc: "24.09.17", bios: "1.6.7" },
  dell: { manufacturer: "Dell Inc.", model: "PowerEdge XE9680", bmc: "7.10.30.00", bios: "2.3.5" },
  supermicro: { manufacturer: "Supermicro", model: "SYS-821GE-TNHR", bmc: "01.03.16", bios: "2.1" },
  hpe: { manufacturer: "HPE", model: "Cray XD670", bmc: "1.62", bios: "U59 v2.30" },
  lenovo: { manufacturer: "Lenovo", model: "ThinkSystem SR680a V3", bmc: "3.10", bios: "ESE120J-3.10" },
  contoso: { manufacturer: "Contoso", model: "3500", bmc: "1.45.455b66-rev4", bios: "P79 v1.45" },
};

/** The HGX H100 8-GPU hardware of one vendor's chassis. */
export function hgxH100(vendor: VendorStyle): HardwareSpec {
  const c = CHASSIS[vendor];
  return {
    manufacturer: c.manufacturer,
    model: c.model,
    cpu: { model: "Intel(R) Xeon(R) Platinum 8480+", sockets: 2, coresPerSocket: 56 },
    memory: { dimms: 32, dimmGiB: 64 },
    disks: [
      { model: "SAMSUNG MZ1L21T9HCLS", capacityGiB: 1788, media: "SSD" },
      { model: "SAMSUNG MZ1L21T9HCLS", capacityGiB: 1788, media: "SSD" },
      ...Array.from({ length: 8 }, () => ({ model: "KIOXIA KCM7XRUG3T84", capacityGiB: 3576, media: "SSD" as const })),
    ],
    nics: [
      { name: "boot", model: "Mellanox ConnectX-6 Dx", speedMbps: 25_000, ports: 2 },
      ...Array.from({ length: 8 }, (_, i) => ({
        name: `ib${i}`,
        model: "NVIDIA ConnectX-7",
        speedMbps: 400_000,
        ports: 1,
      })),
    ],
    gpus: { model: "NVIDIA H100 80GB HBM3", count: 8, memoryGiB: 80, nvlinkVersion: 4, nvlinkLinksPerGpu: 18 },
    firmware: { bmc: c.bmc, bios: c.bios, gpu: "96.00.89.00.01", nic: "28.39.1002" },
  };
}

const pad = (n: number, width: number) => String(n).padStart(width, "0");

/** The HGX H100 hardware of a node of `vendor`, with `o`'s firmware versions and BIOS values. */
function nodeHardware(vendor: VendorStyle, o: NodeOverride | undefined): HardwareSpec {
  const base = hgxH100(vendor);
  if (!o) return base;
  const firmware = Object.fromEntries(Object.entries(o.firmware ?? {}).filter(([, v]) => v !== undefined));
  return { ...base, firmware: { ...base.firmware, ...firmware }, ...(o.bios ? { bios: { ...o.bios } } : {}) };
}

/** A lab of `nodes` HGX H100 nodes, 8 per rack and 2 PDUs per rack by default; deterministic for given options. */
export function defaultSpec(opts: DefaultSpecOptions = {}): LabSpec {
  const total = opts.nodes ?? 8;
  const perRack = opts.nodesPerRack ?? 8;
  const pdusPerRack = opts.pdusPerRack ?? 2;
  const rackCount = opts.racks ?? Math.max(1, Math.ceil(total / perRack));
  if (!Number.isInteger(total) || total < 0) throw new Error(`nodes must be a non-negative integer, got ${total}`);
  if (rackCount > 255) throw new Error(`at most 255 racks fit the 127.10.<rack>.<n> plan; ${rackCount} requested`);
  if (rackCount * perRack < total) throw new Error(`${total} nodes do not fit ${rackCount} racks of ${perRack}`);
  const vendors = opts.vendors ?? ALL_VENDORS;
  const outletsPerPdu = Math.max(24, Math.ceil(perRack / pdusPerRack));
  const width = rackCount >= 100 ? 3 : 2;
  const racks: RackSpec[] = [];
  const pdus: PduSpec[] = [];
  const nodes: NodeSpec[] = [];
  for (let r = 1; r <= rackCount; r++) {
    const rack = `r${pad(r, width)}`;
    racks.push({ name: rack, index: r });
    for (let p = 0; p < pdusPerRack; p++) {
      pdus.push({ id: `${rack}-pdu-${String.fromCharCode(97 + p)}`, rack, outlets: outletsPerPdu });
    }
  }
  for (let i = 0; i < total; i++) {
    const r = Math.floor(i / perRack);
    const j = i % perRack;
    const rack = racks[r].name;
    const vendor = vendors[i % vendors.length];
    const name = `${rack}-n${pad(j + 1, 2)}`;
    nodes.push({
      name,
      rack,
      // 5U per HGX node, as in a real rack; closer when more nodes are asked for than a rack of 50U holds that way.
      u: 2 + j * Math.max(1, Math.min(5, Math.floor(50 / perRack))),
      pdu: pdus[r * pdusPerRack + (j % pdusPerRack)].id,
      outlet: Math.floor(j / pdusPerRack) + 1,
      vendor,
      hardware: nodeHardware(vendor, opts.nodeOverrides?.(i, { name, vendor })),
      ...(opts.initialOutlet ? { initialOutlet: opts.initialOutlet } : {}),
      ...(opts.dpus ? { dpus: opts.dpus } : {}),
      ...(opts.dpuMode ? { dpuMode: opts.dpuMode } : {}),
    });
  }
  return {
    version: 1,
    credentials: { username: opts.username ?? "admin", password: opts.password ?? "Lab0nly-Passw0rd" },
    racks,
    pdus,
    nodes,
  };
}
