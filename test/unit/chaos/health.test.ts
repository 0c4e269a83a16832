/** The chaos harness's health parts: the health faults of a schedule and the ladder's invariants (test/chaos/health.ts). */
import { describe, expect, it } from "vitest";
import { healthEnd, healthSteps, healthyRemediated, LadderTrack, unhealthyOverrun } from "../../chaos/health.js";
import { buildSchedule, eventNode, LADDER_KINDS } from "../../chaos/schedule.js";

const NODES = Array.from({ length: 64 }, (_, i) => `r0${1 + Math.floor(i / 8)}-n0${1 + (i % 8)}`);

describe("chaos schedule: health faults", () => {
  it("puts health faults on a minority of untouched nodes, each cure at least once, after the first full apply", () => {
    const s = buildSchedule({ seed: 11, nodes: NODES, kills: 20, backend: "ironic" });
    const health = s.health ?? [];
    expect(health.length).toBe(4);
    const touched = new Set(s.steps.flatMap((st) => st.events.map(eventNode)));
    expect(health.filter((e) => touched.has(e.fault.node))).toEqual([]);
    expect(new Set(health.slice(0, 3).map((e) => e.fault.cure))).toEqual(new Set(["power-cycle", "reimage", "none"]));
    for (const e of health.slice(0, 3)) expect(LADDER_KINDS).toContain(e.fault.kind);
    const firstFull = s.steps.findIndex((st) => st.kill === undefined);
    for (const e of health) expect(e.step).toBeGreaterThan(firstFull);
    expect(health.filter((e) => e.fault.kind === "thermal" && e.fault.cure === "reimage")).toEqual([]);
  });

  it("leaves the other events of a seed as they were", () => {
    const a = buildSchedule({ seed: 1501, nodes: NODES.slice(0, 16), kills: 2, backend: "maas" });
    expect(a.steps.flatMap((st) => st.events).length).toBeGreaterThan(0);
    expect(buildSchedule({ seed: 1501, nodes: NODES.slice(0, 16), kills: 2, backend: "maas" })).toEqual(a);
  });
});

describe("chaos invariants: the remediation ladder", () => {
  const rungs = (deployment: string) => ({ deployment, gate: deployment, member: deployment });

  it("no healthy node remediated: a rung in state, a power cycle, a hold for repair or a max_unhealthy warning", () => {
    const base = {
      eligible: new Set(["sick"]),
      rungs: new Map([
        ["sick", rungs("power_cycle:1")],
        ["fine", rungs("")],
      ]),
      actions: [{ node: "sick", action: "power-cycle" as const }],
      quarantined: new Map<string, string>(),
      heldBack: [],
    };
    expect(healthyRemediated(base)).toEqual([]);
    expect(healthyRemediated({ ...base, rungs: new Map([["fine", rungs("reimage:1")]]) })[0]).toMatch(
      /^healthy fine .*rackform_deployment\.remediation is "reimage:1"/,
    );
    expect(healthyRemediated({ ...base, actions: [{ node: "fine", action: "power-cycle" }] })).toHaveLength(1);
    expect(
      healthyRemediated({ ...base, quarantined: new Map([["fine", "rackform: quarantined for repair: GPU3"]]) }),
    ).toHaveLength(1);
    expect(healthyRemediated({ ...base, quarantined: new Map([["fine", "rackform acceptance failed"]]) })).toEqual([]);
    expect(healthyRemediated({ ...base, heldBack: ["fine"] })).toHaveLength(1);
  });

  it("counts health steps per apply against max_unhealthy", () => {
    const steps = healthSteps(
      [
        { node: "a", action: "power-cycle" },
        { node: "b", action: "reimage" },
        { node: "c", action: "reimage" },
        { node: "a", action: "gate" },
      ],
      new Map([["d", "reimage:1"]]),
      new Map([
        ["b", "reimage:1"],
        ["c", ""],
        ["d", "repair"],
      ]),
      new Map([["d", "quarantined for repair"]]),
      [],
    );
    expect(steps).toEqual(["a", "b", "d"]);
    expect(unhealthyOverrun(steps, 3)).toEqual([]);
    expect(unhealthyOverrun(steps, 2)[0]).toMatch(
      /3 nodes took a health step in one apply \(a, b, d\), max_unhealthy 2/,
    );
  });

  it("the ladder moves forward one step per apply, an attempt growing only while its step never ran", () => {
    const t = new LadderTrack();
    const sick = { faultActive: true };
    expect(t.observe("n", { ...sick, rung: "power_cycle:1", actions: [] })).toEqual([]); // held back
    expect(t.observe("n", { ...sick, rung: "power_cycle:2", actions: ["power-cycle", "gate"] })).toEqual([]);
    expect(t.observe("n", { ...sick, rung: "reimage:1", actions: ["reimage", "gate"] })).toEqual([]);
    expect(t.observe("n", { ...sick, rung: "repair", actions: [] })).toEqual([]);
    expect(t.observe("n", { rung: "", actions: [], faultActive: false })).toEqual([]);
  });

  it("finds a ladder that moves back, skips a step never run, repeats a step that ran, or resets with its fault", () => {
    const sick = { faultActive: true };
    const a = new LadderTrack();
    a.observe("n", { ...sick, rung: "power_cycle:1", actions: ["power-cycle", "gate"] });
    expect(a.observe("n", { ...sick, rung: "power_cycle:2", actions: ["power-cycle", "gate"] })[0]).toMatch(
      /attempt grew though the step had run/,
    );
    const b = new LadderTrack();
    b.observe("n", { ...sick, rung: "power_cycle:1", actions: [] });
    expect(b.observe("n", { ...sick, rung: "reimage:1", actions: ["reimage", "gate"] })[0]).toMatch(
      /moved on past a step that never ran/,
    );
    const c = new LadderTrack();
    c.observe("n", { ...sick, rung: "reimage:1", actions: [] });
    c.observe("n", { ...sick, rung: "reimage:2", actions: ["reimage", "gate"] });
    expect(c.observe("n", { ...sick, rung: "power_cycle:1", actions: [] }).join()).toMatch(/moved back/);
    const d = new LadderTrack();
    d.observe("n", { ...sick, rung: "power_cycle:1", actions: ["power-cycle", "gate"] });
    expect(d.observe("n", { ...sick, rung: "", actions: [] })[0]).toMatch(/reset while the lab still holds/);
    const e = new LadderTrack();
    e.observe("n", { ...sick, rung: "power_cycle:1", actions: ["power-cycle", "gate"] });
    expect(e.observe("n", { ...sick, rung: "power_cycle:1", actions: ["power-cycle"] })[0]).toMatch(
      /carried out again/,
    );
  });

  it("at the end: cured nodes joined, a fault nothing cures held for repair", () => {
    const base = {
      node: "n",
      kind: "gpu-xid",
      cure: "power-cycle",
      laddered: true,
      cured: true,
      kept: false,
      rung: "",
      joined: true,
      scheduler: { state: "IDLE", schedulable: true },
    };
    expect(healthEnd([base], LADDER_KINDS)).toEqual([]);
    expect(healthEnd([{ ...base, joined: false }], LADDER_KINDS)[0]).toMatch(/not back in service/);
    expect(healthEnd([{ ...base, cured: false }], LADDER_KINDS)[0]).toMatch(/did not cure it/);
    const held = {
      ...base,
      cure: "none",
      cured: false,
      kept: true,
      rung: "repair",
      joined: false,
      quarantined: "quarantined for repair",
      scheduler: { state: "IDLE+DRAIN", schedulable: false },
    };
    expect(healthEnd([held], LADDER_KINDS)).toEqual([]);
    expect(healthEnd([{ ...held, quarantined: undefined }], LADDER_KINDS)[0]).toMatch(/not held for repair/);
    expect(healthEnd([{ ...base, laddered: false }], LADDER_KINDS)[0]).toMatch(/never started/);
  });
});
