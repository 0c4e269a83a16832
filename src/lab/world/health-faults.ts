/**
 * Health faults: hardware going bad under a running node, as a GPU cloud sees it every week — an XID from the GPU
 * driver, an uncorrectable DIMM error, a PCIe link trained below its width, an NVLink down, a thermal trip — and the
 * node's OS hanging. Each hardware fault shows in what the node's BMC serves (Status.Health of the component, a log
 * entry worded as the vendor words it) and some in the scheduler (glue/joins.ts); an OS hang shows only in the
 * schedulers (the BMC cannot see it). Each is cleared by a cure: a power cycle, a reimage, or nothing but removing the
 * fault (hardware, repaired by a person). src/lab/README.md ("Health faults") gives the reasons for each default.
 */

/** Health fault kinds (part of REDFISH_FAULT_KINDS). */
export const HEALTH_FAULT_KINDS = [
  "gpu-xid",
  "memory-ecc",
  "pcie-degraded",
  "nvlink-down",
  "thermal",
  "os-hang",
] as const;
/** A health fault kind. */
export type HealthFaultKind = (typeof HEALTH_FAULT_KINDS)[number];
/** Fields only health faults take. */
export const HEALTH_FAULT_FIELDS = ["xid", "gpu", "dimm", "device", "cure"] as const;

/** What clears a health fault: the host's power going off then on, a new deploy of the node, or nothing. */
export const CURES = ["power-cycle", "reimage", "none"] as const;
/** A cure. */
export type Cure = (typeof CURES)[number];

/** XID 79: the GPU has fallen off the bus (NVIDIA Xid catalogue). */
export const XID_FALLEN_OFF_BUS = 79;
/** XIDs that leave the GPU's health Critical: 48 double-bit ECC, 63 row remapping pending, 64 row remapping failed. */
export const XID_CRITICAL: ReadonlySet<number> = new Set([48, 63, 64]);

/** The fields of a fault the health model reads. */
export interface HealthFaultFields {
  readonly kind: string;
  readonly node?: string;
  readonly xid?: number;
  readonly gpu?: number;
  readonly dimm?: number;
  readonly device?: string | number;
  readonly cure?: Cure;
}

const isHealth = (k: unknown): k is HealthFaultKind => HEALTH_FAULT_KINDS.includes(k as HealthFaultKind);

/** Whether a fault is a health fault. */
export function isHealthFault(f: { readonly kind: string }): boolean {
  return isHealth(f.kind);
}

/**
 * Whether the node's BMC sees a health fault: every hardware one, not an OS hang (the host stays powered On and the
 * BMC has no sensor on the kernel: no Status.Health change, no log entry, no new ETag).
 */
export function bmcSees(f: { readonly kind: string }): boolean {
  return isHealth(f.kind) && f.kind !== "os-hang";
}

/** Whether the node's OS hangs (an os-hang fault on it): slurmd and the kubelet stop answering (glue/joins.ts). */
export function osHung(faults: readonly HealthFaultFields[], node: string): boolean {
  return faults.some((f) => f.kind === "os-hang" && f.node === node);
}

/** Which fields each health kind takes besides `cure`. */
const OWN_FIELDS: Readonly<Record<HealthFaultKind, readonly string[]>> = {
  "gpu-xid": ["xid", "gpu"],
  "memory-ecc": ["dimm"],
  "pcie-degraded": ["device"],
  "nvlink-down": ["gpu"],
  thermal: [],
  "os-hang": [],
};

/** The problem with a health fault's own fields (a message naming the field), or undefined when it is fine. */
export function checkHealthSpec(f: Readonly<Record<string, unknown>>): string | undefined {
  const kind = f.kind;
  for (const k of HEALTH_FAULT_FIELDS) {
    if (f[k] === undefined) continue;
    if (!isHealth(kind) || (k !== "cure" && !OWN_FIELDS[kind].includes(k))) {
      return `${k}: not a field of ${String(kind)} faults`;
    }
  }
  if (!isHealth(kind)) return undefined;
  if (f.node === undefined) return `node: required for ${kind} (a health fault is one machine's hardware)`;
  if (f.pdu !== undefined || f.path !== undefined || f.method !== undefined || f.count !== undefined) {
    return `${["pdu", "path", "method", "count"].find((k) => f[k] !== undefined)}: not a field of ${kind} faults`;
  }
  const int = (k: string, min: number, max: number) => {
    const v = f[k];
    return v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
      ? `${k}: must be an integer in ${min}..${max}`
      : undefined;
  };
  if (kind === "gpu-xid" && f.xid === undefined) return "xid: required for gpu-xid (e.g. 79, 48, 63, 64, 13)";
  const bad = int("xid", 1, 999) ?? int("gpu", 0, 15) ?? int("dimm", 0, 63);
  if (bad) return bad;
  const d = f.device;
  if (d !== undefined && !(typeof d === "string" && d.length > 0) && int("device", 0, 63) !== undefined) {
    return "device: must be a PCIe device id (e.g. NIC1) or an index ≥ 0";
  }
  if (f.cure !== undefined && !CURES.includes(f.cure as Cure)) return `cure: must be one of ${CURES.join(", ")}`;
  return undefined;
}

/**
 * The cure a health fault has when its spec names none: what clears the condition on real hardware most often.
 * XID 79 and 48/63 go with a GPU reset (a power cycle); XID 64 (row remapping failed) is an RMA; other XIDs are
 * software-side (application or driver) and gone with a fresh image; an uncorrectable DIMM error and a thermal trip are
 * hardware; a PCIe link and NVLink retrain at a reset; a hung kernel comes back after a power cycle.
 */
export function cureOf(f: HealthFaultFields): Cure {
  if (f.cure) return f.cure;
  switch (f.kind) {
    case "gpu-xid":
      if (f.xid === 64) return "none";
      return f.xid === XID_FALLEN_OFF_BUS || XID_CRITICAL.has(f.xid ?? 0) ? "power-cycle" : "reimage";
    case "pcie-degraded":
    case "nvlink-down":
    case "os-hang":
      return "power-cycle";
    default:
      return "none";
  }
}

/** The active health faults of a node. */
export function healthFaultsOf<F extends HealthFaultFields>(faults: readonly F[], node: string): F[] {
  return faults.filter((f) => isHealth(f.kind) && f.node === node);
}

/** Indices of the GPUs that have fallen off the bus (XID 79). */
export function fallenGpus(faults: readonly HealthFaultFields[], node: string): Set<number> {
  const out = new Set<number>();
  for (const f of healthFaultsOf(faults, node))
    if (f.kind === "gpu-xid" && f.xid === XID_FALLEN_OFF_BUS) out.add(f.gpu ?? 0);
  return out;
}

/** Worse of two Redfish Health values. */
export function worse(a: Health, b: Health): Health {
  const rank = { OK: 0, Warning: 1, Critical: 2 } as const;
  return rank[b] > rank[a] ? b : a;
}
/** A Redfish Health value. */
export type Health = "OK" | "Warning" | "Critical";

/** A GPU's Processor Status.Health by its index: Critical after XID 48/63/64, Warning with an NVLink down. */
export function gpuHealthOf(faults: readonly HealthFaultFields[], node: string, index: number): Health {
  let h: Health = "OK";
  for (const f of healthFaultsOf(faults, node)) {
    if ((f.gpu ?? 0) !== index) continue;
    if (f.kind === "gpu-xid" && XID_CRITICAL.has(f.xid ?? 0)) h = worse(h, "Critical");
    if (f.kind === "nvlink-down") h = worse(h, "Warning");
  }
  return h;
}

/** GPUs the NVIDIA device plugin would call unhealthy: fallen off the bus, or an XID 48/63/64. */
export function unhealthyGpus(faults: readonly HealthFaultFields[], node: string): Set<number> {
  const out = fallenGpus(faults, node);
  for (const f of healthFaultsOf(faults, node))
    if (f.kind === "gpu-xid" && XID_CRITICAL.has(f.xid ?? 0)) out.add(f.gpu ?? 0);
  return out;
}

/** A DIMM's Status.Health by index: Critical after an uncorrectable ECC error. */
export function dimmHealthOf(faults: readonly HealthFaultFields[], node: string, index: number): Health {
  const hit = healthFaultsOf(faults, node).some((f) => f.kind === "memory-ecc" && (f.dimm ?? 0) === index);
  return hit ? "Critical" : "OK";
}

/** Whether a PCIe device (by id, and its index in the collection) has a degraded link. */
export function pcieDegraded(faults: readonly HealthFaultFields[], node: string, id: string, index: number): boolean {
  return healthFaultsOf(faults, node).some(
    (f) => f.kind === "pcie-degraded" && (f.device === id || (f.device ?? 0) === index),
  );
}

/** Whether the node's chassis is in a thermal trip. */
export function thermalTrip(faults: readonly HealthFaultFields[], node: string): boolean {
  return healthFaultsOf(faults, node).some((f) => f.kind === "thermal");
}

/** The health a health fault gives its component: none for an OS hang, which the BMC does not see. */
function componentHealth(f: HealthFaultFields): Health {
  switch (f.kind) {
    case "gpu-xid":
      return f.xid === XID_FALLEN_OFF_BUS || XID_CRITICAL.has(f.xid ?? 0) ? "Critical" : "OK";
    case "memory-ecc":
    case "thermal":
      return "Critical";
    case "pcie-degraded":
    case "nvlink-down":
      return "Warning";
    default:
      return "OK";
  }
}

/** The worst health any of the node's health faults gives a component (the system's HealthRollup). */
export function worstHealth(faults: readonly HealthFaultFields[], node: string): Health {
  return healthFaultsOf(faults, node).map(componentHealth).reduce(worse, "OK");
}
