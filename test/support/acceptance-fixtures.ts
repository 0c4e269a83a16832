/** rackform_acceptance fixtures for unit tests. */
import { UNKNOWN } from "../../src/framework/index.js";
import type { AcceptanceEvidence } from "../../src/provider/backends/index.js";
import type { AcceptancePlan } from "../../src/provider/resources/acceptance-schema.js";

/** A gate's plan for `machineId` (DCGM level 3, a 1 h burn-in, nothing else followed), computed values unknown. */
export const acceptancePlan = (machineId: string, o: Partial<AcceptancePlan> = {}): AcceptancePlan => ({
  id: UNKNOWN,
  machine_id: machineId,
  dcgm_level: 3,
  nccl_min_busbw_gbps: null,
  burn_in: "1h",
  expected_gpu_count: null,
  bmc_gpu_count: null,
  image_ref: null,
  firmware_ref: null,
  bmc_health: null,
  remediation: null,
  evidence_max_age: null,
  recheck: null,
  allow_xid: false,
  firmware: null,
  passed: UNKNOWN,
  gpu_count: UNKNOWN,
  busbw_gbps: UNKNOWN,
  evidence: UNKNOWN,
  attestation: null,
  attestation_evidence: UNKNOWN,
  timeouts: null,
  ...o,
});

/** A gate's evidence that passes every check on r01-n02 (8 GPUs, DCGM level 3, NCCL 377 GB/s, a 1 h burn-in). */
export const passingEvidence = (over: Record<string, unknown> = {}): AcceptanceEvidence => ({
  format: "rackform-acceptance/v1",
  node: "r01-n02",
  passed: true,
  gpu_count: 8,
  gpu_count_expected: 8,
  dcgm: { level: 3, passed: true, tests: [{ name: "Diagnostic", result: "Pass" }] },
  nccl: { busbw_gbps: 377, min_busbw_gbps: 370, passed: true },
  burn_in: { requested_s: 3600, passed: true, xid_errors: 0 },
  xid_events: [],
  firmware: [],
  ...over,
});
