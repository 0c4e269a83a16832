/**
 * The hand-over of a rolling reimage between the resources of one node's chain, within one apply.
 *
 * With `rolling = true`, an image change of a deployed machine is not a replacement chain (drain in the member's
 * destroy, release and deploy in the deployment's, the gate in the acceptance's create, the join in the member's
 * create: six engine operations per node, which a waiting drain could starve of the engine's parallelism). The engine
 * orders the in-place updates deployment → acceptance → cluster member; the first two only record the change and
 * offer their step here, keyed by the machine id, and the member's update runs the whole node in one operation:
 * budget slot, drain, the offered reimage, the offered gate, rejoin, slot released. A node holding a slot therefore
 * never waits on another engine operation, so no parallelism can deadlock the rollout.
 *
 * An offer lives in this process only. Each offering resource plans its update again until its step is seen done
 * (the deployment while its backend reports the old image, the acceptance while its verdict is pending), so a retry
 * after a failure or a crash offers again.
 */
import type { Context, Diagnostics } from "../../framework/index.js";

/** What a step of a rolling update gets: the member's context (its deadline included) and diagnostics. */
export interface StepRequest {
  readonly context: Context;
  readonly diagnostics: Diagnostics;
  /** The machine being rolled ("maas:4y3h7n"): a failed firmware step quarantines it. */
  readonly machineId: string;
  /** Whether the node has already booted in this roll (a reimage's deploy), so staged firmware is active. */
  readonly rebooted: boolean;
}

/** The outcome of a step: done, or failed after a diagnostic (the node then stays out of service). */
export type StepOutcome = "done" | "failed";

/**
 * A step offered by a resource: the reimage by rackform_deployment, the firmware reset by rackform_firmware, the gate
 * by rackform_acceptance.
 */
export interface OfferedStep {
  /** What it does, as a log line and a diagnostic name it, e.g. "reimage to ubuntu-gpu 2026.07". */
  readonly what: string;
  /** Why the node stays out when the step fails, as the halt names it, e.g. "failed its acceptance gate". */
  readonly failure: string;
  run(r: StepRequest): Promise<StepOutcome>;
}

/** The steps offered for one machine in this apply. */
export interface Offers {
  /** A health remedy (rackform_deployment's remediation ladder: power cycle, or quarantine for repair). */
  readonly remedy?: OfferedStep;
  readonly reimage?: OfferedStep;
  readonly firmware?: OfferedStep;
  readonly gate?: OfferedStep;
}

/** Offers by machine id ("maas:4y3h7n"), taken once by the member that carries them out. */
export class RolloutHandovers {
  private readonly offers = new Map<string, { remedy?: OfferedStep; reimage?: OfferedStep; gate?: OfferedStep }>();
  /** Firmware resets by the baseline's ref (rackform_firmware knows its BMC, not the machine). */
  private readonly firmware = new Map<string, OfferedStep>();

  /** Offers the reimage of `machineId` (a later offer replaces an earlier one). */
  offerReimage(machineId: string, step: OfferedStep): void {
    this.offers.set(machineId, { ...this.offers.get(machineId), reimage: step });
  }

  /** Offers a health remedy of `machineId` (shared/remediation.ts). */
  offerRemedy(machineId: string, step: OfferedStep): void {
    this.offers.set(machineId, { ...this.offers.get(machineId), remedy: step });
  }

  /** Offers the gate run of `machineId`. */
  offerGate(machineId: string, step: OfferedStep): void {
    this.offers.set(machineId, { ...this.offers.get(machineId), gate: step });
  }

  /** Offers the firmware reset of the node whose baseline is `ref` (rackform_firmware's ref). */
  offerFirmware(ref: string, step: OfferedStep): void {
    this.firmware.set(ref, step);
  }

  /** Whether a health remedy or a reimage of `machineId` is offered in this apply and not taken yet. */
  remedyOffered(machineId: string): boolean {
    const o = this.offers.get(machineId);
    return o?.remedy !== undefined || o?.reimage !== undefined;
  }

  /** The steps offered for `machineId` (and its baseline `firmwareRef`), removed: each runs once. */
  take(machineId: string, firmwareRef?: string | null): Offers {
    const o = this.offers.get(machineId) ?? {};
    this.offers.delete(machineId);
    const firmware = firmwareRef ? this.firmware.get(firmwareRef) : undefined;
    if (firmwareRef) this.firmware.delete(firmwareRef);
    return firmware ? { ...o, firmware } : o;
  }
}
