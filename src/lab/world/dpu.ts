/**
 * BlueField-3 DPUs of a node: each its own BMC on its own loopback address, fed by the host's outlet. Mode, rshim and
 * BFB installs are stored as "what was asked, and when" and settled against the clock when read, like the rest of the
 * world. A mode change (Mode.Set) takes effect only after two Arm reboots and then a host power-on, as NVIDIA's
 * "BlueField Modes of Operation Configuration" procedure reads (reboot the Arm cores twice, then power cycle the host).
 */
import type { LabTime } from "../time.js";
import { macFor, serialFor, uuidFor } from "./ids.js";

/** BlueField-3 modes of operation as the BMC names them. */
export type DpuMode = "DpuMode" | "NicMode";
/** The modes Mode.Set accepts. */
export const DPU_MODES: readonly DpuMode[] = ["DpuMode", "NicMode"];
/** DPU_OS version a lab DPU ships with (the factory BFB). */
export const FACTORY_BFB = "DOCA_2.5.0_BSP_4.5.0_Ubuntu_22.04-1.20231129.prod";
/** DPU BMC firmware version the lab reports (BMC_Firmware). */
export const DPU_BMC_FIRMWARE = "BF-24.10-17";
/** DPU NIC firmware version the lab reports (DPU_NIC). */
export const DPU_NIC_FIRMWARE = "32.43.1014";

/** A BFB install started with SimpleUpdate. */
export interface BfbTask {
  readonly id: string;
  readonly imageUri: string;
  /** What DPU_OS reports once installed: the file's base name without `.bfb` (see the lab README). */
  readonly version: string;
  readonly startedAt: number;
  readonly durationMs: number;
  /** Why it fails (a message), or undefined when it succeeds. */
  readonly failure?: string;
  applied: boolean;
}

/** One DPU in the world. */
export interface LabDpu {
  /** `<node>-dpu<k>` (k from 0): the name the lab file, faults and the control API use. */
  readonly id: string;
  readonly nodeName: string;
  readonly index: number;
  readonly address: string;
  readonly serial: string;
  readonly uuid: string;
  /** The two 400GbE ports' MACs as the host sees them (PCIe functions of the card). */
  readonly macs: readonly string[];
  mode: DpuMode;
  /** Mode.Set accepted, waiting for two Arm reboots and a host power-on. */
  pending?: { mode: DpuMode; armResets: number };
  /** Last Arm reboot (ComputerSystem.Reset on Systems/Bluefield, or a host power-on). */
  armResetAt?: number;
  bfb: string;
  bmcRshim: boolean;
  hostRshim: "Enabled" | "Disabled";
  readonly tasks: BfbTask[];
}

/** Loopback address of DPU `k` (0-based) of node `n` in rack `rack`: 127.(12+k).<rack>.<n>. */
export const dpuAddress = (rack: number, n: number, k: number) => `127.${12 + k}.${rack}.${n}`;

/** A fresh DPU as shipped: factory BFB, the given mode, host rshim enabled, BMC rshim off. */
export function makeDpu(nodeName: string, index: number, address: string, mode: DpuMode): LabDpu {
  const id = `${nodeName}-dpu${index}`;
  return {
    id,
    nodeName,
    index,
    address,
    serial: serialFor(id, "MT", 14),
    uuid: uuidFor(id),
    macs: [0, 1].map((p) => macFor(`${id}/p${p}`)),
    mode,
    bfb: FACTORY_BFB,
    bmcRshim: false,
    hostRshim: "Enabled",
    tasks: [],
  };
}

/** Where the Arm cores are: running the OS, rebooting, or installing a BFB. */
export type ArmState = "running" | "booting" | "installing";

/** The DPU side of the world's clock: Arm state, BFB tasks, mode changes. */
export class DpuClock {
  private seq = 0;
  constructor(private readonly time: LabTime) {}

  /** 0–100 progress of a BFB task. */
  percent(t: BfbTask): number {
    if (t.durationMs <= 0) return 100;
    return Math.min(100, Math.floor(((this.time.now() - t.startedAt) * 100) / t.durationMs));
  }

  /** Applies finished installs (a successful one replaces DPU_OS and reboots the Arm cores into it). */
  settle(d: LabDpu): void {
    for (const t of d.tasks) {
      if (!t.applied && this.percent(t) >= 100) {
        t.applied = true;
        if (!t.failure) d.bfb = t.version;
      }
    }
  }

  /** Arm state now. */
  arm(d: LabDpu): ArmState {
    this.settle(d);
    if (d.tasks.some((t) => this.percent(t) < 100)) return "installing";
    const now = this.time.now();
    if (d.armResetAt !== undefined && now < d.armResetAt + this.time.duration("powerOnMs")) return "booting";
    return "running";
  }

  /** Starts a BFB install; `failure` makes it end in Exception with that message. */
  startInstall(d: LabDpu, imageUri: string, failure: string | undefined): BfbTask {
    const file = imageUri.split("/").pop() ?? imageUri;
    const task: BfbTask = {
      id: `${++this.seq}`,
      imageUri,
      version: file.replace(/\.bfb$/i, ""),
      startedAt: this.time.now(),
      durationMs: this.time.duration("firmwareUpdateMs"),
      ...(failure ? { failure } : {}),
      applied: false,
    };
    d.tasks.push(task);
    if (d.tasks.length > 50) d.tasks.shift();
    return task;
  }

  /** An Arm reboot (Systems/Bluefield ComputerSystem.Reset): counts toward a pending mode change. */
  rebootArm(d: LabDpu): void {
    d.armResetAt = this.time.now();
    if (d.pending) d.pending.armResets++;
  }

  /** The host powered on (PERST released): a mode change armed by two Arm reboots takes effect; the Arm reboots. */
  hostPoweredOn(d: LabDpu): void {
    if (d.pending && d.pending.armResets >= 2) {
      d.mode = d.pending.mode;
      d.pending = undefined;
    }
    d.armResetAt = this.time.now();
  }
}
