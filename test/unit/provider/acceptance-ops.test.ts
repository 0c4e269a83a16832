/**
 * rackform_acceptance's handlers called directly with fake deps: the in-memory backend (with scripted gate evidence)
 * and a recording budget. No provider, no server, no lab.
 */
import { describe, expect, it } from "vitest";
import { HttpConnectError } from "../../../src/clients/errors.js";
import { type Diagnostics, formatPath, UNKNOWN } from "../../../src/framework/index.js";
import type { AcceptanceEvidence, Backend } from "../../../src/provider/backends/index.js";
import {
  type AcceptanceDeps,
  createAcceptance,
  deleteAcceptance,
  importAcceptance,
  readAcceptance,
  updateAcceptance,
} from "../../../src/provider/resources/acceptance-ops.js";
import { planAcceptance } from "../../../src/provider/resources/acceptance-plan.js";
import type {
  AcceptanceConfig,
  AcceptancePlan,
  AcceptanceState,
} from "../../../src/provider/resources/acceptance-schema.js";
import { RolloutHandovers } from "../../../src/provider/shared/rollout-handover.js";
import { acceptancePlan, passingEvidence } from "../../support/acceptance-fixtures.js";
import { FakeBackend, type FakeMachine } from "../../support/fake-backend.js";
import { typedRequest } from "../../support/typed-request.js";

const evidence = passingEvidence;

/**
 * The in-memory backend with one deployed machine whose gate reports `e` (undefined: no evidence) under the test
 * results' mark `mark`; every call recorded in `fake.calls`.
 */
function gated(e: AcceptanceEvidence | undefined, mark = "t1") {
  const fake = new FakeBackend("maas");
  const m = fake.seed({ name: "r01-n02", state: "deployed", status: "Deployed" });
  const facts = () => ({ ...fake.facts(m), testsMark: mark });
  const backend: Backend = Object.assign(Object.create(fake), {
    runAcceptance: async (id: string) => {
      fake.calls.push(`runAcceptance ${id}`);
      return { outcome: { kind: "complete", facts: facts() }, evidence: e };
    },
    read: async (id: string) => {
      fake.calls.push(`read ${id}`);
      return fake.machines.has(id) ? facts() : undefined;
    },
    lastAcceptance: async (id: string) => {
      fake.calls.push(`lastAcceptance ${id}`);
      return e;
    },
  });
  const budget: string[] = [];
  const rollouts = new RolloutHandovers();
  const deps: AcceptanceDeps = {
    backend: () => backend,
    bmc: () => {
      throw new Error("no BMC in these tests (no attestation)");
    },
    budget: { releaseFailed: async (names, why) => void budget.push(`${names.join(",")}: ${why}`) },
    rollouts,
  };
  return { fake, m, deps, budget, rollouts };
}

const req = typedRequest;
const summaries = (d: Diagnostics) => d.items.map((x) => `${x.severity} ${x.summary}`);

const plan = (m: FakeMachine, o: Partial<AcceptancePlan> = {}): AcceptancePlan => acceptancePlan(`maas:${m.id}`, o);

const passed = (m: FakeMachine, o: Partial<AcceptanceState> = {}): AcceptanceState => ({
  ...plan(m),
  dcgm_level: 3,
  burn_in: "1h",
  allow_xid: false,
  recheck: null,
  attestation_evidence: null,
  id: `maas:${m.id}`,
  passed: true,
  gpu_count: 8,
  busbw_gbps: 377,
  evidence: JSON.stringify(evidence()),
  ...o,
});

describe("rackform_acceptance create", () => {
  it("a passing gate records its figures and evidence, and the test results' mark in private state", async () => {
    const { m, deps, fake, budget } = gated(evidence());
    const r = req();
    const s = await createAcceptance({ ...r, plan: plan(m) }, deps);
    expect(summaries(r.diagnostics)).toEqual([]);
    expect(s).toEqual(passed(m));
    expect(r.private.value).toEqual({ tests_seen: { mark: "t1", verdict: true } });
    expect([fake.calls, budget]).toEqual([[`runAcceptance ${m.id}`], []]);
  });

  it("a failing gate quarantines the machine, records it as failed and gives back its drain slot", async () => {
    const { m, deps, fake, budget } = gated(evidence());
    const r = req();
    const s = await createAcceptance({ ...r, plan: plan(m, { nccl_min_busbw_gbps: 380, bmc_gpu_count: 7 }) }, deps);
    expect(summaries(r.diagnostics)).toEqual(["error Acceptance gate failed"]);
    const detail = r.diagnostics.items[0].detail;
    expect(detail).toContain("nccl_min_busbw_gbps: measured all_reduce busbw 377 GB/s; threshold ≥ 380 GB/s");
    expect(detail).toContain("marked Broken in MAAS");
    expect(detail).toContain("Its BMC reports 7 of 8 GPUs");
    expect(s).toMatchObject({ passed: false, busbw_gbps: 377, gpu_count: 8 });
    expect(fake.calls).toEqual([`runAcceptance ${m.id}`, `quarantine ${m.id}`]);
    expect(m.message).toMatch(/^rackform acceptance failed: nccl_min_busbw_gbps/);
    expect(budget).toEqual([`maas:${m.id}: failed its acceptance gate`]);
  });

  it("a gate without evidence fails as 'no gate result' and records no mark's verdict", async () => {
    const { m, deps } = gated(undefined);
    const r = req();
    const s = await createAcceptance({ ...r, plan: plan(m) }, deps);
    expect(r.diagnostics.items[0].detail).toContain("the backend reported no gate result: status Deployed");
    expect(s).toMatchObject({ passed: false, evidence: null, gpu_count: null });
    expect(r.private.value).toEqual({ tests_seen: { mark: "t1", verdict: null } });
  });

  it("created while the ladder takes a step on its node (its remedy offered), the gate is the member's to run", async () => {
    // GIVEN a gate that failed before its node joined, replaced while the deployment offers the ladder's power cycle
    const { m, deps, fake, rollouts } = gated(evidence());
    const remedy = { what: "power cycle", failure: "failed its power cycle", run: async () => "done" as const };
    rollouts.offerRemedy(`maas:${m.id}`, remedy);
    const r = req();
    // WHEN created
    const s = await createAcceptance({ ...r, plan: plan(m, { remediation: "power_cycle:1" }) }, deps);
    // THEN nothing runs before the remedy: the gate is offered beside it, the verdict pending
    expect([summaries(r.diagnostics), fake.calls]).toEqual([[], []]);
    expect([s?.passed, s?.remediation, s?.evidence]).toEqual([null, "power_cycle:1", null]);
    const offers = rollouts.take(`maas:${m.id}`);
    expect([offers.remedy, offers.gate?.what]).toEqual([remedy, `the acceptance gate of ${m.id}`]);
    // AND without a remedy offered in this apply (a rung recorded earlier), a create runs the gate itself
    const r2 = req();
    await createAcceptance({ ...r2, plan: plan(m, { remediation: "power_cycle:1" }) }, deps);
    expect(fake.calls).toEqual([`runAcceptance ${m.id}`]);
  });

  it("a malformed machine id is an error at machine_id", async () => {
    const { deps } = gated(evidence());
    const r = req();
    const bad = { ...plan({ id: "x" } as FakeMachine), machine_id: "nope" };
    expect(await createAcceptance({ ...r, plan: bad }, deps)).toBeUndefined();
    expect(r.diagnostics.items.map((d) => `${d.summary} @ ${formatPath(d.attribute)}`)).toEqual([
      "Invalid machine_id @ machine_id",
    ]);
  });
});

describe("rackform_acceptance read and update", () => {
  it("the same test results' mark spares re-reading the evidence; a new one reads and remembers it", async () => {
    const { m, deps, fake } = gated(evidence(), "t1");
    const st = passed(m);
    const same = req({ tests_seen: { mark: "t1", verdict: true } });
    expect(await readAcceptance({ ...same, state: st }, deps)).toEqual(st);
    expect(fake.calls).toEqual([`read ${m.id}`]);
    const other = req({ tests_seen: { mark: "t0", verdict: true } });
    expect(await readAcceptance({ ...other, state: st }, deps)).toEqual(st);
    expect(fake.calls.slice(1)).toEqual([`read ${m.id}`, `lastAcceptance ${m.id}`]);
    expect(other.private.value).toEqual({ tests_seen: { mark: "t1", verdict: true } });
  });

  it("a machine quarantined by hand reads as not passed; a machine gone reads as null", async () => {
    const { m, deps, fake } = gated(evidence());
    m.state = "broken";
    expect((await readAcceptance({ ...req(), state: passed(m) }, deps))?.passed).toBe(false);
    fake.machines.delete(m.id);
    expect(await readAcceptance({ ...req(), state: passed(m) }, deps)).toBeNull();
  });

  it("a read the backend does not answer keeps the recorded verdict with a warning", async () => {
    const { m, deps } = gated(evidence());
    const down: AcceptanceDeps = {
      ...deps,
      backend: () =>
        Object.assign(Object.create(deps.backend("maas")), {
          read: () => Promise.reject(new HttpConnectError("connect ECONNREFUSED", {})),
        }),
    };
    const r = req();
    const st = passed(m);
    expect(await readAcceptance({ ...r, state: st }, down)).toBe(st);
    expect(r.diagnostics.items.map((d) => d.severity)).toEqual(["warning"]);
  });

  it("update records a wholly known plan as planned without asking the backend; else it re-reads the gate", async () => {
    const { m, deps, fake } = gated(evidence());
    const st = passed(m);
    const covered = { ...st, nccl_min_busbw_gbps: 360 };
    expect(await updateAcceptance({ ...req(), plan: covered, state: st }, deps)).toBe(covered);
    expect(fake.calls).toEqual([]);
    const p = plan(m, { id: st.id, expected_gpu_count: 8 });
    expect(await updateAcceptance({ ...req(), plan: p, state: st }, deps)).toEqual({ ...st, expected_gpu_count: 8 });
    expect(fake.calls).toEqual([`read ${m.id}`, `lastAcceptance ${m.id}`]);
    fake.machines.delete(m.id);
    const r = req();
    expect(await updateAcceptance({ ...r, plan: p, state: st }, deps)).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error Machine not found"]);
  });
});

describe("rackform_acceptance delete, import and plan", () => {
  it("delete lifts rackform's quarantine; import takes the machine id", async () => {
    const { m, deps, fake } = gated(evidence());
    Object.assign(m, { status: "Broken", message: "rackform acceptance failed: x" });
    await deleteAcceptance({ ...req(), state: passed(m, { passed: false }) }, deps);
    expect(fake.calls).toEqual([`liftQuarantine ${m.id}`]);
    expect(m.status).toBe("Deployed");
    expect(importAcceptance({ ...req(), id: "maas:abc" })).toEqual({ id: "maas:abc", machine_id: "maas:abc" });
    const r = req();
    expect(importAcceptance({ ...r, id: "abc" })).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error Invalid import id for rackform_acceptance"]);
  });

  const m = { id: "abc" } as FakeMachine;
  const planned = (state: AcceptanceState | null, p: AcceptanceConfig | null) => {
    const r = { ...req(), private: {}, config: p, plan: p, state };
    const out = planAcceptance(r);
    return { out, replaces: (out?.requiresReplace ?? []).map((x) => formatPath(x)), diags: r.diagnostics };
  };

  it("a failed gate re-runs; nothing is planned on create or destroy", () => {
    const failed = planned(passed(m, { passed: false }), passed(m, { passed: false }));
    expect([failed.out?.plan?.passed, failed.replaces]).toEqual([UNKNOWN, ["passed"]]);
    expect(planned(null, plan(m)).out).toBeUndefined();
    expect(planned(passed(m), null).out).toBeUndefined();
  });

  it("a covered policy edit keeps the verdict and evidence; an uncovered one re-runs with a warning naming the node", () => {
    const edit = { ...plan(m, { nccl_min_busbw_gbps: 360 }), id: `maas:${m.id}` };
    const st = passed(m, { nccl_min_busbw_gbps: 370 });
    const covered = planned(st, edit);
    expect([covered.replaces, summaries(covered.diags)]).toEqual([[], []]);
    expect(covered.out?.plan).toMatchObject({ passed: true, busbw_gbps: 377, evidence: st.evidence });
    const raised = planned(st, { ...edit, nccl_min_busbw_gbps: 380 });
    expect([raised.replaces, summaries(raised.diags)]).toEqual([
      ["nccl_min_busbw_gbps"],
      ["warning Acceptance gate re-runs: r01-n02"],
    ]);
    expect(raised.out?.plan).toBeUndefined();
  });
});

describe("rackform_acceptance in a rolling reimage", () => {
  const OLD = "ubuntu-gpu@1 sha256:aa";
  const NEW = "ubuntu-gpu@2 sha256:bb";

  it("a new image_ref plans the gate in place with passed unknown, also over a failed gate; a first one does not, nor a failed gate with no roll", () => {
    const m = { id: "abc" } as FakeMachine;
    const planOf = (st: AcceptanceState) => {
      const p = { ...st, image_ref: NEW };
      return planAcceptance({ ...req(), private: {}, config: p, plan: p, state: st });
    };
    const rolled = planOf(passed(m, { image_ref: OLD }));
    expect([rolled?.plan?.passed, rolled?.requiresReplace]).toEqual([UNKNOWN, undefined]);
    expect(planOf(passed(m))).toBeUndefined();
    // A node out of service (a failed gate or firmware update quarantined it) re-runs its gate inside the roll.
    const failed = planOf(passed(m, { image_ref: OLD, passed: false }));
    expect([failed?.plan?.passed, failed?.requiresReplace]).toEqual([UNKNOWN, undefined]);
    const still = passed(m, { image_ref: NEW, passed: false });
    const replaced = planAcceptance({ ...req(), private: {}, config: still, plan: still, state: still });
    expect(replaced?.requiresReplace?.map((x) => formatPath(x))).toEqual(["passed"]);
    // A gate run still to come (passed null under a recorded image_ref) is planned again, until a refresh judges it.
    const pending = passed(m, { image_ref: NEW, passed: null });
    const again = planAcceptance({ ...req(), private: {}, config: pending, plan: pending, state: pending });
    expect(again?.plan?.passed).toBe(UNKNOWN);
  });

  it("the update offers the gate to the member and records passed null; the offer runs and judges the gate", async () => {
    const { m, deps, fake, rollouts } = gated(evidence({ nccl: { busbw_gbps: 380, min_busbw_gbps: 370 } }), "t2");
    const st = passed(m, { image_ref: OLD });
    const s = await updateAcceptance({ ...req(), plan: { ...st, image_ref: NEW, passed: UNKNOWN }, state: st }, deps);
    expect([s?.passed, s?.image_ref, s?.evidence]).toEqual([null, NEW, st.evidence]);
    expect(fake.calls).toEqual([]);
    const step = { ...req(), machineId: `maas:${m.id}`, rebooted: false };
    expect(await rollouts.take(`maas:${m.id}`).gate?.run(step)).toBe("done");
    expect([fake.calls, summaries(step.diagnostics)]).toEqual([[`runAcceptance ${m.id}`], []]);
    // A refresh keeps passed null while the evidence is the recorded one, and judges the run's new evidence.
    const recordedRun = {
      ...s!,
      evidence: JSON.stringify(evidence({ nccl: { busbw_gbps: 380, min_busbw_gbps: 370 } })),
    };
    expect((await readAcceptance({ ...req(), state: recordedRun }, deps))?.passed).toBeNull();
    const judged = await readAcceptance({ ...req(), state: s! }, deps);
    expect([judged?.passed, judged?.busbw_gbps]).toEqual([true, 380]);
  });

  it("an offered gate that fails quarantines the machine and reports failed", async () => {
    const { m, deps, fake, rollouts } = gated(evidence());
    const st = passed(m, { image_ref: OLD, nccl_min_busbw_gbps: 380 });
    await updateAcceptance({ ...req(), plan: { ...st, image_ref: NEW, passed: UNKNOWN }, state: st }, deps);
    const step = { ...req(), machineId: `maas:${m.id}`, rebooted: false };
    expect(await rollouts.take(`maas:${m.id}`).gate?.run(step)).toBe("failed");
    expect(summaries(step.diagnostics)).toEqual(["error Acceptance gate failed"]);
    expect(fake.calls).toEqual([`runAcceptance ${m.id}`, `quarantine ${m.id}`]);
  });
});
