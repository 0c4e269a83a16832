/**
 * Faults injected at run time (through the control API) and consulted by the Redfish server and, for backend faults,
 * by the simulated MAAS/Ironic. A fault is scoped by node and/or PDU and optionally by request path and method.
 */

import { type Cure, checkHealthSpec, HEALTH_FAULT_FIELDS, HEALTH_FAULT_KINDS } from "./health-faults.js";

/** Component attestation faults (src/lab/attest): scoped by node and `component` (a ComponentIntegrity Id). */
export const ATTEST_FAULT_KINDS = ["attest-tamper", "attest-unknown-ca", "attest-replay", "attest-silent"] as const;

/** Faults the Redfish layer acts on. */
export const REDFISH_FAULT_KINDS = [
  "bmc-unreachable",
  "http-status",
  "latency",
  "connection-reset",
  "hang",
  "missing-gpu",
  "firmware-drift",
  "update-failure",
  "gpu-health",
  "bfb-install-failure",
  "bios-settings-ignored",
  "bad-signature",
  "component-busy",
  "power-lost-mid-update",
  ...ATTEST_FAULT_KINDS,
  ...HEALTH_FAULT_KINDS,
] as const;

/** Faults carried for the simulated backends and acceptance (MAAS, Ironic); the lab core stores and matches them. */
export const BACKEND_FAULT_KINDS = [
  "commission-failure",
  "deploy-failure",
  "marginal-nccl",
  "erase-failure",
  "xid-error",
] as const;

/** Every fault kind. */
export type FaultKind = (typeof REDFISH_FAULT_KINDS)[number] | (typeof BACKEND_FAULT_KINDS)[number];

/** What a client posts to inject a fault. */
export interface FaultSpec {
  readonly kind: FaultKind;
  /** Scope: node name, or a DPU id (`<node>-dpu<k>`). Omitted with `pdu` omitted = every BMC and PDU. */
  readonly node?: string;
  /** Scope: PDU id. */
  readonly pdu?: string;
  /** Only requests whose path starts with this. */
  readonly path?: string;
  /** Only requests with this method. */
  readonly method?: string;
  /**
   * http-status only: answer requests to this backend's API (MAAS region or Ironic) instead of BMCs and PDUs — a
   * backend 503/429 storm. A fault with `service` never touches a BMC; one without never touches a backend.
   */
  readonly service?: "maas" | "ironic";
  /** http-status: the status to answer (e.g. 503, 429). */
  readonly status?: number;
  /** http-status: Retry-After seconds. */
  readonly retryAfterS?: number;
  /** latency: added delay in real milliseconds. */
  readonly ms?: number;
  /** Fires this many times then disappears. @default unlimited */
  readonly count?: number;
  /** missing-gpu: how many GPUs vanish. @default 1 */
  readonly gpus?: number;
  /**
   * firmware-drift: component (bmc, bios, gpu, nic) and the version it reports. attest-*: the ComponentIntegrity Id
   * (`BMC`, `GPU_1`, `DPU_1`, …); absent = every attesting component of the node.
   */
  readonly component?: string;
  readonly version?: string;
  /** attest-tamper: the measurement index (1–4) whose digest differs from the reference. @default 2 */
  readonly index?: number;
  /** Backend faults: free-form value (e.g. marginal NCCL bus bandwidth in GB/s). */
  readonly value?: number;
  /** gpu-xid: the XID number (79 fallen off the bus, 48 DBE, 63/64 row remapping, others log-only). */
  readonly xid?: number;
  /** gpu-xid, nvlink-down: the GPU's index. @default 0 */
  readonly gpu?: number;
  /** memory-ecc: the DIMM's index. @default 0 */
  readonly dimm?: number;
  /** pcie-degraded: the PCIe device, by id (e.g. "NIC1") or by index in the PCIeDevices collection. @default 0 */
  readonly device?: string | number;
  /** Health faults: what clears the fault (world/health-faults.ts has each kind's default). */
  readonly cure?: Cure;
}

/** An active fault. */
export interface Fault extends FaultSpec {
  readonly id: string;
  hits: number;
  /** Simulated time it was injected (set by the world for health faults). */
  at?: number;
}

/** A fault spec that cannot be used; the message names the field. */
export class FaultSpecError extends Error {
  override readonly name = "FaultSpecError";
  readonly code = "RACKFORM_ERR_LAB_FAULT_INVALID";
}

/** A ComponentIntegrity Id of the lab's BMCs. */
const ATTEST_ID = /^(BMC|GPU_\d+|DPU_\d+)$/;

const KNOWN = new Set<string>([...REDFISH_FAULT_KINDS, ...BACKEND_FAULT_KINDS]);
const FIELDS = new Set([
  "kind",
  "node",
  "pdu",
  "path",
  "method",
  "service",
  "status",
  "retryAfterS",
  "ms",
  "count",
  "gpus",
  "component",
  "version",
  "value",
  "index",
  ...HEALTH_FAULT_FIELDS,
]);

/** Checks a posted fault; throws FaultSpecError naming the bad field. */
export function parseFaultSpec(input: unknown, known: { nodes: Set<string>; pdus: Set<string> }): FaultSpec {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    throw new FaultSpecError("fault must be a JSON object");
  const f = input as Record<string, unknown>;
  for (const k of Object.keys(f)) if (!FIELDS.has(k)) throw new FaultSpecError(`${k}: unknown field`);
  if (typeof f.kind !== "string" || !KNOWN.has(f.kind)) {
    throw new FaultSpecError(`kind: must be one of ${[...KNOWN].join(", ")}`);
  }
  if (f.node !== undefined && !known.nodes.has(String(f.node)))
    throw new FaultSpecError(`node: unknown node "${f.node}"`);
  if (f.pdu !== undefined && !known.pdus.has(String(f.pdu))) throw new FaultSpecError(`pdu: unknown PDU "${f.pdu}"`);
  const num = (k: string, min: number, max: number) => {
    const v = f[k];
    if (v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)) {
      throw new FaultSpecError(`${k}: must be an integer in ${min}..${max}`);
    }
  };
  num("status", 400, 599);
  num("retryAfterS", 0, 86_400);
  num("ms", 0, 600_000);
  num("count", 1, 1_000_000);
  num("gpus", 1, 16);
  if (f.kind === "http-status" && f.status === undefined) throw new FaultSpecError("status: required for http-status");
  if (f.service !== undefined) {
    if (f.kind !== "http-status") throw new FaultSpecError("service: only http-status faults can target a backend");
    if (f.service !== "maas" && f.service !== "ironic") throw new FaultSpecError('service: must be "maas" or "ironic"');
    if (f.node !== undefined || f.pdu !== undefined)
      throw new FaultSpecError("service: cannot be scoped to a node or PDU");
  }
  if (f.kind === "latency" && f.ms === undefined) throw new FaultSpecError("ms: required for latency");
  if (f.kind === "firmware-drift" && typeof f.component !== "string") {
    throw new FaultSpecError("component: required for firmware-drift (bmc, bios, gpu or nic)");
  }
  num("index", 1, 4);
  if (f.index !== undefined && f.kind !== "attest-tamper") throw new FaultSpecError("index: only for attest-tamper");
  const attest = (ATTEST_FAULT_KINDS as readonly string[]).includes(f.kind);
  if (attest && f.component !== undefined && (typeof f.component !== "string" || !ATTEST_ID.test(f.component)))
    throw new FaultSpecError('component: a ComponentIntegrity Id ("BMC", "GPU_1", "DPU_1", …)');
  const health = checkHealthSpec(f);
  if (health) throw new FaultSpecError(health);
  return f as unknown as FaultSpec;
}

/** Where a request or question is aimed. */
export interface FaultTarget {
  readonly node?: string;
  readonly pdu?: string;
  readonly path?: string;
  readonly method?: string;
  /** The backend API asked (absent for BMCs and PDUs). */
  readonly service?: "maas" | "ironic";
}

/** The set of active faults. */
export class Faults {
  private items: Fault[] = [];
  private seq = 0;
  private listeners: ((removed: readonly Fault[]) => void)[] = [];
  private addListeners: ((f: Fault) => void)[] = [];

  /** Adds a (validated) fault and returns it with its id. */
  add(spec: FaultSpec): Fault {
    const fault: Fault = { ...spec, id: `f${++this.seq}`, hits: 0 };
    this.items.push(fault);
    for (const fn of this.addListeners) fn(fault);
    return fault;
  }
  /** Called with each fault as it is added (the world logs health faults in the node's BMC log). */
  onAdded(fn: (f: Fault) => void): void {
    this.addListeners.push(fn);
  }
  /** Removes the faults `pred` picks (a cure); returns them. */
  removeWhere(pred: (f: Fault) => boolean): Fault[] {
    const gone = this.items.filter(pred);
    if (gone.length === 0) return gone;
    this.items = this.items.filter((f) => !pred(f));
    this.notify(gone);
    return gone;
  }
  /** Removes one fault; false when unknown. */
  remove(id: string): boolean {
    const gone = this.items.filter((f) => f.id === id);
    this.items = this.items.filter((f) => f.id !== id);
    if (gone.length > 0) this.notify(gone);
    return gone.length > 0;
  }
  /** Removes every fault. */
  clear(): void {
    const gone = this.items;
    this.items = [];
    this.notify(gone);
  }
  /** Active faults. */
  list(): readonly Fault[] {
    return this.items;
  }
  /** Called with the faults removed, after they are (hung requests are released then). */
  onRemoved(fn: (removed: readonly Fault[]) => void): void {
    this.listeners.push(fn);
  }
  /** The first fault of `kind` applying to `target`, without consuming it (for state faults). */
  find(kind: FaultKind, target: FaultTarget): Fault | undefined {
    return this.items.find((f) => f.kind === kind && applies(f, target));
  }
  /** Like find, but counts a hit and retires the fault when its count is used up. */
  take(kind: FaultKind, target: FaultTarget): Fault | undefined {
    const f = this.find(kind, target);
    if (!f) return undefined;
    f.hits++;
    if (f.count !== undefined && f.hits >= f.count) this.items = this.items.filter((x) => x !== f);
    return f;
  }
  private notify(removed: readonly Fault[]): void {
    for (const fn of this.listeners) fn(removed);
  }
}

function applies(f: FaultSpec, t: FaultTarget): boolean {
  if (f.service !== t.service) return false;
  if (f.node !== undefined && f.node !== t.node) return false;
  if (f.pdu !== undefined && f.pdu !== t.pdu) return false;
  if (f.path !== undefined && !(t.path ?? "").startsWith(f.path)) return false;
  if (f.method !== undefined && f.method.toUpperCase() !== t.method) return false;
  return true;
}
