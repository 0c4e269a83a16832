/**
 * The two ways the backends run the acceptance gate, fed by `measureAcceptance`:
 * MAAS — a built-in testing script "rackform-acceptance" whose result output is the acceptance JSON;
 * Ironic — clean/service steps deploy.rackform_acceptance and deploy.burnin_gpu whose result (kept in
 * driver_internal_info.lab_step_results) is the acceptance JSON, and deploy.burnin_network with the NCCL figures.
 */
import type { IronicApi, StepRequest } from "../ironic/index.js";
import type { MaasApi, ScriptOutcome } from "../maas/index.js";
import type { LabNode, World } from "../world/model.js";
import { type AcceptanceReport, measureAcceptance, paramsFrom } from "./signals.js";

/** Name of the MAAS testing script and of the Ironic step. */
export const MAAS_ACCEPTANCE_SCRIPT = "rackform-acceptance";
/** The Ironic step (interface deploy), as an in-band hardware manager would expose it. */
export const IRONIC_ACCEPTANCE_STEP = { interface: "deploy", step: "rackform_acceptance" } as const;

/** Finds the world node a backend record's BMC address points at. */
export type NodeResolver = (bmcAddress: string | undefined) => LabNode | undefined;

const SCRIPT_BODY = `#!/bin/bash
# --- Start MAAS 1.0 script metadata ---
# name: ${MAAS_ACCEPTANCE_SCRIPT}
# title: rackform GPU node acceptance
# description: dcgmi diag, NCCL all_reduce_perf, GPU burn-in, XID scan, firmware attestation
# script_type: testing
# hardware_type: gpu
# tags: gpu, acceptance, rackform
# parameters:
#   dcgm_level: {type: choice, choices: [["1","1"],["2","2"],["3","3"],["4","4"]], default: "3"}
#   burn_in: {type: string, default: "1h"}
#   nccl_min_busbw_gbps: {type: string, default: ""}
# --- End MAAS 1.0 script metadata ---
exec /usr/lib/rackform/acceptance --dcgm-level "$dcgm_level" --burn-in "$burn_in" --nccl-min "$nccl_min_busbw_gbps"
`;

function paramValue(p: unknown): unknown {
  return p && typeof p === "object" && "value" in p ? (p as { value: unknown }).value : p;
}

/** Seeds the MAAS region with the acceptance script and answers its runs from the node's signals. */
export function installMaasAcceptance(maas: MaasApi, world: World, resolve: NodeResolver): void {
  maas.addBuiltinScript({
    name: MAAS_ACCEPTANCE_SCRIPT,
    title: "rackform GPU node acceptance",
    description: "DCGM diagnostics, NCCL all_reduce bus bandwidth, burn-in, XID scan and firmware attestation.",
    hardwareType: 5,
    tags: ["gpu", "acceptance", "rackform"],
    timeoutSeconds: 0,
    parameters: {
      dcgm_level: { type: "choice", choices: ["1", "2", "3", "4"].map((l) => [l, l]), default: "3" },
      burn_in: { type: "string", default: "1h" },
      nccl_min_busbw_gbps: { type: "string", default: "" },
    },
    content: SCRIPT_BODY,
  });
  maas.setScriptRunner((m, name, parameters): ScriptOutcome | undefined => {
    if (name !== MAAS_ACCEPTANCE_SCRIPT) return undefined;
    const node = resolve(m.powerParams.power_address);
    if (!node) return { status: "failed", output: "rackform-acceptance: no GPU node behind this machine's BMC\n" };
    try {
      const report = measureAcceptance(
        world,
        node,
        paramsFrom({
          dcgm_level: paramValue(parameters.dcgm_level),
          burn_in: paramValue(parameters.burn_in),
          nccl_min_busbw_gbps: paramValue(parameters.nccl_min_busbw_gbps),
        }),
      );
      return { status: report.passed ? "passed" : "failed", output: `${JSON.stringify(report, null, 2)}\n` };
    } catch (e) {
      return { status: "failed", output: `rackform-acceptance: ${(e as Error).message}\n`, exitStatus: 2 };
    }
  });
}

function stepOutcome(world: World, node: LabNode, step: Readonly<StepRequest>) {
  const report: AcceptanceReport = measureAcceptance(world, node, paramsFrom(step.args ?? {}));
  const durationMs = world.time.duration("burnInMs");
  const fail = report.passed ? undefined : `acceptance failed: ${report.failures.join("; ")}`;
  if (step.step === "burnin_network") {
    const { nccl } = report;
    const result = { duration_s: durationMs / 1000, nccl_busbw_gbps: nccl.busbw_gbps, nccl };
    return { durationMs, result, fail: nccl.passed ? undefined : `nccl busbw ${nccl.busbw_gbps} GB/s too low` };
  }
  return { durationMs, result: report as unknown as Record<string, unknown>, fail };
}

/** Adds deploy.rackform_acceptance to the redfish driver and answers it, burnin_gpu and burnin_network from signals. */
export function installIronicAcceptance(ironic: IronicApi, world: World, resolve: NodeResolver): void {
  ironic.addStep(IRONIC_ACCEPTANCE_STEP.interface, IRONIC_ACCEPTANCE_STEP.step);
  ironic.setStepRunner((n, step) => {
    if (step.interface !== "deploy" || !["rackform_acceptance", "burnin_gpu", "burnin_network"].includes(step.step)) {
      return undefined;
    }
    const node = resolve(String(n.driver_info.redfish_address ?? ""));
    if (!node) return { fail: "no GPU node behind this node's BMC (redfish_address)" };
    try {
      return stepOutcome(world, node, step);
    } catch (e) {
      return { fail: (e as Error).message };
    }
  });
}
