/**
 * rackform_firmware's create and update: check everything (firmware-checks.ts), then follow any update task a crashed
 * run left, push each image for the next reset in vendor order, stage the BIOS settings, and either reset the host
 * once and verify (a host that is off, or `rolling = false`) or offer that reset to the node's cluster member
 * (firmware-step.ts), which runs it inside the disruption budget.
 */
import { isClientError } from "../../clients/errors.js";
import type { ImageSourceInfo } from "../../clients/images/source.js";
import type { BiosValue } from "../../clients/redfish/index.js";
import {
  type ApplyRequest,
  type Context,
  type Diagnostics,
  isUnknownValue,
  path,
  timeoutMs,
  type Unknown,
} from "../../framework/index.js";
import { addClientError, failedTaskMessages } from "../errors/client-errors.js";
import { describeMove, type FirmwareMove, firmwarePlan } from "../shared/firmware-plan.js";
import { isHostOn } from "../shared/host-power.js";
import { bounded } from "../shared/timeouts.js";
import { checkComponents, checkImages, checkSettings } from "./firmware-checks.js";
import type { FirmwareBmc, FirmwareDeps } from "./firmware-deps.js";
import { type NodeFacts, settingsToWrite, typedSettings } from "./firmware-model.js";
import {
  baselineOf,
  biosWanted,
  observe,
  originOf,
  PRIVATE_VERIFIED,
  recorded,
  secureBootOf,
  site,
} from "./firmware-ops.js";
import { DEFAULT_TIMEOUT_MS, type FirmwarePlan, type FirmwareState } from "./firmware-schema.js";
import { secureBootChanges, secureBootProblem, stageSecureBoot } from "./firmware-secure-boot.js";
import { offerReset, resetAndVerify } from "./firmware-step.js";

/** One convergence under way. */
export interface Run {
  readonly ctx: Context;
  readonly deps: FirmwareDeps;
  readonly plan: FirmwarePlan;
  readonly bmc: FirmwareBmc;
  readonly origin: string;
  readonly diags: Diagnostics;
  readonly signal: AbortSignal;
  /** The step under way, as an error names it. */
  readonly progress: { step: string };
}

/** What the checks passed: the moves with their image sources and the settings to stage. */
export interface Work {
  readonly facts: NodeFacts;
  readonly moves: readonly FirmwareMove[];
  readonly sources: readonly ImageSourceInfo[];
  /** Every wanted setting, typed as the BMC takes it (what verification expects). */
  readonly settings: Readonly<Record<string, BiosValue>>;
  /** The settings whose current value differs (what is staged). */
  readonly toWrite: Readonly<Record<string, BiosValue>>;
  /** The Secure Boot changes the reset activates (enrolments, the enable flag); empty when none. */
  readonly secureBoot: readonly string[];
}

/** Reads the node and checks the baseline, the settings and the images; undefined after diagnostics. */
async function prepare(run: Run): Promise<Work | undefined> {
  const wanted = biosWanted(run.plan);
  run.progress.step = "read the node's firmware and BIOS";
  const sb = secureBootOf(run.plan);
  const facts = await observe(run.bmc, Object.keys(wanted).length > 0, sb);
  const { moves, unknown } = firmwarePlan(facts.inventory, baselineOf(run.plan));
  checkComponents(unknown, facts, run.origin, run.diags);
  const sbProblem = sb ? secureBootProblem(sb, facts.secureBoot) : undefined;
  if (sbProblem) {
    run.diags.error(
      "Secure Boot cannot be applied",
      `The node at ${run.origin}: ${sbProblem}. Nothing was written to the BMC.`,
      path("secure_boot"),
    );
  }
  const secureBoot = sb && facts.secureBoot ? secureBootChanges(sb, facts.secureBoot) : [];
  let settings: Record<string, BiosValue> = {};
  let toWrite: Record<string, BiosValue> = {};
  if (facts.bios) {
    run.progress.step = "read the BIOS's AttributeRegistry";
    const reg = facts.bios.registryId ? await run.bmc.bios().registry(facts.bios.registryId) : undefined;
    settings = typedSettings(wanted, facts.bios, reg);
    toWrite = settingsToWrite(settings, facts.bios);
    checkSettings(reg, facts.bios.attributes, settings, run.origin, run.diags);
    if (Object.keys(toWrite).length > 0 && !facts.bios.settingsRef && !run.diags.hasError()) {
      run.diags.error(
        "BIOS takes no settings",
        `The BIOS of ${run.origin} names no settings object (@Redfish.Settings), so settings cannot be staged through Redfish.`,
      );
    }
  }
  if (run.diags.hasError()) return undefined;
  run.progress.step = "check the firmware images";
  const sources = await checkImages(moves, run.deps, run.diags, run.signal);
  return sources ? { facts, moves, sources, settings, toWrite, secureBoot } : undefined;
}

/** Pushes one image (multipart, staged OnReset; else SimpleUpdate from its URL, where the BMC offers no push). */
async function push(run: Run, move: FirmwareMove, source: ImageSourceInfo): Promise<void> {
  const wait = { pollIntervalMs: run.deps.pollMs, signal: run.signal };
  const filename = new URL(move.target.url).pathname.split("/").pop() || `${move.component}.bin`;
  try {
    await run.bmc.pushFirmware({ source, filename, targets: move.targets }, wait);
  } catch (e) {
    if (!isClientError(e) || e.code !== "RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED") throw e;
    run.ctx.log.info("no MultipartHttpPushUri: SimpleUpdate from the image's URL", { component: move.component });
    await run.bmc.simpleUpdate(move.target.url, move.targets, wait);
  }
}

/**
 * Follows update tasks still running (a crashed run's), pushes every image in order and stages the settings;
 * the failed task's messages (the node's evidence), or an empty list when everything was staged.
 */
async function stage(run: Run, work: Work): Promise<string[]> {
  const wait = { pollIntervalMs: run.deps.pollMs, signal: run.signal };
  for (const task of await run.bmc.runningUpdates()) {
    run.progress.step = `follow the update task ${task.uri} already running`;
    run.ctx.log.info("following an update task already running (a previous run's)", { task: task.uri });
    try {
      await run.bmc.followTask(task, wait);
    } catch (e) {
      const msgs = failedTaskMessages(e);
      if (!msgs) throw e;
      run.ctx.log.warn("an earlier update task failed; its images are pushed again", { task: task.uri });
    }
  }
  run.ctx.log.info("firmware update order", { order: work.moves.map((m) => describeMove(m)) });
  for (const [i, move] of work.moves.entries()) {
    run.progress.step = `push ${describeMove(move)}`;
    try {
      await push(run, move, work.sources[i]);
    } catch (e) {
      const msgs = failedTaskMessages(e);
      if (!msgs) throw e;
      return msgs.map((m) => `${move.component}: ${m}`);
    }
  }
  const bios = work.facts.bios;
  if (bios && Object.keys(work.toWrite).length > 0) {
    run.progress.step = `stage ${Object.keys(work.toWrite).length} BIOS settings`;
    const how = await run.bmc.bios().stage(bios, work.toWrite, run.signal);
    if (how !== "OnReset") run.ctx.log.info("the BIOS lists no OnReset apply time: settings apply at its next reset");
  }
  const sb = secureBootOf(run.plan);
  if (sb && work.facts.secureBoot && work.secureBoot.length > 0) {
    run.progress.step = `stage Secure Boot (${work.secureBoot.join(", ")})`;
    await stageSecureBoot(run.bmc, sb, work.facts.secureBoot);
  }
  return [];
}

/** Reports a failed update of a node converged here (not rolling): an error with the evidence. */
function reportFailure(run: Run, evidence: readonly string[]): void {
  run.diags.error(
    "Firmware update failed",
    `${run.origin}: ${evidence.join("; ")}\nThe node keeps the firmware it runs; the evidence is recorded in ` +
      "last_update_messages. Fix the image or the BMC, then apply again.",
  );
}

/**
 * The converged (or failed, with evidence) state after the checks passed; `verified` when it was read from the node
 * (not so for what a rolling update only staged for the node's member).
 */
async function converge(run: Run, work: Work): Promise<{ state: FirmwareState; verified: boolean }> {
  const verified = (state: FirmwareState) => ({ state, verified: true });
  const { plan } = run;
  if (work.moves.length === 0 && Object.keys(work.toWrite).length === 0 && work.secureBoot.length === 0)
    return verified(recorded(plan, work.facts, []));
  const inService = plan.rolling === true && isHostOn(work.facts.power);
  const failed = await stage(run, work);
  if (inService) {
    // The node may run jobs: the reset (or the quarantine of a failed push) is its cluster member's to run.
    offerReset(run, work, failed);
    const st = recorded(plan, work.facts, failed);
    const versions = plannedOr(plan.versions, st.versions);
    return {
      state: {
        ...st,
        versions,
        bios_settings: plannedOr(plan.bios_settings, st.bios_settings),
        secure_boot_status: plannedOr(plan.secure_boot_status, st.secure_boot_status),
      },
      verified: false,
    };
  }
  if (failed.length > 0) {
    reportFailure(run, failed);
    return verified(recorded(plan, await observe(run.bmc, work.facts.bios !== undefined, secureBootOf(plan)), failed));
  }
  const { facts, evidence } = await resetAndVerify(run, work, false);
  if (evidence.length > 0) reportFailure(run, evidence);
  return verified(recorded(plan, facts, evidence));
}

/** A planned map when known (what the roll converges to), else what was read. */
function plannedOr<T>(planned: T | Unknown, read: T): T {
  return isUnknownValue(planned) ? read : planned;
}

/** Create and update: the state to record, or undefined after a diagnostic that leaves nothing to record. */
export async function applyFirmware(
  r: ApplyRequest & { plan: FirmwarePlan },
  deps: FirmwareDeps,
  op: "create" | "update",
): Promise<FirmwareState | undefined> {
  const { context: ctx, plan, diagnostics: diags } = r;
  const origin = originOf(plan.endpoint);
  const ms = timeoutMs({ timeouts: plan.timeouts }, op, DEFAULT_TIMEOUT_MS[op]);
  const progress = { step: "read the node's firmware" };
  try {
    return await bounded(ctx, ms, op, `converging the firmware of ${origin}`, async (signal) => {
      const run: Run = { ctx, deps, plan, bmc: deps.bmc(origin), origin, diags, signal, progress };
      const work = await prepare(run);
      if (!work) return undefined;
      const done = await converge(run, work);
      r.private.set({ ...r.private.value, [PRIVATE_VERIFIED]: done.verified });
      return done.state;
    });
  } catch (e) {
    addClientError(diags, e, progress.step, site(origin));
    return undefined;
  }
}
