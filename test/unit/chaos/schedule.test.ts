/** The chaos harness's pure parts: the seeded schedule and the invariant checks (test/chaos). */
import { describe, expect, it } from "vitest";
import { convergence, duplicateMachines, leaks, orphans, writesOutsidePlan } from "../../chaos/invariants.js";
import { parseStream } from "../../chaos/observe.js";
import { Prng } from "../../chaos/prng.js";
import { backendFaultedBy, buildSchedule, disturbedIn, FAULT_KINDS } from "../../chaos/schedule.js";

const NODES = Array.from({ length: 64 }, (_, i) => `r0${1 + Math.floor(i / 8)}-n0${1 + (i % 8)}`);

describe("chaos schedule", () => {
  it("is a pure function of the seed: the same seed replays the same run, another seed another", () => {
    const a = buildSchedule({ seed: 7, nodes: NODES, kills: 20, backend: "maas" });
    expect(buildSchedule({ seed: 7, nodes: NODES, kills: 20, backend: "maas" })).toEqual(a);
    expect(buildSchedule({ seed: 8, nodes: NODES, kills: 20, backend: "maas" })).not.toEqual(a);
    expect(new Prng(1).next()).toBe(new Prng(1).next());
  });

  it("kills the engine the asked number of times, with applies that run to their end between groups and at the end", () => {
    const s = buildSchedule({ seed: 3, nodes: NODES, kills: 20, backend: "ironic" });
    expect(s.steps.filter((x) => x.kill !== undefined)).toHaveLength(20);
    expect(s.steps.at(-1)?.kill).toBeUndefined();
    expect(s.steps.filter((x) => x.kill === undefined).length).toBeGreaterThanOrEqual(5);
    expect(buildSchedule({ seed: 3, nodes: NODES, kills: 0, backend: "maas" }).steps).toHaveLength(1);
  });

  it("faults ~10% of the nodes with every kind the lab has, plus reboots, outlet cycles and storms on the backend", () => {
    const s = buildSchedule({ seed: 11, nodes: NODES, kills: 20, backend: "ironic" });
    const events = s.steps.flatMap((x) => x.events);
    const faulted = new Set(events.flatMap((e) => (e.type === "fault" ? [e.fault.node] : [])));
    expect(faulted.size).toBe(6);
    const kinds = new Set(events.flatMap((e) => (e.type === "fault" ? [e.fault.kind] : [])));
    // 6 nodes with one or two faults each hold up to 12 of the 14 kinds; the kinds are dealt without repeats.
    expect(kinds.size).toBe(Math.min(FAULT_KINDS.length, events.filter((e) => e.type === "fault").length));
    expect(events.some((e) => e.type === "reboot")).toBe(true);
    expect(events.some((e) => e.type === "outlet-cycle")).toBe(true);
    expect(events.filter((e) => e.type === "storm").every((e) => e.type === "storm" && e.service === "ironic")).toBe(
      true,
    );
    for (const st of s.steps)
      for (const e of st.events)
        if (e.type === "fault" && e.until !== undefined) expect(e.until).toBeGreaterThanOrEqual(st.index);
  });

  it("names the nodes dealt a backend-operation fault at or before a step, removed since or not", () => {
    const fault = (kind: "commission-failure" | "latency", node: string, until: number) => ({
      at: 0.1,
      type: "fault" as const,
      fault: { kind, node },
      until,
    });
    const s = {
      seed: 0,
      steps: [
        { index: 0, events: [fault("commission-failure", "a", 0), fault("latency", "b", 0)] },
        { index: 1, events: [fault("commission-failure", "c", 1)] },
        { index: 2, events: [] },
      ],
    };
    expect([...backendFaultedBy(s, 0)]).toEqual(["a"]);
    expect([...backendFaultedBy(s, 2)].sort()).toEqual(["a", "c"]);
  });

  it("counts a node as disturbed in the steps its fault is active, and in the step of its reboot", () => {
    const s = {
      seed: 0,
      steps: [
        {
          index: 0,
          events: [{ at: 0.1, type: "fault" as const, fault: { kind: "hang" as const, node: "a" }, until: 1 }],
        },
        { index: 1, events: [{ at: 0.5, type: "reboot" as const, node: "b" }] },
        { index: 2, events: [] },
      ],
    };
    expect([...disturbedIn(s, 1)].sort()).toEqual(["a", "b"]);
    expect([...disturbedIn(s, 2)]).toEqual([]);
  });
});

describe("chaos invariants", () => {
  const m = (id: string, name: string, mac: string, bmc: string, taken = false) => ({
    id,
    name,
    macs: [mac],
    bmc,
    taken,
  });

  it("finds two backend machines for one node by name, MAC or BMC", () => {
    expect(duplicateMachines([m("1", "a", "aa", "10.0.0.1"), m("2", "b", "bb", "10.0.0.2")])).toEqual([]);
    expect(duplicateMachines([m("1", "a", "aa", "10.0.0.1"), m("2", "a2", "bb", "10.0.0.1")])).toEqual([
      "two backend machines for one node: BMC 10.0.0.1 ×2",
    ]);
  });

  it("finds machines no state tracks, deployed machines no deployment tracks, and Ironic allocations", () => {
    const tracked = { machines: new Set(["1"]), deployments: new Set<string>() };
    expect(orphans([m("1", "a", "aa", "x", true), m("2", "b", "bb", "y")], tracked, 1)).toHaveLength(3);
    expect(orphans([m("1", "a", "aa", "x")], tracked)).toEqual([]);
  });

  it("finds writes to nodes the plan does not touch", () => {
    const writes = [
      { node: "a", method: "POST", path: "/x" },
      { node: "b", method: "PATCH", path: "/y" },
    ];
    expect(writesOutsidePlan(writes, new Set(["a"]))).toEqual(["write to b, which the plan does not touch: PATCH /y"]);
  });

  it("names a leaked secret without printing it", () => {
    const found = leaks("token=s3cr3t-value!", "the state", [{ name: "the Slurm JWT", value: "s3cr3t-value!" }]);
    expect(found).toEqual(["leak: the Slurm JWT in the state"]);
    expect(found.join("")).not.toContain("s3cr3t");
  });

  it("asks healthy nodes to converge and failed nodes to have a diagnostic naming them with evidence", () => {
    const diag = (summary: string, detail: string, address?: string) => ({
      severity: "error",
      summary,
      detail,
      address,
    });
    const outcomes = [
      { node: "r01-n01", joined: true },
      { node: "r01-n02", joined: false },
      { node: "r01-n03", joined: false },
      { node: "r01-n04", joined: false },
    ];
    const diagnostics = [
      diag("r01-n02: deployment failed", "MAAS says: lab fault injected into deploy"),
      diag("Service Unavailable", "503 from MAAS", "rackform_machine.r01_n04"),
    ];
    expect(convergence(outcomes, new Set(["r01-n02"]), diagnostics, true)).toEqual([
      "r01-n03 did not converge and no error diagnostic names it",
      'r01-n04 failed, but its diagnostics name it only by resource address: "Service Unavailable"',
    ]);
    const bmc = [diag("Failed to discover the BMC", "BMC https://127.10.1.4:443: connection refused")];
    const aliases = new Map([["r01-n04", ["127.10.1.4:443"]]]);
    expect(
      convergence(
        outcomes.slice(3),
        new Set(["r01-n04"]),
        bmc.map((d) => ({ ...d, address: "rackform_bmc.r01_n04" })),
        false,
        aliases,
      ),
    ).toEqual([]);
    expect(convergence(outcomes.slice(0, 2), new Set(), diagnostics, false)).toEqual([
      "healthy r01-n02 did not converge in this apply: r01-n02: deployment failed — MAAS says: lab fault injected into deploy",
    ]); // A backend-operation fault dealt to the node in an earlier step, whose failure this apply reports in the lab's
    // words (the apply that met it was killed): the fault's, not a healthy node's failure
    expect(convergence(outcomes.slice(0, 2), new Set(), diagnostics, false, new Map(), new Set(["r01-n02"]))).toEqual(
      [],
    );
    // …but not without that evidence
    const other = [diag("r01-n02: deployment failed", "MAAS says: disk full")];
    expect(convergence(outcomes.slice(0, 2), new Set(), other, false, new Map(), new Set(["r01-n02"]))).toHaveLength(1);
  });

  it("reads planned changes, errored resources and diagnostics from an engine's -json stream", () => {
    const lines = [
      '{"type":"planned_change","change":{"resource":{"addr":"rackform_bmc.r01_n01"},"action":"update"}}',
      '{"type":"planned_change","change":{"resource":{"addr":"rackform_bmc.r01_n02"},"action":"noop"}}',
      '{"type":"apply_errored","hook":{"resource":{"addr":"rackform_bmc.r01_n01"}}}',
      '{"type":"diagnostic","diagnostic":{"severity":"error","summary":"s","detail":"d","address":"rackform_bmc.r01_n01"}}',
      "not json",
    ];
    const s = parseStream(lines.join("\n"));
    expect([...s.planned]).toEqual(["rackform_bmc.r01_n01"]);
    expect([...s.errored]).toEqual(["rackform_bmc.r01_n01"]);
    expect(s.diagnostics).toEqual([{ severity: "error", summary: "s", detail: "d", address: "rackform_bmc.r01_n01" }]);
  });
});
