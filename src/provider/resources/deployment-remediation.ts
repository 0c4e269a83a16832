/**
 * rackform_deployment's side of the health remediation ladder (../shared/remediation.ts): the next rung planned from
 * the BMC's findings and what was tried (private data), the rung's remedy offered to the node's cluster member at
 * apply, and, at read, whether a step offered before has run: the remedy, once carried out by the member, marks the
 * machine with its offer (../backends/remedy-marks.ts). A gate run is no proof: the gate also runs for other causes
 * in the same apply (rackform_acceptance's own re-run on a GPU count drop) while the member never runs.
 */
import { containsUnknown, isUnknownValue, type PrivateState, type Value } from "../../framework/index.js";
import { type Backend, QUARANTINE_PREFIX } from "../backends/index.js";
import { machineIdSite, reportBackendError } from "../errors/backend-errors.js";
import {
  criticalFindings,
  isLadderRun,
  LADDER_STEPS,
  type LadderStep,
  nextRung,
  REPAIR,
  rungLabel,
  rungOf,
} from "../shared/remediation.js";
import type { OfferedStep, StepOutcome, StepRequest } from "../shared/rollout-handover.js";
import { bounded } from "../shared/timeouts.js";
import type { DeploymentDeps } from "./deployment-deps.js";
import type { DeploymentConfig, DeploymentPlan, DeploymentState } from "./deployment-schema.js";

/** How long one backend call of a remedy may take (a power cycle waits for the host to report on). */
const REMEDY_MS = 30 * 60_000;

/** The private-data key of the rung offered last: { rung, at (ISO time), ran }. */
export const PRIVATE_LADDER = "ladder";

/** What the private data remembers of the rung offered last. */
interface Offered {
  readonly rung: string;
  readonly at: string;
  readonly ran: boolean;
}

/** The mark the offer's remedy leaves on the machine once carried out: the rung and the time it was offered. */
const markOf = (o: Pick<Offered, "rung" | "at">): string => `${o.rung}@${o.at}`;

function offeredIn(priv: PrivateState): Offered | undefined {
  const o = priv[PRIVATE_LADDER] as Partial<Offered> | undefined;
  return o && typeof o.rung === "string" && typeof o.at === "string"
    ? { rung: o.rung, at: o.at, ran: o.ran === true }
    : undefined;
}

/** The steps the plan allows (default: every step, in order). */
function stepsOf(plan: DeploymentConfig): LadderStep[] {
  const v = plan.remediation_steps;
  if (v === null || isUnknownValue(v) || containsUnknown(v as unknown as Value)) return [...LADDER_STEPS];
  return v.filter((s): s is LadderStep => (LADDER_STEPS as readonly string[]).includes(String(s)));
}

/**
 * The planned remediation: null when bmc_health is not followed; on create ""; while the findings are not known yet
 * the recorded rung stands; otherwise the next rung (shared/remediation.ts nextRung), a step that never ran planned
 * again with its next attempt rather than passed over.
 */
export function plannedRemediation(
  state: DeploymentState | null,
  plan: DeploymentConfig,
  priv: PrivateState,
): string | null {
  const health = plan.bmc_health;
  if (health === null) return null;
  if (state === null) return "";
  const current = state.remediation ?? "";
  if (isUnknownValue(health) || containsUnknown(health as unknown as Value)) return current;
  // A step not run yet: offered and not run since, or recorded without its offer — an update that failed before it
  // offered the step (a backend error reading the machine) still records the planned rung, and that step never ran.
  const offered = offeredIn(priv);
  const pending = isLadderRun(current) && (offered?.rung !== current || !offered.ran);
  return nextRung({ sick: criticalFindings(health).length > 0, current, pending, steps: stepsOf(plan) });
}

/** "GPU3 Critical (gpu), DIMM 2 Critical (memory)". */
const findingsText = (health: unknown) =>
  criticalFindings(health)
    .map((f) => `${f.component} ${f.health}${f.kind ? ` (${f.kind})` : ""}`)
    .join(", ");

/** A machine as the deployment names it. */
type Machine = { readonly backend: Backend["name"]; readonly id: string };

/**
 * At update: a new rung offers its remedy to the node's cluster member and is remembered as offered; a ladder reset
 * ("") forgets it. The reimage rung's remedy is the deployment's own reimage (`reimage`), offered by the caller.
 */
export function offerRemedy(
  r: { plan: DeploymentPlan; state: DeploymentState; private: { value: PrivateState; set(p: PrivateState): void } },
  deps: Pick<DeploymentDeps, "backend" | "rollouts">,
  m: Machine,
  reimage: () => OfferedStep,
): void {
  const rung = isUnknownValue(r.plan.remediation) ? null : r.plan.remediation;
  const { [PRIVATE_LADDER]: _, ...rest } = r.private.value;
  if (rung === null || rung === "") {
    r.private.set(rest);
    return;
  }
  if (rung === r.state.remediation && offeredIn(r.private.value)?.rung === rung) return;
  const id = `${m.backend}:${m.id}`;
  const step = rungOf(rung).step;
  const at = new Date().toISOString();
  const mark = markOf({ rung, at });
  if (step === "reimage")
    deps.rollouts.offerReimage(id, marked(quarantineLiftedFirst(reimage(), deps, m), deps, m, mark));
  else if (step === REPAIR) deps.rollouts.offerRemedy(id, remedyOf(rung, r.plan, deps, m));
  else deps.rollouts.offerRemedy(id, marked(remedyOf(rung, r.plan, deps, m), deps, m, mark));
  r.private.set({ ...rest, [PRIVATE_LADDER]: { rung, at, ran: step === REPAIR } });
}

/**
 * A remedy that marks the machine with its offer once carried out, so the next refresh counts the step as run. A mark
 * that cannot be written is a warning: the remedy stands, and the next plan offers the step again (attempt + 1).
 */
function marked(step: OfferedStep, deps: Pick<DeploymentDeps, "backend">, m: Machine, mark: string): OfferedStep {
  return {
    ...step,
    async run(s) {
      const out = await step.run(s);
      if (out !== "done") return out;
      try {
        await bounded(s.context, REMEDY_MS, "update", `marking the remedy on ${m.id}`, (signal) =>
          deps.backend(m.backend).noteRemedy(m.id, mark, signal),
        );
      } catch (e) {
        s.diagnostics.warning(
          // The node in the summary: the engines fold warnings of one summary into the first.
          `Remedy not recorded: ${m.id}`,
          `${step.what} was carried out, but the machine could not be marked with it (${(e as Error).message}). ` +
            "The next plan cannot tell that it ran and offers the step again.",
        );
      }
      return out;
    },
  };
}

/**
 * The reimage of a node its failed gate quarantined (MAAS Broken or its note, Ironic maintenance): rackform's own
 * quarantine is lifted first, as a gate re-run lifts it, so the backend releases and deploys the machine.
 */
function quarantineLiftedFirst(step: OfferedStep, deps: Pick<DeploymentDeps, "backend">, m: Machine): OfferedStep {
  return {
    ...step,
    async run(s) {
      const lifted = await backendCall(s, m, "lift rackform's quarantine", (signal) =>
        deps.backend(m.backend).liftQuarantine(m.id, signal),
      );
      return lifted === "done" ? step.run(s) : "failed";
    },
  };
}

/**
 * One backend call of a remedy, bounded by the member's deadline: "done", or "failed" after the diagnostic the
 * backend's error maps to (the node stays out of service; the next apply tries again).
 */
async function backendCall(
  step: StepRequest,
  m: Machine,
  action: string,
  call: (signal: AbortSignal) => Promise<unknown>,
): Promise<StepOutcome> {
  try {
    await bounded(step.context, REMEDY_MS, "update", `${action} (${m.id})`, call);
    return "done";
  } catch (e) {
    reportBackendError(step.diagnostics, e, action, machineIdSite(m.backend, m.id));
    return "failed";
  }
}

/** The power cycle, or the quarantine for repair, as a step the member runs. */
function remedyOf(rung: string, plan: DeploymentPlan, deps: Pick<DeploymentDeps, "backend">, m: Machine): OfferedStep {
  const findings = findingsText(plan.bmc_health);
  if (rungOf(rung).step === REPAIR) {
    const reason = `${QUARANTINE_PREFIX}: health remediation exhausted, quarantined for repair: ${findings || "BMC findings"}`;
    return {
      what: `quarantine ${m.id} for repair`,
      failure: "quarantined for repair",
      run: (step) =>
        backendCall(step, m, "quarantine the machine for repair", (signal) =>
          deps.backend(m.backend).quarantine(m.id, reason, signal),
        ),
    };
  }
  return {
    what: `${rungLabel(rung)} of ${m.id} (${findings})`,
    failure: "failed its power cycle",
    run(step) {
      const log = step.context.log.with({ resource: "rackform_deployment", backend: m.backend, id: m.id });
      return backendCall(step, m, "power cycle the machine", (signal) =>
        deps.backend(m.backend).powerCycle(m.id, { log, signal }),
      );
    },
  };
}

/**
 * At read: a step offered before has run once the machine carries the mark its remedy leaves when carried out (read
 * only while such a step is outstanding; MAAS and Ironic answer it from the list a refresh shares).
 */
export async function noteRemedyRan(
  r: { private: { value: PrivateState; set(p: PrivateState): void } },
  b: Backend,
  id: string,
  signal: AbortSignal,
): Promise<void> {
  const o = offeredIn(r.private.value);
  if (!o || o.ran) return;
  if ((await b.lastRemedy(id, signal)) === markOf(o)) {
    r.private.set({ ...r.private.value, [PRIVATE_LADDER]: { ...o, ran: true } });
  }
}
