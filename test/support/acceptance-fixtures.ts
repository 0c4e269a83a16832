/** rackform_acceptance fixtures for unit tests. */
import { UNKNOWN } from "../../src/framework/index.js";
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
