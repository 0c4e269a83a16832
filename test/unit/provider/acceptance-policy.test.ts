/**
 * An edited acceptance policy re-judges the evidence recorded in state, at plan, through the provider server: covered,
 * an in-place update that keeps id, verdict and evidence and asks no backend; not covered, a re-run of that node's
 * gate with a warning naming the node, the measured value and the new threshold. The provider is configured without
 * any backend, so any backend call would fail the test.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { decode, formatPath, nullObject, type ObjectValue, UNKNOWN, type Value } from "../../../src/framework/index.js";
import { providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { rejudge } from "../../../src/provider/resources/acceptance-policy.js";
import { acceptanceSchema } from "../../../src/provider/resources/acceptance-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import { configOf, proposedNew } from "../../support/kitchen-sink/engine-sim.js";

const T = "rackform_acceptance";
const srv = createServer(rackformProvider());

beforeAll(async () => {
  const redfish = { ...nullObject(providerSchema.blocks!.redfish.block), username: "u", password: "p" };
  const r = await srv.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, { redfish }) });
  expect(r.diagnostics).toEqual([]);
});

const evidence = (over: Record<string, unknown> = {}) => ({
  format: "rackform-acceptance/v1",
  node: "r01-n02",
  passed: true,
  gpu_count: 8,
  gpu_count_expected: 8,
  dcgm: { level: 3, passed: true, tests: [{ name: "Diagnostic", result: "Pass" }] },
  nccl: { busbw_gbps: 377, min_busbw_gbps: 370, passed: true },
  burn_in: { requested_s: 72 * 3600, passed: true, xid_errors: 0 },
  xid_events: [],
  firmware: [{ component: "bmc", version: "1.2.3", sha256: "x" }],
  ...over,
});

const POLICY = { dcgm_level: 3, nccl_min_busbw_gbps: 370, burn_in: "72h", expected_gpu_count: 8, allow_xid: false };

/** A passed gate in state, recorded with POLICY and `e`. */
const stateWith = (e: Record<string, unknown> | null = evidence(), set: Record<string, Value> = {}): ObjectValue =>
  configOf(acceptanceSchema, {
    id: "maas:abc",
    machine_id: "maas:abc",
    ...POLICY,
    passed: true,
    gpu_count: 8,
    busbw_gbps: 377,
    evidence: e === null ? null : JSON.stringify(e),
    ...set,
  });

const configWith = (set: Record<string, Value>) =>
  configOf(acceptanceSchema, { machine_id: "maas:abc", ...POLICY, ...set });

async function plan(prior: ObjectValue, config: ObjectValue) {
  const p = await srv.planResourceChange({
    typeName: T,
    priorState: prior,
    proposedNewState: proposedNew(acceptanceSchema, config, prior),
    config,
    priorPrivate: new Uint8Array(0),
  });
  return {
    ...p,
    planned: p.plannedState as ObjectValue,
    replaces: p.requiresReplace.map((x) => formatPath(x)),
    warnings: p.diagnostics.map((d) => `${d.severity} ${d.summary}: ${d.detail.replace(/\s+/g, " ")}`),
  };
}

describe("an edited acceptance policy is re-judged against the recorded evidence", () => {
  it("a threshold lowered below the measured busbw is an in-place update: id, verdict and evidence kept, no backend asked", async () => {
    const prior = stateWith();
    const p = await plan(prior, configWith({ nccl_min_busbw_gbps: 360 }));
    expect(p.diagnostics).toEqual([]);
    expect(p.replaces).toEqual([]);
    expect(p.planned).toMatchObject({
      id: "maas:abc",
      nccl_min_busbw_gbps: 360,
      passed: true,
      gpu_count: 8,
      busbw_gbps: 377,
      evidence: prior.evidence,
    });
    // The apply records the policy as planned without a backend (the server has none configured).
    const a = await srv.applyResourceChange({
      typeName: T,
      priorState: prior,
      plannedState: p.plannedState,
      config: configWith({ nccl_min_busbw_gbps: 360 }),
      plannedPrivate: p.plannedPrivate,
    });
    expect(a.diagnostics).toEqual([]);
    expect(a.newState).toEqual(p.plannedState);
  });

  it("a shorter burn-in, a lower DCGM level, XIDs allowed and a met firmware pin are covered too", async () => {
    for (const set of [
      { burn_in: "48h" },
      { dcgm_level: 2 },
      { allow_xid: true },
      { firmware: { bmc: "1.2.3" } },
      { nccl_min_busbw_gbps: 377, burn_in: "1h30m" },
    ] as Record<string, Value>[]) {
      const prior = stateWith(evidence(), { firmware: { bmc: "1.2.3" }, ...(set.firmware ? { firmware: {} } : {}) });
      const p = await plan(prior, configWith({ firmware: { bmc: "1.2.3" }, ...set }));
      expect([JSON.stringify(set), p.replaces, p.warnings]).toEqual([JSON.stringify(set), [], []]);
      expect(p.planned.passed, JSON.stringify(set)).toBe(true);
    }
  });

  it("a threshold raised above the measured busbw re-runs the gate, and the plan says why for that node", async () => {
    const p = await plan(stateWith(), configWith({ nccl_min_busbw_gbps: 380 }));
    expect(p.replaces).toEqual(["nccl_min_busbw_gbps"]);
    expect(p.warnings).toEqual([
      "warning Acceptance gate re-runs: r01-n02: The evidence recorded for r01-n02 (maas:abc) does not cover the " +
        "edited policy: - nccl_min_busbw_gbps: measured all_reduce busbw 377 GB/s; threshold ≥ 380 GB/s The gate " +
        "runs again on this node with the new policy: a cluster member whose gate_id is this gate drains first " +
        "(within its disruption budget) and rejoins once it passes. Nodes whose evidence covers the edit are updated in place.",
    ]);
  });

  it("a longer burn-in than ran, or a higher DCGM level, re-runs the gate naming what ran", async () => {
    const longer = await plan(stateWith(), configWith({ burn_in: "96h" }));
    expect(longer.replaces).toEqual(["burn_in"]);
    expect(longer.warnings[0]).toContain("- burn_in: measured burn-in of 72h passed; threshold 96h without failure");
    const deeper = await plan(stateWith(), configWith({ dcgm_level: 4 }));
    expect(deeper.replaces).toEqual(["dcgm_level"]);
    expect(deeper.warnings[0]).toContain("- dcgm_level: measured level 3: all tests passed; threshold level 4 passes");
  });

  it("XIDs disallowed again re-run only a node whose evidence has one", async () => {
    const xid = evidence({ xid_events: [{ xid: 79, gpu_index: 3 }] });
    const withXid = await plan(stateWith(xid, { allow_xid: true }), configWith({ allow_xid: false }));
    expect(withXid.replaces).toEqual(["allow_xid"]);
    expect(withXid.warnings[0]).toContain("allow_xid: measured XID 79 on GPU 3; threshold no XID events");
    const clean = await plan(stateWith(evidence(), { allow_xid: true }), configWith({ allow_xid: false }));
    expect(clean.replaces).toEqual([]);
  });

  it("evidence that does not record the burn-in length it ran covers no changed burn-in (conservative)", async () => {
    const old = evidence({ burn_in: { passed: true, xid_errors: 0 } });
    const p = await plan(stateWith(old), configWith({ burn_in: "48h" }));
    expect(p.replaces).toEqual(["burn_in"]);
    expect(p.warnings[0]).toContain("- burn_in: measured burn-in length not recorded; threshold 48h without failure");
    // Its other thresholds are still judged on what it does record.
    expect((await plan(stateWith(old), configWith({ nccl_min_busbw_gbps: 360 }))).replaces).toEqual([]);
  });

  it("a gate without evidence in state re-runs on any policy edit", async () => {
    const p = await plan(stateWith(null), configWith({ nccl_min_busbw_gbps: 360 }));
    expect(p.replaces).toEqual(["nccl_min_busbw_gbps"]);
    expect(p.warnings[0]).toContain("Acceptance gate re-runs: maas:abc");
    expect(p.warnings[0]).toContain("- evidence: measured none recorded");
  });

  it("right after an import (no policy in state yet) recording the configuration re-runs nothing", async () => {
    const imported = configOf(acceptanceSchema, {
      id: "maas:abc",
      machine_id: "maas:abc",
      passed: true,
      gpu_count: 8,
      busbw_gbps: 377,
      evidence: JSON.stringify(evidence({ nccl: { busbw_gbps: 300, min_busbw_gbps: 368 } })),
    });
    const p = await plan(imported, configWith({}));
    expect([p.replaces, p.warnings]).toEqual([[], []]);
    expect(rejudge(decode(acceptanceSchema, imported), decode(acceptanceSchema, p.planned, "config"))).toBeUndefined();
  });

  it("another machine or a changed BMC GPU count still re-runs the gate, and a failed gate is still replaced", async () => {
    expect((await plan(stateWith(), configWith({ machine_id: "maas:xyz" }))).replaces).toEqual(["machine_id"]);
    // With a covered policy edit in the same change: a re-run all the same, nothing planned as kept, no warning
    const both = await plan(stateWith(), configWith({ machine_id: "maas:xyz", nccl_min_busbw_gbps: 360 }));
    expect([both.replaces, both.warnings, both.planned.passed]).toEqual([["machine_id"], [], UNKNOWN]);
    const gpus = await plan(
      stateWith(evidence(), { bmc_gpu_count: 8 }),
      configWith({ bmc_gpu_count: 7, nccl_min_busbw_gbps: 380 }),
    );
    expect([gpus.replaces, gpus.warnings]).toEqual([["bmc_gpu_count"], []]);
    const failed = await plan(stateWith(evidence(), { passed: false }), configWith({ nccl_min_busbw_gbps: 360 }));
    expect(failed.replaces).toEqual(["passed"]);
  });

  it("a changed BMC GPU count while the remediation ladder acts re-runs the gate in place, inside the ladder's step (seed 6403)", async () => {
    // GIVEN a GPU fallen off the bus (the BMC counts 7, and calls it Critical, so the ladder plans a power cycle)
    const prior = stateWith(evidence(), { bmc_gpu_count: 8, remediation: "" });
    // WHEN the gate follows the ladder's step THEN it is not replaced (a replaced gate runs on its own, fails, and
    // the member carrying the power cycle is never applied): its run is still to come, in place
    const step = await plan(prior, configWith({ bmc_gpu_count: 7, remediation: "power_cycle:1" }));
    expect([step.replaces, step.planned.passed]).toEqual([[], UNKNOWN]);
    const held = await plan(
      stateWith(evidence(), { bmc_gpu_count: 8, remediation: "reimage:1", passed: false }),
      configWith({ bmc_gpu_count: 7, remediation: "repair" }),
    );
    expect([held.replaces, held.planned.passed]).toEqual([[], false]);
    // and with no step planned (the ladder followed, nothing Critical) the lost GPU re-runs the gate as before
    const quiet = await plan(prior, configWith({ bmc_gpu_count: 7, remediation: "" }));
    expect(quiet.replaces).toEqual(["bmc_gpu_count"]);
  });
});
