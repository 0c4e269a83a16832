/** Clean and service steps the lab conductor knows, and the evidence a burn-in step records. */
import { pyRepr } from "./errors.js";

/** A step as the API takes it in clean_steps / service_steps. */
export interface StepRequest {
  interface: string;
  step: string;
  args?: Record<string, unknown>;
}

/** What a step does on its next runs: fail with a message, report a result, take a given time. */
export interface StepOutcome {
  readonly fail?: string;
  readonly result?: Record<string, unknown>;
  readonly durationMs?: number;
}

/** One finished step, kept in driver_internal_info.lab_step_results (lab-only key: where acceptance reads evidence). */
export interface StepResult {
  interface: string;
  step: string;
  status: "passed" | "failed";
  result: Record<string, unknown>;
  started_at: string;
  finished_at: string;
}

// Burn-in steps exist in Ironic's agent deploy interface; burnin_gpu is the lab's GPU counterpart.
const BURNIN = ["burnin_cpu", "burnin_memory", "burnin_disk", "burnin_network", "burnin_gpu"];
const REDFISH_STEPS: Readonly<Record<string, readonly string[]>> = {
  deploy: ["erase_devices", "erase_devices_metadata", ...BURNIN],
  management: ["clear_job_queue", "reset_idrac"],
  bios: ["factory_reset", "apply_configuration"],
};
// Ironic's fake interfaces have no steps; the lab adds only the burn-in ones so acceptance can be tried without BMCs.
const FAKE_STEPS: Readonly<Record<string, readonly string[]>> = { deploy: BURNIN };

/** True when the driver's interfaces implement the step. */
export function supportsStep(driver: string, s: StepRequest): boolean {
  const table = driver === "redfish" ? REDFISH_STEPS : FAKE_STEPS;
  return table[s.interface]?.includes(s.step) ?? false;
}

/** The step as Ironic echoes it in messages: {'interface': 'deploy', 'step': 'erase_devices'} (args only when given). */
export function stepRepr(s: StepRequest): string {
  return pyRepr({ interface: s.interface, step: s.step, ...(s.args ? { args: s.args } : {}) });
}

/** Default measured values of a passing step (overridden by setStepOutcome). */
export function defaultResult(s: StepRequest, durationMs: number): Record<string, unknown> {
  const base = { duration_s: durationMs / 1000 };
  switch (s.step) {
    case "burnin_gpu":
      return { ...base, dcgm_level: Number(s.args?.dcgm_level ?? 3), gpus_passed: "all", xid_errors: 0 };
    case "burnin_network":
      return { ...base, nccl_busbw_gbps: 380 };
    default:
      return base;
  }
}

/** Validates a steps list from a request body; returns a message for a 400 or undefined. */
export function checkSteps(field: string, steps: unknown): string | undefined {
  if (!Array.isArray(steps)) return `Invalid ${field}: expected a list of steps`;
  for (const s of steps) {
    const o = s as Record<string, unknown>;
    if (!o || typeof o !== "object" || typeof o.interface !== "string" || typeof o.step !== "string") {
      return `Invalid ${field}: each step needs "interface" and "step" strings, got ${JSON.stringify(s)}`;
    }
  }
  return undefined;
}
