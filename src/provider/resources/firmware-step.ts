/**
 * The reset that activates staged firmware and BIOS settings, and the check that they took: run at once by
 * rackform_firmware on a node not in service, or offered to the node's cluster member (rollout-handover.ts), which
 * runs it drained, inside the disruption budget — after the reimage's deploy when the image changes in the same apply
 * (that boot activated them: no second reset). A failed update quarantines the node with its evidence.
 */

import { timeoutMs } from "../../framework/index.js";
import { QUARANTINE_PREFIX } from "../backends/backend.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import { describeMove, firmwarePlan } from "../shared/firmware-plan.js";
import { isHostOn, pollHost, waitHostPower } from "../shared/host-power.js";
import type { StepRequest } from "../shared/rollout-handover.js";
import { bounded } from "../shared/timeouts.js";
import { parseMachineId } from "./deployment-schema.js";
import type { Run, Work } from "./firmware-apply.js";
import type { NodeFacts } from "./firmware-model.js";
import { baselineOf, observe, refIn, secureBootOf } from "./firmware-ops.js";
import { DEFAULT_TIMEOUT_MS } from "./firmware-schema.js";
import { secureBootBehind } from "./firmware-secure-boot.js";

/** What still differs after the reset: components behind the baseline and settings not applied. */
function behind(run: Run, work: Work, facts: NodeFacts): string[] {
  const moves = firmwarePlan(facts.inventory, baselineOf(run.plan)).moves;
  const out = moves.map((m) => `${m.component} still reports ${m.from} after the reset, not ${m.to}`);
  for (const [k, v] of Object.entries(work.settings)) {
    const now = facts.bios?.attributes[k];
    if (now !== v) out.push(`BIOS ${k} is ${JSON.stringify(now)} after the reset, not ${JSON.stringify(v)}`);
  }
  const sb = secureBootOf(run.plan);
  if (sb) out.push(...secureBootBehind(sb, facts.secureBoot));
  return out;
}

/** The BIOS's own report of settings it refused at the last apply (SettingsFailed), for the named settings. */
function refused(work: Work, facts: NodeFacts): string[] {
  const names = new Set(Object.keys(work.toWrite));
  return (facts.bios?.lastApplyMessages ?? [])
    .filter((m) => /SettingsFailed$/.test(m.messageId) && m.properties.some((p) => names.has(p.split("/").pop() ?? p)))
    .map((m) => `the BIOS refused ${m.properties.join(", ")} at the reset (${m.messageId})`);
}

/** Polls until the versions and settings are reached, the BIOS reports a refusal, or settleMs passes. */
async function verify(run: Run, work: Work): Promise<{ facts: NodeFacts; evidence: string[] }> {
  run.progress.step = "read the versions and settings back after the reset";
  const deadline = Date.now() + run.deps.settleMs;
  return await pollHost(run.deps.hostPace, "firmware read back", run.signal, async () => {
    const facts = await observe(run.bmc, work.facts.bios !== undefined, secureBootOf(run.plan));
    const left = behind(run, work, facts);
    if (left.length === 0) return { done: true, value: { facts, evidence: [] } };
    const no = refused(work, facts);
    const done = no.length > 0 || Date.now() >= deadline;
    return { done, reached: false, value: { facts, evidence: [...left, ...no] } };
  });
}

/**
 * Resets the host once (powers it on when off, and off again after) unless it already booted in this roll, then
 * verifies; the facts read and the evidence of what was not reached (empty when everything was).
 */
export async function resetAndVerify(
  run: Run,
  work: Work,
  rebooted: boolean,
): Promise<{ facts: NodeFacts; evidence: string[] }> {
  const wasOn = isHostOn((await run.bmc.getSystem()).powerState);
  if (!rebooted) {
    run.progress.step = "reset the host to activate the staged firmware and settings";
    run.ctx.log.info("host reset for the staged firmware and settings", { endpoint: run.origin, was_on: wasOn });
    await run.bmc.power(wasOn ? "ForceRestart" : "On");
    await waitHostPower(run.bmc, "On", run.deps.hostPace, run.signal);
  }
  const result = await verify(run, work);
  if (!rebooted && !wasOn) {
    run.progress.step = "power the host off again";
    await run.bmc.power("ForceOff");
    await waitHostPower(run.bmc, "Off", run.deps.hostPace, run.signal);
  }
  return result;
}

/** Quarantines the rolled node in its backend with the update's evidence; how it ended, for the diagnostic. */
async function quarantine(run: Run, step: StepRequest, evidence: readonly string[]): Promise<string> {
  const m = parseMachineId(step.machineId);
  if (!m) return "NOT quarantined (no machine id); take it out of service by hand";
  const reason = `${QUARANTINE_PREFIX}: firmware update: ${evidence.join("; ")}`.slice(0, 255);
  try {
    await run.deps.backend(m.backend).quarantine(m.id, reason, run.signal);
    return BACKEND_TRAITS[m.backend].quarantined;
  } catch (e) {
    return `NOT quarantined (${(e as Error).message}); take it out of service by hand`;
  }
}

/**
 * Offers the node's reset to its cluster member: run drained inside the budget, it verifies and, when the update
 * failed (here, staging: `failed`; or after the reset), quarantines the node with the evidence.
 */
export function offerReset(run: Run, work: Work, failed: readonly string[]): void {
  const ref = refIn(run.plan);
  const settings = Object.keys(work.toWrite).length;
  const changes = [
    ...work.moves.map((m) => describeMove(m)),
    ...(settings ? [`${settings} BIOS settings`] : []),
    ...work.secureBoot,
  ];
  run.deps.rollouts.offerFirmware(ref, {
    what:
      failed.length > 0
        ? `quarantine ${run.origin} after its failed firmware update`
        : `firmware ${changes.join(", ")}`,
    failure: "failed its firmware update",
    async run(step) {
      const ms = timeoutMs({ timeouts: run.plan.timeouts }, "update", DEFAULT_TIMEOUT_MS.update);
      return bounded(step.context, ms, "update", `the firmware reset of ${run.origin}`, async (signal) => {
        const r: Run = { ...run, ctx: step.context, diags: step.diagnostics, signal, progress: { step: "" } };
        const evidence = failed.length > 0 ? [...failed] : (await resetAndVerify(r, work, step.rebooted)).evidence;
        if (evidence.length === 0) return "done";
        const how = await quarantine(r, step, evidence);
        step.diagnostics.error(
          "Firmware update failed",
          `${run.origin} (${step.machineId}): ${evidence.join("; ")}\nThe node is ${how} and stays out of service; the others go on. Fix the image or the BMC, then apply again: the update and the gate run again.`,
        );
        return "failed";
      });
    },
  });
  run.ctx.log.info("firmware reset offered to the cluster member", { endpoint: run.origin, changes });
}
