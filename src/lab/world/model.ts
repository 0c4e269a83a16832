/**
 * The world's state: PDUs with outlets, nodes behind outlets, their BMCs, hosts and firmware. State that changes over
 * simulated time is stored as "what was asked, and when", and read through methods that settle it against the clock —
 * so 1,000 nodes need no timers and a manual clock drives everything in tests.
 */
import { LabAttestation } from "../attest/responder.js";
import type { LabTime } from "../time.js";
import type { BiosState } from "./bios.js";
import { BIOS_SHAPES, biosAtPowerOn, scheduledJob } from "./bios-shapes.js";
import { DpuClock, dpuAddress, type LabDpu, makeDpu } from "./dpu.js";
import { type FaultSpec, Faults, type FaultTarget } from "./faults.js";
import { cureHealth, EventLogs, wireHealth } from "./health.js";
import { type Cure, fallenGpus } from "./health-faults.js";
import { serialFor } from "./ids.js";
import { makeNode } from "./make-node.js";
import { hasQuirk } from "./quirks.js";
import { LabSecureBoot } from "./secure-boot.js";
import type { LabSpec, NodeSpec, PduSpec } from "./spec.js";
import type { VendorIds } from "./vendors.js";

/** Host power as Redfish names it. */
export type PowerState = "On" | "Off" | "PoweringOn" | "PoweringOff";
/** BMC life: no power, booting after outlet-on or reset, or answering. */
export type BmcState = "off" | "booting" | "up";
/** Firmware components tracked per node. */
export type Component = "bmc" | "bios" | "gpu" | "nic";
/** Every component, in inventory order. */
export const COMPONENTS: readonly Component[] = ["bmc", "bios", "gpu", "nic"];

/** One outlet of a PDU. */
export interface OutletState {
  on: boolean;
  since: number;
  /** PowerCycle in progress: the outlet comes back on at this time. */
  pendingOnAt?: number;
}

/** A PDU in the world. */
export interface LabPdu {
  readonly spec: PduSpec;
  readonly address: string;
  readonly serial: string;
  readonly outlets: OutletState[];
}

/** A NIC port with its MAC. */
export interface NicPort {
  readonly id: string;
  readonly nic: string;
  readonly model: string;
  readonly mac: string;
  readonly speedMbps: number;
}

/** One GPU. */
export interface Gpu {
  readonly id: string;
  readonly serial: string;
  readonly uuid: string;
}

/** A SimpleUpdate task. */
export interface UpdateTask {
  readonly id: string;
  readonly component: Component;
  readonly version: string;
  readonly imageUri: string;
  readonly startedAt: number;
  readonly durationMs: number;
  readonly fails: boolean;
  /** TaskState a failed task ends in: "Failed" with the `update-task-fails` quirk (a vendor value), else Exception. */
  readonly failedState?: "Exception" | "Failed";
  /** Pushed images: when the new version takes effect. @default "Immediate" (SimpleUpdate) */
  readonly applyTime?: "Immediate" | "OnReset";
  /** Why a failing task fails (a message naming the image); a generic verification failure when absent. */
  readonly failure?: string;
  /** OnReset images: waiting for the host's next power-on, activated then, or lost and rolled back. */
  activation?: "staged" | "activated" | "rolled-back";
  applied: boolean;
}

/** Boot override settings. */
export interface BootSettings {
  target: string;
  enabled: "Disabled" | "Once" | "Continuous";
  mode: "UEFI" | "Legacy";
  order: string[];
}

/** A node: its BMC, host and hardware. */
export interface LabNode {
  readonly spec: NodeSpec;
  readonly address: string;
  readonly ids: VendorIds;
  readonly systemId: string;
  readonly chassisId: string;
  readonly serial: string;
  readonly uuid: string;
  readonly ports: readonly NicPort[];
  readonly gpus: readonly Gpu[];
  readonly firmware: Record<Component, string>;
  power: { on: boolean; since: number };
  bmcResetAt?: number;
  boot: BootSettings;
  /** What the last power-on booted from (a one-time override is consumed by it). */
  lastBootSource: string;
  assetTag: string;
  /** The BMC's virtual CD. */
  virtualMedia: { image: string | null; inserted: boolean; writeProtected: boolean };
  /** Bumped on every change visible in ComputerSystem, for its ETag. */
  generation: number;
  readonly tasks: UpdateTask[];
  /** BIOS attributes: current, staged for the next power-on, messages of the last apply. */
  readonly bios: BiosState;
}

/** Loopback address of node `n` (1-based) in rack `rack`: 127.10.<rack>.<n>. */
export const bmcAddress = (rack: number, n: number) => `127.10.${rack}.${n}`;
/** Loopback address of PDU `k` (1-based) in rack `rack`: 127.11.<rack>.<k>. */
export const pduAddress = (rack: number, k: number) => `127.11.${rack}.${k}`;

/** The simulated datacenter. */
export class World {
  readonly nodes = new Map<string, LabNode>();
  readonly pdus = new Map<string, LabPdu>();
  /** BlueField DPUs by id (`<node>-dpu<k>`). */
  readonly dpus = new Map<string, LabDpu>();
  readonly faults = new Faults();
  /** Each node's BMC system event log (world/health.ts). */
  readonly logs = new EventLogs();
  /** Component attestation: the lab's device PKI (keys made on first use, never served) and the last SPDM answers. */
  readonly attestation = new LabAttestation();
  /** UEFI Secure Boot of every host: key databases, the enable switch applied at reset, image signers. */
  readonly secureBoot = new LabSecureBoot();
  /** The DPUs' clock: Arm state, BFB installs, mode changes. */
  readonly dpuClock: DpuClock;
  private taskSeq = 0;
  /** Passwords rotated through the control API, by BMC or PDU address (others keep spec.credentials). */
  private readonly passwords = new Map<string, string>();
  /** Called with the address whose password was rotated (the Redfish fleet ends that service's sessions). */
  private readonly rotated: ((address: string) => void)[] = [];

  constructor(
    readonly spec: LabSpec,
    readonly time: LabTime,
  ) {
    const now = time.now();
    this.dpuClock = new DpuClock(time);
    wireHealth(this);
    const rackIndex = new Map(spec.racks.map((r) => [r.name, r.index]));
    const perRack = new Map<string, number>();
    const next = (key: string) => {
      const n = (perRack.get(key) ?? 0) + 1;
      perRack.set(key, n);
      return n;
    };
    for (const p of spec.pdus) {
      const address = p.address ?? pduAddress(rackIndex.get(p.rack) ?? 0, next(`pdu:${p.rack}`));
      const outlets = Array.from({ length: p.outlets }, () => ({ on: false, since: now }));
      this.pdus.set(p.id, { spec: p, address, serial: serialFor(p.id, "PDU"), outlets });
    }
    for (const n of spec.nodes) {
      const seq = next(`node:${n.rack}`);
      const address = n.address ?? bmcAddress(rackIndex.get(n.rack) ?? 0, seq);
      this.nodes.set(n.name, makeNode(n, address, now));
      for (let k = 0; k < (n.dpus ?? 0); k++) {
        const d = makeDpu(n.name, k, dpuAddress(rackIndex.get(n.rack) ?? 0, seq, k), n.dpuMode ?? "DpuMode");
        this.dpus.set(d.id, d);
      }
      if (n.initialOutlet === "On") this.outletOf(n.name).on = true;
    }
  }

  /** Simulated now. */
  now(): number {
    return this.time.now();
  }

  /** The node or undefined. */
  node(name: string): LabNode | undefined {
    return this.nodes.get(name);
  }

  /** The outlet feeding a node (settled). */
  outletOf(nodeName: string): OutletState {
    const n = this.mustNode(nodeName);
    return this.outlet(n.spec.pdu, n.spec.outlet);
  }

  /** An outlet, with a finished PowerCycle applied. */
  outlet(pduId: string, n: number): OutletState {
    const pdu = this.pdus.get(pduId);
    const o = pdu?.outlets[n - 1];
    if (!o) throw new Error(`unknown outlet ${pduId}/${n}`);
    if (o.pendingOnAt !== undefined && o.pendingOnAt <= this.now()) {
      o.on = true;
      o.since = o.pendingOnAt;
      o.pendingOnAt = undefined;
    }
    return o;
  }

  /** Switches an outlet; a node behind it loses host power and its BMC when it goes off. */
  setOutlet(pduId: string, n: number, action: "On" | "Off" | "PowerCycle"): void {
    const o = this.outlet(pduId, n);
    const now = this.now();
    if (action === "On") {
      if (!o.on) Object.assign(o, { on: true, since: now, pendingOnAt: undefined });
      return;
    }
    if (o.on || o.pendingOnAt !== undefined) Object.assign(o, { on: false, since: now, pendingOnAt: undefined });
    if (action === "PowerCycle") o.pendingOnAt = now + this.time.duration("outletCycleMs");
    const fed = [...this.nodes.values()].find((x) => x.spec.pdu === pduId && x.spec.outlet === n);
    if (fed) {
      fed.power = { on: false, since: now };
      fed.generation++;
    }
  }

  /** BMC state: needs outlet power for bmcBootMs, no reset in progress, and no bmc-unreachable fault. */
  bmcState(node: LabNode): BmcState {
    const o = this.outlet(node.spec.pdu, node.spec.outlet);
    if (!o.on) return "off";
    if (this.faults.find("bmc-unreachable", { node: node.spec.name })) return "off";
    const now = this.now();
    if (now < o.since + this.time.duration("bmcBootMs")) return "booting";
    if (node.bmcResetAt !== undefined && now < node.bmcResetAt + this.time.duration("bmcResetMs")) return "booting";
    return "up";
  }

  /** Host power state, settled against the clock. */
  powerState(node: LabNode): PowerState {
    if (!this.outlet(node.spec.pdu, node.spec.outlet).on) return "Off";
    const elapsed = this.now() - node.power.since;
    if (node.power.on) return elapsed >= this.time.duration("powerOnMs") ? "On" : "PoweringOn";
    return elapsed >= this.time.duration("powerOffMs") ? "Off" : "PoweringOff";
  }

  /** Powers the host on or off; a one-time boot override is consumed at power-on. */
  setHostPower(node: LabNode, on: boolean): void {
    node.power = { on, since: this.now() };
    if (on) {
      for (const d of this.dpusOf(node.spec.name)) this.dpuClock.hostPoweredOn(d);
      node.lastBootSource = node.boot.enabled !== "Disabled" ? node.boot.target : (node.boot.order[0] ?? "Hdd");
      if (node.boot.enabled === "Once") node.boot = { ...node.boot, enabled: "Disabled", target: "None" };
      this.atPowerOn(node);
      this.cure(node, "power-cycle");
    }
    node.generation++;
  }

  /** The DPUs a node carries, in slot order. */
  dpusOf(nodeName: string): LabDpu[] {
    return [...this.dpus.values()].filter((d) => d.nodeName === nodeName);
  }

  /** A DPU's BMC: powered with its host's outlet (standby power), booting for bmcBootMs, or faulted unreachable. */
  dpuBmcState(d: LabDpu): BmcState {
    const host = this.mustNode(d.nodeName);
    const o = this.outlet(host.spec.pdu, host.spec.outlet);
    if (!o.on) return "off";
    if (this.faults.find("bmc-unreachable", { node: d.id })) return "off";
    return this.now() < o.since + this.time.duration("bmcBootMs") ? "booting" : "up";
  }

  /** The account a BMC or PDU accepts now: the lab's user with its current password. */
  credentials(address: string): { readonly username: string; readonly password: string } {
    const { username, password } = this.spec.credentials;
    return { username, password: this.passwords.get(address) ?? password };
  }

  /** Rotates the password of the BMC or PDU at `address`, as an operator does on the device; its sessions end. */
  setPassword(address: string, password: string): void {
    this.passwords.set(address, password);
    for (const f of this.rotated) f(address);
  }

  /** Registers a listener of password rotations. */
  onPasswordRotated(f: (address: string) => void): void {
    this.rotated.push(f);
  }

  /** BMC reset: unreachable for bmcResetMs. */
  resetBmc(node: LabNode): void {
    node.bmcResetAt = this.now();
  }

  /** GPUs the host shows (a missing-gpu fault hides the last ones, an XID 79 the one fallen off the bus). */
  visibleGpus(node: LabNode): readonly Gpu[] {
    const f = this.faults.find("missing-gpu", { node: node.spec.name });
    const shown = f ? node.gpus.slice(0, Math.max(0, node.gpus.length - (f.gpus ?? 1))) : node.gpus;
    const fallen = fallenGpus(this.faults.list(), node.spec.name);
    return fallen.size === 0 ? shown : shown.filter((g) => !fallen.has(node.gpus.indexOf(g)));
  }

  /** Clears the node's health faults that `how` cures (world/health.ts). */
  cure(node: LabNode, how: Cure): void {
    cureHealth(this, node, how);
  }

  /** Reported firmware version of a component (after finished updates and drift faults). */
  firmwareVersion(node: LabNode, c: Component): string {
    this.settleTasks(node);
    const drift = this.faults.list().find((f) => isDrift(f, node.spec.name, c));
    return drift ? (drift.version ?? `${node.firmware[c]}-drift`) : node.firmware[c];
  }

  /**
   * What a power-on does before the host runs: images staged OnReset are activated (or, with the
   * `power-lost-mid-update` fault, lost: the old version stays) and staged BIOS settings applied (or, with
   * `bios-settings-ignored`, left pending with SettingsFailed messages) — on Dell only through a scheduled config job
   * (world/bios-shapes.ts).
   */
  private atPowerOn(node: LabNode): void {
    const scope = { node: node.spec.name };
    this.settleTasks(node);
    for (const t of node.tasks) {
      if (t.activation !== "staged") continue;
      const lost = this.faults.take("power-lost-mid-update", scope) !== undefined;
      if (!lost) node.firmware[t.component] = t.version;
      t.activation = lost ? "rolled-back" : "activated";
      t.applied = true;
    }
    // On a vendor with config jobs (Dell) only a scheduled job applies pending values, so only then is a fault used.
    const jobless = !BIOS_SHAPES[node.spec.vendor].configJobs || scheduledJob(node.bios) !== undefined;
    const pending = Object.keys(node.bios.staged).length > 0 && jobless;
    const ignored = pending && this.faults.take("bios-settings-ignored", scope) !== undefined;
    biosAtPowerOn(node.bios, node.spec.vendor, this.now(), ignored);
    this.secureBoot.atReset(node);
  }

  /** Starts a firmware update task; it completes after firmwareUpdateMs of simulated time. */
  startUpdate(
    node: LabNode,
    component: Component,
    version: string,
    imageUri: string,
    push: { readonly applyTime?: "Immediate" | "OnReset"; readonly failure?: string } = {},
  ): UpdateTask {
    const fails =
      push.failure !== undefined ||
      this.faults.take("update-failure", { node: node.spec.name }) !== undefined ||
      hasQuirk(node, "update-task-fails");
    const task: UpdateTask = {
      id: `${++this.taskSeq}`,
      component,
      version,
      imageUri,
      startedAt: this.now(),
      durationMs: this.time.duration("firmwareUpdateMs"),
      fails,
      ...(hasQuirk(node, "update-task-fails") ? { failedState: "Failed" as const } : {}),
      ...push,
      applied: false,
    };
    node.tasks.push(task);
    if (node.tasks.length > 100) node.tasks.shift();
    return task;
  }

  /** 0–100 progress of a task. */
  taskPercent(t: UpdateTask): number {
    if (t.durationMs <= 0) return 100;
    return Math.min(100, Math.floor(((this.now() - t.startedAt) * 100) / t.durationMs));
  }

  /** Applies finished updates; a finished OnReset image is staged for the next power-on instead. */
  settleTasks(node: LabNode): void {
    for (const t of node.tasks) {
      if (t.applied || t.fails || this.taskPercent(t) < 100) continue;
      if (t.applyTime === "OnReset") t.activation ??= "staged";
      else {
        node.firmware[t.component] = t.version;
        t.applied = true;
      }
    }
  }

  /** Whether a fault of any Redfish kind matches (for callers outside the Redfish layer). */
  hasFault(kind: FaultSpec["kind"], target: FaultTarget): boolean {
    return this.faults.find(kind, target) !== undefined;
  }

  private mustNode(name: string): LabNode {
    const n = this.nodes.get(name);
    if (!n) throw new Error(`unknown node ${name}`);
    return n;
  }
}

function isDrift(f: FaultSpec, node: string, c: Component): boolean {
  return f.kind === "firmware-drift" && (f.node === undefined || f.node === node) && f.component === c;
}
