/** The vocabulary of the lab conductor: simulated durations, fault switches, step runners, listeners. */
import type { StepOutcome, StepRequest } from "./steps.js";
import type { NodeRecord } from "./store.js";

/** Operations failNext can break. */
export type FaultOp = "manage" | "inspect" | "clean" | "deploy" | "delete" | "service" | "power";

/** Durations of the conductor's work (ms of the injected clock). */
export interface IronicDelays {
  verifyMs: number;
  inspectMs: number;
  cleanMs: number;
  deployMs: number;
  deleteMs: number;
  powerMs: number;
  allocationMs: number;
  /** Default duration of one clean or service step (burn-in) unless setStepOutcome says otherwise. */
  stepMs: number;
}

/** Decides what a clean/service step does on a node when no setStepOutcome applies (the lab's acceptance plugs in). */
export type StepRunner = (n: Readonly<NodeRecord>, step: Readonly<StepRequest>) => StepOutcome | undefined;

/** Told of every provision state change (after it happened). */
export type ProvisionListener = (n: Readonly<NodeRecord>, from: string, to: string) => void;

/**
 * The deploy (IPA) kernel and ramdisk ironic.conf gives every node (`[conductor]deploy_kernel`, `deploy_ramdisk`).
 * As Ironic's redfish-virtual-media boot does, they apply only when a node's driver_info names neither of the two:
 * a node naming one takes nothing from the conductor (a half-set pair is an operator's mistake, reported as missing).
 */
export interface ConductorDeployDefaults {
  readonly deployKernel?: string;
  readonly deployRamdisk?: string;
}
