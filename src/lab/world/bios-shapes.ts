/**
 * How each vendor's BMC takes BIOS settings (src/lab/README.md, "BIOS settings — vendor shapes", names the documents):
 * where the settings object lives, which apply times the `@Redfish.Settings` annotation lists, what a PATCH carrying
 * `@Redfish.SettingsApplyTime` meets, and — on Dell iDRAC — the configuration job that a PATCH with OnReset creates
 * and the next host power-on runs (without a job, iDRAC leaves pending values pending across reboots).
 */
import { applyStaged, type BiosState } from "./bios.js";
import type { VendorStyle } from "./spec.js";

/** One vendor's BIOS settings shape. */
export interface BiosShape {
  /** Last segment of the settings object's URI under `Systems/{id}/Bios/` (the other one answers 404). */
  readonly settingsSegment: "Settings" | "SD";
  /** `@Redfish.Settings.SupportedApplyTimes`; undefined: the annotation has none. */
  readonly applyTimes?: readonly string[];
  /** A PATCH carrying `@Redfish.SettingsApplyTime`: judged (OnReset accepted) or refused as PropertyUnknown. */
  readonly applyTimeInPatch: "judged" | "refused";
  /** Dell: a PATCH with OnReset creates a config job; only a job applies pending values at power-on. */
  readonly configJobs: boolean;
  /** The settings object shows only the pending attributes, and no `Attributes` at all when none are pending. */
  readonly pendingOnly: boolean;
  /** The PATCH answer's message (HPE iLO's SystemResetRequired), or none (the settings object is returned). */
  readonly patchMessage?: { readonly id: string; readonly text: string };
}

const GENERIC: BiosShape = {
  settingsSegment: "Settings",
  applyTimes: ["OnReset"],
  applyTimeInPatch: "judged",
  configJobs: false,
  pendingOnly: false,
};

/** BIOS settings shape by vendor style. */
export const BIOS_SHAPES: Readonly<Record<VendorStyle, BiosShape>> = {
  dell: { ...GENERIC, configJobs: true },
  hpe: {
    ...GENERIC,
    applyTimes: undefined,
    patchMessage: {
      id: "iLO.2.14.SystemResetRequired",
      text: "One or more properties were changed and will not take effect until system is reset.",
    },
  },
  supermicro: {
    settingsSegment: "SD",
    applyTimeInPatch: "refused",
    configJobs: false,
    pendingOnly: true,
  },
  lenovo: GENERIC,
  "nvidia-dgx": GENERIC,
  contoso: GENERIC,
};

/** A Dell configuration job (DellJob / Job schema) that applies pending BIOS values at the next power-on. */
export interface BiosJob {
  /** `JID_<12 digits>`, as iDRAC names jobs. */
  readonly id: string;
  state: "Scheduled" | "Completed" | "Failed";
  readonly createdAt: number;
  startedAt?: number;
  completedAt?: number;
  message: { readonly id: string; readonly text: string };
}

/** The first Dell job id of a node; later ones count up from it, never reused (a deleted job's id included). */
const FIRST_JID = 710_000_000_001;
const jobsCreated = new WeakMap<BiosState, number>();

/** The config job waiting for a power-on, if any. */
export const scheduledJob = (bios: BiosState): BiosJob | undefined => bios.jobs.find((j) => j.state === "Scheduled");

/** Creates the config job that will apply the pending values at the next power-on (iDRAC: JCP001 "scheduled"). */
export function scheduleJob(bios: BiosState, now: number): BiosJob {
  const n = jobsCreated.get(bios) ?? 0;
  jobsCreated.set(bios, n + 1);
  const job: BiosJob = {
    id: `JID_${FIRST_JID + n}`,
    state: "Scheduled",
    createdAt: now,
    message: { id: "JCP001", text: "Task successfully scheduled." },
  };
  bios.jobs.push(job);
  return job;
}

/** Deletes a scheduled job: iDRAC then discards the pending values it would have applied. False when not deletable. */
export function deleteJob(bios: BiosState, id: string): boolean {
  const i = bios.jobs.findIndex((j) => j.id === id);
  if (i < 0 || bios.jobs[i].state !== "Scheduled") return false;
  bios.jobs.splice(i, 1);
  bios.staged = {};
  return true;
}

/**
 * The BIOS part of a host power-on: staged settings apply (or, `ignored`, stay pending with SettingsFailed) — on a
 * vendor with config jobs only when a job is scheduled, which then ends Completed (PR19) or Failed.
 */
export function biosAtPowerOn(bios: BiosState, vendor: VendorStyle, now: number, ignored: boolean): void {
  if (!BIOS_SHAPES[vendor].configJobs) {
    applyStaged(bios, now, ignored);
    return;
  }
  const job = scheduledJob(bios);
  if (!job) return;
  applyStaged(bios, now, ignored);
  job.startedAt = now;
  job.completedAt = now;
  job.state = ignored ? "Failed" : "Completed";
  job.message = ignored
    ? { id: "SettingsFailed", text: "The BIOS did not apply the pending configuration at the last reset." }
    : { id: "PR19", text: "Job completed successfully." };
}
