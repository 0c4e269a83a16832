/**
 * rackform_acceptance through the provider server against the lab's MAAS (testing script rackform-acceptance) and
 * Ironic (service step deploy.rackform_acceptance): a pass records measured values as evidence; a failure lists
 * measured vs threshold per failed check, quarantines the machine in the backend and is recorded as tainted; a
 * re-run after the repair lifts rackform's own quarantine; refresh shows a node quarantined since as drift.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { ObjectValue, Value } from "../../../src/framework/index.js";
import { acceptanceSchema } from "../../../src/provider/resources/acceptance-schema.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { resourceDriver } from "../../support/provider-rpc.js";
import {
  apply as applyDeployment,
  deploymentConfig,
  readyMachine,
  replacePaths,
  uploadMaasImage,
} from "./deployment-support.js";
import { lines, machineRig } from "./machine-support.js";

const A = "rackform_acceptance";

const rig = machineRig(4);
beforeAll(async () => {
  await uploadMaasImage(rig.ml, "2026.06.1");
});

/** A deployed machine's id. */
async function deployed(node: string, backend: "maas" | "ironic"): Promise<string> {
  const id = await readyMachine(rig.p.srv, rig.ml, node, backend);
  const d = await applyDeployment(rig.p.srv, deploymentConfig(rig.ml, id, "2026.06.1"));
  expect(lines(d.diagnostics)).toBe("");
  return id;
}

const gate = (machineId: string, set: Record<string, Value> = {}) =>
  configOf(acceptanceSchema, {
    machine_id: machineId,
    nccl_min_busbw_gbps: 360,
    expected_gpu_count: 8,
    burn_in: "72h",
    ...set,
  });

const { plan, apply: applyAcceptance, read: readAcceptance } = resourceDriver(A, acceptanceSchema);

/** Plan then apply, and the plan says nothing. */
async function apply(srv: ProviderServer, config: ObjectValue, prior: Value = null) {
  const r = await applyAcceptance(srv, config, prior);
  expect(lines(r.plan.diagnostics)).toBe("");
  return r;
}

const read = (state: Value) => readAcceptance(rig.p.srv, state);

describe.each(["maas", "ironic"] as const)("rackform_acceptance on %s", (backend) => {
  const [good, bad] = backend === "maas" ? ["r01-n01", "r01-n02"] : ["r01-n03", "r01-n04"];
  const quarantined = async (id: string) => {
    const raw = id.replace(/^\w+:/, "");
    if (backend === "maas") {
      const m = await rig.ml.maas.getMachine(raw);
      // Held out of service by MAAS itself (Failed testing, with rackform's reason in the description) or Broken.
      if (m.statusName === "Failed testing" && m.description) return m.description;
      return m.statusName === "Broken" ? m.statusMessage : undefined;
    }
    const n = await rig.ml.ironic.getNode(raw);
    return n.maintenance ? (n.maintenanceReason ?? "") : undefined;
  };
  let machineId: string;
  let state: ObjectValue;

  it("GIVEN a healthy deployed node WHEN create THEN it passes with the measured values as evidence and the plan is empty", async () => {
    machineId = await deployed(good, backend);
    const config = gate(machineId);
    const a = await apply(rig.p.srv, config);
    expect(lines(a.diagnostics)).toBe("");
    state = a.newState as ObjectValue;
    expect(state).toMatchObject({ id: machineId, passed: true, gpu_count: 8 });
    expect(state.busbw_gbps as number).toBeGreaterThanOrEqual(360);
    const evidence = JSON.parse(state.evidence as string);
    expect(evidence).toMatchObject({ format: "rackform-acceptance/v1", passed: true, node: good });
    expect(evidence.parameters).toMatchObject({ dcgm_level: 3, burn_in_s: 72 * 3600, nccl_min_busbw_gbps: 360 });
    expect(await quarantined(machineId)).toBeUndefined();
    const again = await plan(rig.p.srv, config, state);
    expect(again.requiresReplace).toEqual([]);
    expect(again.plannedState).toEqual(state);
  });

  it("GIVEN an unchanged test record WHEN refreshed again THEN the evidence is not read again; a new test run is read", async () => {
    const maasResults = () =>
      rig.ml.lab.backends!.maas.requests.filter((r) => r.method === "GET" && r.path.endsWith("/results/")).length;
    const first = await read(state);
    expect(lines(first.diagnostics)).toBe("");
    expect(first.newState).toEqual(state);
    if (backend === "ironic") {
      // Ironic has no mark of its test records: nothing is kept, so every refresh reads the gate's result (from the
      // node it lists anyway).
      expect(first.private.length).toBe(0);
      return;
    }
    const before = maasResults();
    const second = await readAcceptance(rig.p.srv, state, first.private);
    expect(lines(second.diagnostics)).toBe("");
    expect(second.newState).toEqual(state);
    // MAAS marks its results (current_testing_result_id + testing_status): unchanged, the evidence is not read again.
    expect(maasResults() - before).toBe(0);
    // GIVEN the machine is tested again by hand, failing the gate (a new testing set) THEN the refresh reads it
    const raw = machineId.replace(/^\w+:/, "");
    const f = rig.ml.lab.world.faults.add({ kind: "marginal-nccl", node: good, value: 300 });
    try {
      await rig.ml.maas.test(raw, { testingScripts: ["rackform-acceptance"] });
      for (let i = 0; i < 200 && (await rig.ml.maas.getMachine(raw)).statusName === "Testing"; i++)
        await new Promise((r) => setTimeout(r, 50));
      const third = await readAcceptance(rig.p.srv, state, second.private);
      expect(lines(third.diagnostics)).toBe("");
      expect(maasResults() - before).toBe(1);
      expect(third.newState).toMatchObject({ passed: false, busbw_gbps: 300 });
    } finally {
      rig.ml.lab.world.faults.remove(f.id);
    }
  });

  it("GIVEN a new threshold WHEN plan THEN the gate must run again", async () => {
    const pl = await plan(rig.p.srv, gate(machineId, { dcgm_level: 4 }), state);
    expect(replacePaths(pl)).toEqual(["dcgm_level"]);
    expect(pl.diagnostics.map((d) => d.summary)).toEqual([`Acceptance gate re-runs: ${good}`]);
  });

  it("GIVEN a threshold lowered below the evidence and a shorter burn-in WHEN plan and apply THEN the policy is recorded in place, the backend is not asked, and the next plan is empty", async () => {
    const lowered = gate(machineId, { nccl_min_busbw_gbps: 350, burn_in: "48h" });
    const pl = await plan(rig.p.srv, lowered, state);
    expect(lines(pl.diagnostics)).toBe("");
    expect(replacePaths(pl)).toEqual([]);
    const log = rig.ml.lab.backends![backend].requests;
    const before = log.length;
    const a = await apply(rig.p.srv, lowered, state);
    expect(lines(a.diagnostics)).toBe("");
    expect(log.length - before).toBe(0);
    expect(a.newState).toMatchObject({ id: machineId, passed: true, evidence: state.evidence, burn_in: "48h" });
    const again = await plan(rig.p.srv, lowered, a.newState);
    expect(again.plannedState).toEqual(a.newState);
    // Back to 72h: the evidence of the 72h burn-in that ran still covers it.
    const back = await plan(rig.p.srv, gate(machineId), a.newState);
    expect(replacePaths(back)).toEqual([]);
  });

  it("GIVEN the node was taken out of service by hand WHEN refresh THEN passed turns false; the re-run returns it to service", async () => {
    const raw = machineId.replace(/^\w+:/, "");
    if (backend === "maas") await rig.ml.maas.markBroken(raw, "GPU 3 fell off the bus");
    else await rig.ml.ironic.setMaintenance(raw, true, "GPU 3 fell off the bus");
    const r = await read(state);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toMatchObject({ passed: false });
    const pl = await plan(rig.p.srv, gate(machineId), r.newState);
    expect(replacePaths(pl)).toEqual(["passed"]);
    // AND the re-run returns the machine to service (the gate decides): it passes and is no longer quarantined
    const again = await apply(rig.p.srv, gate(machineId));
    expect(lines(again.diagnostics)).toBe("");
    expect(again.newState).toMatchObject({ passed: true });
    expect(await quarantined(machineId)).toBeUndefined();
    state = again.newState as ObjectValue;
  });

  it("GIVEN bmc_gpu_count first recorded WHEN plan THEN nothing re-runs; GIVEN it drops (a GPU lost) THEN the gate re-runs, fails on the missing GPU and quarantines; with the GPU back it passes and lifts the quarantine", async () => {
    const first = await plan(rig.p.srv, gate(machineId, { bmc_gpu_count: 8 }), state);
    expect(replacePaths(first)).toEqual([]);
    const recorded = await apply(rig.p.srv, gate(machineId, { bmc_gpu_count: 8 }), state);
    expect(lines(recorded.diagnostics)).toBe("");
    state = recorded.newState as ObjectValue;
    expect(state).toMatchObject({ bmc_gpu_count: 8, passed: true });

    const f = rig.ml.lab.world.faults.add({ kind: "missing-gpu", node: good, gpus: 1 });
    try {
      const pl = await plan(rig.p.srv, gate(machineId, { bmc_gpu_count: 7 }), state);
      expect(replacePaths(pl)).toEqual(["bmc_gpu_count"]);
      // The engine replaces the gate: a new run, which fails on the missing GPU and takes the node out of service.
      const a = await applyAcceptance(rig.p.srv, gate(machineId, { bmc_gpu_count: 7 }), null);
      const errors = a.diagnostics.filter((d) => d.severity === "error");
      expect(errors.map((d) => d.summary)).toEqual(["Acceptance gate failed"]);
      expect(errors[0].detail).toContain(`(${good}) failed the gate`);
      expect(errors[0].detail).toContain("expected_gpu_count: measured 7 GPUs visible; threshold 8 GPUs");
      expect(errors[0].detail).toContain("Its BMC reports 7 of 8 GPUs (bmc_gpu_count");
      expect(errors[0].detail).toContain("reseat or replace it");
      expect(a.newState).toMatchObject({ passed: false, gpu_count: 7, bmc_gpu_count: 7 });
      expect(await quarantined(machineId)).toMatch(/^rackform acceptance failed: expected_gpu_count/);
    } finally {
      rig.ml.lab.world.faults.remove(f.id);
    }
    const back = await apply(rig.p.srv, gate(machineId, { bmc_gpu_count: 8 }));
    expect(lines(back.diagnostics)).toBe("");
    expect(back.newState).toMatchObject({ passed: true, gpu_count: 8, bmc_gpu_count: 8 });
    expect(await quarantined(machineId)).toBeUndefined();
    state = back.newState as ObjectValue;
  });

  it("GIVEN marginal NCCL and a missing GPU WHEN create THEN every failed check shows measured vs threshold, and the node is quarantined and tainted", async () => {
    const id = await deployed(bad, backend);
    const f1 = rig.ml.lab.world.faults.add({ kind: "marginal-nccl", node: bad, value: 300 });
    const f2 = rig.ml.lab.world.faults.add({ kind: "missing-gpu", node: bad, gpus: 1 });
    const a = await apply(rig.p.srv, gate(id));
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.summary)).toEqual(["Acceptance gate failed"]);
    expect(errors[0].detail).toContain("nccl_min_busbw_gbps: measured all_reduce busbw 300 GB/s; threshold ≥ 360 GB/s");
    expect(errors[0].detail).toContain("expected_gpu_count: measured 7 GPUs visible; threshold 8 GPUs");
    expect(a.newState).toMatchObject({ id, passed: false, gpu_count: 7, busbw_gbps: 300 });
    expect(JSON.parse((a.newState as ObjectValue).evidence as string).passed).toBe(false);
    expect(await quarantined(id)).toMatch(/^rackform acceptance failed: .*nccl_min_busbw_gbps/);

    // The node is repaired; the engine replaces the tainted result: the gate runs again and lifts the quarantine.
    rig.ml.lab.world.faults.remove(f1.id);
    rig.ml.lab.world.faults.remove(f2.id);
    const again = await apply(rig.p.srv, gate(id));
    expect(lines(again.diagnostics)).toBe("");
    expect(again.newState).toMatchObject({ passed: true, gpu_count: 8 });
    expect(await quarantined(id)).toBeUndefined();
  });

  it("GIVEN a failed gate (quarantined) WHEN the gate is destroyed THEN rackform lifts its own quarantine; one set by hand stays", async () => {
    const id = machineId;
    const fault = rig.ml.lab.world.faults.add({ kind: "missing-gpu", node: good, gpus: 1 });
    const failed = await applyAcceptance(rig.p.srv, gate(id, { dcgm_level: 4 }), null);
    rig.ml.lab.world.faults.remove(fault.id);
    expect(await quarantined(id)).toMatch(/^rackform acceptance failed/);
    const destroy = (st: Value) =>
      rig.p.srv.applyResourceChange({
        typeName: A,
        priorState: st,
        plannedState: null,
        config: null,
        plannedPrivate: new Uint8Array(0),
      });
    const d = await destroy(failed.newState);
    expect(lines(d.diagnostics)).toBe("");
    expect(await quarantined(id)).toBeUndefined();
    // A machine an operator took out of service is theirs: destroying the gate leaves it as it is.
    const raw = id.replace(/^\w+:/, "");
    if (backend === "maas") await rig.ml.maas.updateMachine(raw, { description: "" });
    if (backend === "maas") await rig.ml.maas.markBroken(raw, "GPU 3 fell off the bus");
    else await rig.ml.ironic.setMaintenance(raw, true, "GPU 3 fell off the bus");
    expect(lines((await destroy(failed.newState)).diagnostics)).toBe("");
    expect(await quarantined(id)).toBe("GPU 3 fell off the bus");
  });
});
