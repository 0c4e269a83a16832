/** The vocabulary of the lab MAAS lifecycle: simulated durations, fault switches, script outcomes, listeners. */
import type { MachineRecord } from "./store.js";

/** Simulated durations of the long operations. */
export interface MaasDelays {
  commissionMs: number;
  deployMs: number;
  releaseMs: number;
  eraseMs: number;
  /** Duration of a testing run (op=test, or the tests after commissioning). @default commissionMs */
  testMs?: number;
}

/** Operations whose next run can be made to fail with `failNext`. */
export type FaultOp = "commission" | "deploy" | "release" | "erase" | "test";

/** What a testing script reports when it next runs on a machine (set through `setScriptOutcome`). */
export interface ScriptOutcome {
  status: "passed" | "failed" | "timedout" | "degraded" | "skipped" | number;
  output?: string;
  exitStatus?: number;
}

/** Decides a script's outcome from the machine and the run's parameters (the lab's acceptance plugs in here). */
export type ScriptRunner = (
  m: Readonly<MachineRecord>,
  scriptName: string,
  parameters: Readonly<Record<string, unknown>>,
) => ScriptOutcome | undefined;

/** Told of every status change (after it happened). */
export type StatusListener = (m: Readonly<MachineRecord>, from: number, to: number) => void;

/** Built-in commissioning scripts every commissioning run records. */
export const COMMISSIONING_SCRIPTS = ["00-maas-00-support-info", "00-maas-01-cpuinfo", "00-maas-07-block-devices"];
/** Testing scripts that run after commissioning unless testing_scripts says otherwise. */
export const DEFAULT_COMMISSION_TESTS = ["smartctl-validate"];

/** What commissioning finds on a machine (real MAAS: the lshw/lldp commissioning results), as the hardware really is. */
export interface HardwareReport {
  /** Logical processors (MAAS's cpu_count). */
  readonly cpuCount: number;
  readonly memoryMiB: number;
  /** hardware_info keys (system_vendor, system_product, system_serial, cpu_model, mainboard_*). */
  readonly info: Readonly<Record<string, string>>;
  /** Every NIC port: MAC, vendor and product as lshw names them. */
  readonly nics: readonly { readonly mac: string; readonly vendor: string; readonly product: string }[];
}

/** Looks at the machine's real hardware at the end of commissioning; undefined = nothing to learn (fields unchanged). */
export type HardwareProbe = (m: Readonly<MachineRecord>) => HardwareReport | undefined;
