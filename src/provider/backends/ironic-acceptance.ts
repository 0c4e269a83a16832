/**
 * The acceptance gate through Ironic: the in-band step `deploy.rackform_acceptance` run as a service step on an
 * active node (API 1.87), its result read from driver_internal_info.lab_step_results — where the lab's hardware
 * manager (and rackform's, on real nodes) keeps finished step results, since Ironic itself stores none.
 */
import type { IronicNode, IronicStep } from "../../clients/ironic/index.js";
import { type AcceptanceEvidence, type AcceptanceParams, parseEvidence } from "./backend.js";

/** The Ironic step of the gate. */
export const IRONIC_ACCEPTANCE_STEP = { interface: "deploy", step: "rackform_acceptance" } as const;

/** The service step that runs the gate with `p`. */
export function acceptanceStep(p: AcceptanceParams): IronicStep {
  return {
    ...IRONIC_ACCEPTANCE_STEP,
    args: {
      dcgm_level: p.dcgmLevel,
      burn_in: p.burnIn,
      ...(p.ncclMinBusbwGBps === undefined ? {} : { nccl_min_busbw_gbps: p.ncclMinBusbwGBps }),
    },
  };
}

/** The evidence of the newest finished run of the gate on node `n` (read without a `fields` selection). */
export function lastEvidence(n: IronicNode): AcceptanceEvidence | undefined {
  const dii = n.raw.driver_internal_info;
  if (dii === null || typeof dii !== "object") return undefined;
  const results = (dii as Record<string, unknown>).lab_step_results;
  if (!Array.isArray(results)) return undefined;
  for (let i = results.length - 1; i >= 0; i--) {
    const r = results[i] as Record<string, unknown> | null;
    if (r && r.interface === IRONIC_ACCEPTANCE_STEP.interface && r.step === IRONIC_ACCEPTANCE_STEP.step) {
      return parseEvidence(r.result);
    }
  }
  return undefined;
}
