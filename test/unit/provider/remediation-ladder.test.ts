/**
 * The health remediation ladder (src/provider/shared/remediation.ts) through the handlers of the three resources that
 * carry it: rackform_deployment plans the rung and offers its remedy, rackform_acceptance re-runs its gate in place,
 * rackform_cluster_member carries a step out within its budget (and max_unhealthy), or holds the node for repair.
 */
import { describe, expect, it } from "vitest";
import { isUnknownValue, UNKNOWN } from "../../../src/framework/index.js";
import { planAcceptance, plannedRecheck } from "../../../src/provider/resources/acceptance-plan.js";
import type { AcceptanceState } from "../../../src/provider/resources/acceptance-schema.js";
import { thresholdsOf } from "../../../src/provider/resources/acceptance-schema.js";
import { planMember, updateMember } from "../../../src/provider/resources/cluster-member-ops.js";
import type { ClusterMemberPlan, ClusterMemberState } from "../../../src/provider/resources/cluster-member-schema.js";
import { readDeployment, updateDeployment } from "../../../src/provider/resources/deployment-ops.js";
import { planDeployment } from "../../../src/provider/resources/deployment-plan.js";
import { PRIVATE_LADDER } from "../../../src/provider/resources/deployment-remediation.js";
import { nextRung, rungLabel } from "../../../src/provider/shared/remediation.js";
import type { RolloutHandovers } from "../../../src/provider/shared/rollout-handover.js";
import { deploymentDeps, maas, recorded } from "../../support/deployment-fakes.js";
import { fakeDeps, memberState, offerLadderStep, offerRepair } from "../../support/member-fakes.js";
import { diagnosticLines, typedRequest } from "../../support/typed-request.js";

const GPU3 = {
  component: "GPU3",
  kind: "gpu",
  health: "Critical",
  uri: "/redfish/v1/Systems/1/Processors/GPU3",
  since: "2026-11-27T10:00:00Z",
};
const WARN = { ...GPU3, component: "NIC1", kind: "nic", health: "Warning" };
const STEPS = ["power_cycle", "reimage"] as const;

describe("the ladder's next rung", () => {
  it.each([
    // sick, current, pending, steps → next
    [false, "reimage:1", false, STEPS, ""],
    [true, "", false, STEPS, "power_cycle:1"],
    [true, "power_cycle:1", false, STEPS, "reimage:1"],
    [true, "power_cycle:1", true, STEPS, "power_cycle:2"],
    [true, "reimage:1", false, STEPS, "repair"],
    [true, "repair", false, STEPS, "repair"],
    [true, "", false, ["reimage"] as const, "reimage:1"],
    [true, "", false, [] as const, "repair"],
  ])("sick %s at %j (pending %s, steps %j) → %j", (sick, current, pending, steps, want) => {
    expect(nextRung({ sick, current, pending, steps: [...steps] })).toBe(want);
  });

  it("names each rung as plan-summary shows it", () => {
    expect(["power_cycle:1", "power_cycle:2", "reimage:1", "repair", ""].map(rungLabel)).toEqual([
      "power cycle",
      "power cycle (attempt 2)",
      "reimage with the pinned image",
      "quarantine for repair",
      "none",
    ]);
  });
});

describe("rackform_deployment plans and offers the rung", () => {
  const planned = (st: ReturnType<typeof recorded>, health: unknown[], priv = {}) => {
    const p = { ...st, bmc_health: health as never, remediation: UNKNOWN };
    return planDeployment({ ...typedRequest(), private: priv, config: p, plan: p, state: st })?.plan?.remediation;
  };

  it("not following bmc_health plans no ladder; a Warning is never acted on; a Critical finding starts it", () => {
    const { m } = maas();
    const st = recorded(m, { bmc_health: [], remediation: "" });
    const p = { ...st, bmc_health: null, remediation: UNKNOWN };
    const off = planDeployment({
      ...typedRequest(),
      private: {},
      config: p,
      plan: p,
      state: { ...st, bmc_health: null },
    });
    expect(off?.plan?.remediation).toBeNull();
    expect(planned(st, [WARN])).toBe("");
    expect(planned(st, [WARN, GPU3])).toBe("power_cycle:1");
  });

  it("a step offered but never run is planned again with the next attempt; one that ran moves on", () => {
    const { m } = maas();
    const st = recorded(m, { bmc_health: [GPU3], remediation: "power_cycle:1" });
    const offered = { rung: "power_cycle:1", at: "2026-11-27T10:05:00Z" };
    expect(planned(st, [GPU3], { [PRIVATE_LADDER]: { ...offered, ran: false } })).toBe("power_cycle:2");
    expect(planned(st, [GPU3], { [PRIVATE_LADDER]: { ...offered, ran: true } })).toBe("reimage:1");
    expect(planned(st, [], { [PRIVATE_LADDER]: { ...offered, ran: true } })).toBe("");
  });

  it("a rung recorded without its offer (its update failed before offering it) never ran: planned again, not passed over", () => {
    const { m } = maas();
    // The update of power_cycle:2 failed reading the machine: the engine recorded the planned rung, the private data
    // still holds the offer of power_cycle:1 (chaos seed 1501, a backend storm during the update).
    const st = recorded(m, { bmc_health: [GPU3], remediation: "power_cycle:2" });
    const stale = { rung: "power_cycle:1", at: "2026-11-27T10:05:00Z", ran: false };
    expect(planned(st, [GPU3], { [PRIVATE_LADDER]: stale })).toBe("power_cycle:3");
    expect(planned(st, [GPU3], {})).toBe("power_cycle:3");
    expect(planned({ ...st, remediation: "repair" }, [GPU3], { [PRIVATE_LADDER]: stale })).toBe("repair");
  });

  it("the update offers a power cycle as the member's remedy and remembers the offer; read marks it run", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed", status: "Deployed", image: "custom/ubuntu-gpu-2026.06.2", power: "on" });
    const st = recorded(m, { bmc_health: [GPU3], remediation: "" });
    const { deps, rollouts } = deploymentDeps(fake);
    const r = typedRequest();
    const s = await updateDeployment({ ...r, plan: { ...st, remediation: "power_cycle:1" }, state: st }, deps);
    expect(s?.remediation).toBe("power_cycle:1");
    const offered = r.private.value[PRIVATE_LADDER] as { rung: string; ran: boolean };
    expect([offered.rung, offered.ran]).toEqual(["power_cycle:1", false]);
    const offers = rollouts.take(`maas:${m.id}`);
    expect([offers.remedy?.what.startsWith("power cycle"), offers.reimage]).toEqual([true, undefined]);
    const step = { ...typedRequest(), machineId: `maas:${m.id}`, rebooted: false };
    expect(await offers.remedy?.run(step)).toBe("done");
    // WHEN the member carried the power cycle out, THEN it marked the machine and the next read marks the step as run
    expect(fake.calls.slice(-2)).toEqual([`powerCycle ${m.id}`, `noteRemedy ${m.id}`]);
    const rr = typedRequest(r.private.value);
    await readDeployment({ ...rr, state: s! }, deps);
    expect((rr.private.value[PRIVATE_LADDER] as { ran: boolean }).ran).toBe(true);
  });

  it("a gate run for another cause is no proof of the step: a power cycle never carried out is offered again (seed 6403)", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed", status: "Deployed", image: "custom/ubuntu-gpu-2026.06.2", power: "on" });
    const st = recorded(m, { bmc_health: [GPU3], remediation: "" });
    const { deps, rollouts } = deploymentDeps(fake);
    const r = typedRequest();
    const s = await updateDeployment({ ...r, plan: { ...st, remediation: "power_cycle:1" }, state: st }, deps);
    // GIVEN the gate ran after the offer for another cause (rackform_acceptance's own re-run on a GPU count drop),
    // failed, and so the member carrying the power cycle was never applied
    fake.evidence.set(m.id, {
      format: "rackform-acceptance/v1",
      measured_at: new Date(Date.now() + 1000).toISOString(),
      passed: false,
    });
    rollouts.take(`maas:${m.id}`);
    // WHEN the next plan refreshes and plans the ladder
    const rr = typedRequest(r.private.value);
    const read = await readDeployment({ ...rr, state: s! }, deps);
    // THEN the step counts as not run: the power cycle is offered again, not passed over for a reimage
    expect(fake.calls).not.toContain(`powerCycle ${m.id}`);
    expect((rr.private.value[PRIVATE_LADDER] as { ran: boolean }).ran).toBe(false);
    expect(planned(read!, [GPU3], rr.private.value)).toBe("power_cycle:2");
  });

  it("a reimage marks the machine after its deploy (MAAS drops owner data on release), so the step counts as run", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed", status: "Deployed", image: "custom/ubuntu-gpu-2026.06.2", power: "on" });
    const st = recorded(m, { bmc_health: [GPU3], remediation: "power_cycle:1" });
    const { deps, rollouts } = deploymentDeps(fake);
    const r = typedRequest({ [PRIVATE_LADDER]: { rung: "power_cycle:1", at: "2026-11-27T10:05:00Z", ran: true } });
    const s = await updateDeployment({ ...r, plan: { ...st, remediation: "reimage:1" }, state: st }, deps);
    const reimage = rollouts.take(`maas:${m.id}`).reimage;
    expect(await reimage?.run({ ...typedRequest(), machineId: `maas:${m.id}`, rebooted: false })).toBe("done");
    expect(fake.calls.filter((c) => /^(release|deploy|noteRemedy) /.test(c))).toEqual([
      `release ${m.id}`,
      `deploy ${m.id}`,
      `noteRemedy ${m.id}`,
    ]);
    const rr = typedRequest(r.private.value);
    const read = await readDeployment({ ...rr, state: s! }, deps);
    expect(planned(read!, [GPU3], rr.private.value)).toBe("repair");
  });

  it("the reimage rung offers the deployment's own reimage; repair offers the backend's quarantine", async () => {
    const { fake, m } = maas();
    Object.assign(m, { state: "deployed", status: "Deployed", image: "custom/ubuntu-gpu-2026.06.2", power: "on" });
    const st = recorded(m, { bmc_health: [GPU3], remediation: "power_cycle:1" });
    const { deps, rollouts } = deploymentDeps(fake);
    await updateDeployment({ ...typedRequest(), plan: { ...st, remediation: "reimage:1" }, state: st }, deps);
    expect(Object.keys(rollouts.take(`maas:${m.id}`))).toEqual(["reimage"]);
    const at = { ...st, remediation: "reimage:1" };
    await updateDeployment({ ...typedRequest(), plan: { ...at, remediation: "repair" }, state: at }, deps);
    const repair = rollouts.take(`maas:${m.id}`).remedy;
    expect(await repair?.run({ ...typedRequest(), machineId: `maas:${m.id}`, rebooted: false })).toBe("done");
    expect(fake.calls.at(-1)).toBe(`quarantine ${m.id}`);
    expect(m.message).toMatch(/^rackform acceptance failed: health remediation exhausted.*GPU3 Critical \(gpu\)/);
  });
});

describe("rackform_acceptance follows the ladder", () => {
  const gate = (o: Partial<AcceptanceState> = {}): AcceptanceState =>
    ({
      id: "maas:m1",
      machine_id: "maas:m1",
      dcgm_level: 3,
      nccl_min_busbw_gbps: null,
      burn_in: "1h",
      expected_gpu_count: null,
      bmc_gpu_count: null,
      bmc_health: [GPU3],
      remediation: "",
      allow_xid: false,
      firmware: null,
      image_ref: null,
      firmware_ref: null,
      passed: true,
      gpu_count: 8,
      busbw_gbps: 377,
      evidence: "{}",
      timeouts: null,
      ...o,
    }) as AcceptanceState;
  const plan = (st: AcceptanceState, remediation: string) => {
    const p = { ...st, remediation };
    return planAcceptance({ ...typedRequest(), private: {}, config: p, plan: p, state: st });
  };

  it("a step re-runs the gate in place; the same step after a failed run too; repair holds the failed verdict", () => {
    const step = plan(gate(), "power_cycle:1");
    expect([isUnknownValue(step?.plan?.passed), step?.requiresReplace]).toEqual([true, undefined]);
    const again = plan(gate({ remediation: "power_cycle:1", passed: false }), "reimage:1");
    expect([isUnknownValue(again?.plan?.passed), again?.requiresReplace]).toEqual([true, undefined]);
    const held = plan(gate({ remediation: "reimage:1", passed: false }), "repair");
    expect([held?.plan?.passed, held?.requiresReplace]).toEqual([false, undefined]);
    // Findings cleared, the ladder reset: a failed gate re-runs as any failed gate does.
    expect(plan(gate({ remediation: "repair", passed: false }), "")?.requiresReplace).toBeDefined();
  });

  it("while the ladder is followed, a Critical finding is the ladder's to act on, not the verdict's", () => {
    expect(thresholdsOf(gate({ remediation: null })).bmcHealth).toHaveLength(1);
    expect(thresholdsOf(gate()).bmcHealth).toBeUndefined();
  });
});

describe("rackform_cluster_member carries the rung", () => {
  const member = (n: string, o: Partial<ClusterMemberState> = {}): ClusterMemberState =>
    memberState({ max_unavailable: 1, remediation: "", ...o }, n);
  const to = (st: ClusterMemberState, remediation: string, o: Partial<ClusterMemberPlan> = {}): ClusterMemberPlan => ({
    ...st,
    remediation,
    state: UNKNOWN,
    joined: UNKNOWN,
    ...o,
  });

  it("a step plans an in-place update; a node held for repair plans no re-join", () => {
    const st = member("n1");
    const p = to(st, "power_cycle:1");
    const out = planMember({ ...typedRequest(), config: p, plan: p, state: st, private: {} });
    expect([out?.plan?.joined, out?.requiresReplace]).toEqual([true, undefined]);
    const held = member("n1", { remediation: "repair", joined: false, state: "DRAINED" });
    const hp = to(held, "repair");
    expect(planMember({ ...typedRequest(), config: hp, plan: hp, state: held, private: {} })?.plan?.joined).not.toBe(
      true,
    );
  });

  it("drains, power cycles, gates and rejoins the node, recording the rung; a failed gate keeps the old one", async () => {
    const f = fakeDeps();
    f.nodes.set("n1", { registered: true, state: "IDLE", joined: true, partitions: ["gpu"] });
    offerLadderStep(f, "n1");
    const r = typedRequest();
    const s = await updateMember({ ...r, plan: to(member("n1"), "power_cycle:1"), state: member("n1") }, f.deps);
    expect(diagnosticLines(r.diagnostics)).toEqual([]);
    expect([s?.remediation, s?.joined]).toEqual(["power_cycle:1", true]);
    expect(f.calls.filter((c) => /^(drain|power|gate|join) /.test(c))).toEqual([
      "drain n1",
      "power cycle n1",
      "gate n1",
      "join n1",
    ]);
    offerLadderStep(f, "n1", false);
    const r2 = typedRequest();
    const at = member("n1", { remediation: "power_cycle:1" });
    const s2 = await updateMember({ ...r2, plan: to(at, "reimage:1"), state: at }, f.deps);
    expect(s2?.remediation).toBe("power_cycle:1");
    expect(diagnosticLines(r2.diagnostics)).toEqual(["error Acceptance gate failed @ "]);
  });

  it("max_unhealthy: beyond it a node is left as it is, with a warning naming the limit", async () => {
    const f = fakeDeps();
    for (const n of ["n1", "n2"]) {
      f.nodes.set(n, { registered: true, state: "IDLE", joined: true, partitions: ["gpu"] });
      offerLadderStep(f, n);
    }
    const [r1, r2] = [typedRequest(), typedRequest()];
    const s1 = await updateMember(
      { ...r1, plan: to(member("n1"), "power_cycle:1", { max_unhealthy: 1 }), state: member("n1") },
      f.deps,
    );
    const s2 = await updateMember(
      { ...r2, plan: to(member("n2"), "power_cycle:1", { max_unhealthy: 1 }), state: member("n2") },
      f.deps,
    );
    // n2 records its configuration as planned (nothing failed), untouched: its deployment plans the step again
    expect([s1?.remediation, s2?.remediation, s2?.joined]).toEqual(["power_cycle:1", "power_cycle:1", true]);
    expect(diagnosticLines(r2.diagnostics)).toEqual([
      "warning Remediation held back by max_unhealthy: n2 @ max_unhealthy",
    ]);
    expect(f.calls).not.toContain("drain n2");
  });

  it("repair: drains, quarantines and records the node out of service", async () => {
    const f = fakeDeps();
    f.nodes.set("n1", { registered: true, state: "IDLE", joined: true, partitions: ["gpu"] });
    offerRepair(f, "n1");
    const at = member("n1", { remediation: "reimage:1" });
    const r = typedRequest();
    const s = await updateMember({ ...r, plan: to(at, "repair"), state: at }, f.deps);
    expect([s?.remediation, s?.joined]).toEqual(["repair", false]);
    expect(f.calls.filter((c) => /^(drain|quarantine|join) /.test(c))).toEqual(["drain n1", "quarantine n1"]);
  });
});

describe("evidence with an age: evidence_max_age and recheck", () => {
  const measured = "2026-11-20T10:00:00.000Z";
  const gate = (o: Partial<AcceptanceState> = {}): AcceptanceState =>
    ({
      id: "maas:m1",
      machine_id: "maas:m1",
      dcgm_level: 3,
      nccl_min_busbw_gbps: null,
      burn_in: "1h",
      expected_gpu_count: null,
      bmc_gpu_count: null,
      bmc_health: null,
      remediation: null,
      evidence_max_age: "168h",
      recheck: null,
      allow_xid: false,
      firmware: null,
      image_ref: null,
      firmware_ref: null,
      passed: true,
      gpu_count: 8,
      busbw_gbps: 377,
      evidence: JSON.stringify({ format: "rackform-acceptance/v1", measured_at: measured }),
      timeouts: null,
      ...o,
    }) as AcceptanceState;
  const day = 24 * 3600_000;

  it("evidence older than the max age plans one recheck, kept until the next expiry", () => {
    const at = Date.parse(measured);
    expect(plannedRecheck(gate(), gate(), at + 6 * day)).toBeNull();
    expect(plannedRecheck(gate(), gate(), at + 8 * day)).toBe(`expired:${measured}`);
    const done = gate({ recheck: `expired:${measured}` });
    expect(plannedRecheck(done, done, at + 8 * day)).toBe(`expired:${measured}`);
    // planned, never run (the node was busy): the verdict is still to come, so the next plan plans it again
    const left = gate({ recheck: `expired:${measured}`, passed: null });
    expect(plannedRecheck(left, left, at + 8 * day)).toBe(`expired:${measured}#2`);
    const twice = gate({ recheck: `expired:${measured}#2`, passed: null });
    expect(plannedRecheck(twice, twice, at + 8 * day)).toBe(`expired:${measured}#3`);
    expect(plannedRecheck(gate({ passed: false }), gate(), at + 8 * day)).toBeNull();
    expect(plannedRecheck(gate(), gate({ evidence_max_age: null }), at + 80 * day)).toBeNull();
  });

  it("the plan re-runs the gate in place (passed unknown) when its evidence expired", () => {
    const st = gate({
      evidence: JSON.stringify({ format: "rackform-acceptance/v1", measured_at: "2020-01-01T00:00:00Z" }),
    });
    const out = planAcceptance({ ...typedRequest(), private: {}, config: st, plan: st, state: st });
    expect([out?.plan?.recheck, isUnknownValue(out?.plan?.passed), out?.requiresReplace]).toEqual([
      "expired:2020-01-01T00:00:00Z",
      true,
      undefined,
    ]);
  });

  it("the member re-checks an idle node (drain, gate, rejoin) and leaves a busy one as it is", async () => {
    const st = memberState({ max_unavailable: 1 });
    const plan = { ...st, recheck: "expired:t", state: UNKNOWN, joined: UNKNOWN } as ClusterMemberPlan;
    const f = fakeDeps();
    const gateOffer = () =>
      (f.deps.rollouts as RolloutHandovers).offerGate("maas:n1", {
        what: "gate n1",
        failure: "failed its acceptance gate",
        run: async () => {
          f.calls.push("gate n1");
          return "done";
        },
      });
    f.nodes.set("n1", { registered: true, state: "ALLOCATED", joined: true, partitions: ["gpu"] });
    gateOffer();
    const busy = typedRequest();
    // The configuration is recorded as planned (the engine holds the provider to it); the gate plans it again
    const left = await updateMember({ ...busy, plan, state: st }, f.deps);
    expect([left?.recheck, left?.joined, left?.state]).toEqual(["expired:t", true, "IDLE"]);
    expect(diagnosticLines(busy.diagnostics)).toEqual(["warning Evidence re-check waits: n1 @ recheck"]);
    expect(f.calls).not.toContain("drain n1");
    f.nodes.set("n1", { registered: true, state: "IDLE", joined: true, partitions: ["gpu"] });
    gateOffer();
    const idle = typedRequest();
    expect((await updateMember({ ...idle, plan, state: st }, f.deps))?.recheck).toBe("expired:t");
    expect(f.calls.filter((c) => /^(drain|gate|join) /.test(c))).toEqual(["drain n1", "gate n1", "join n1"]);
  });
});
