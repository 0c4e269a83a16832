/**
 * rackform_machine with backend = "maas" through the provider server against the lab's MAAS region, which powers
 * nodes through the lab's Redfish BMCs: create to Ready, no-op plan, crash-resume without a duplicate, the failure
 * path (kept as tainted), drift, import, and delete leaving MAAS empty.
 */
import { describe, expect, it } from "vitest";
import { HttpCore } from "../../../src/clients/http/core.js";
import type { ObjectValue } from "../../../src/framework/index.js";
import { MaasAcceptance, MaasBackend } from "../../../src/provider/backends/index.js";
import { apply, destroy, enrollSpecOf, lines, machineConfig, machineRig, read, T } from "./machine-support.js";

const rig = machineRig(4);

const machinesNamed = async (hostname: string) =>
  (await rig.ml.maas.listMachines()).filter((m) => m.hostname === hostname);

describe("rackform_machine on MAAS", () => {
  let state: ObjectValue;

  it("GIVEN a powered node WHEN create THEN MAAS holds one Ready machine with redfish power and the plan is empty", async () => {
    const config = machineConfig(rig.ml, "r01-n01", "maas");
    const a = await apply(rig.p.srv, config);
    expect(lines(a.diagnostics)).toBe("");
    state = a.newState as ObjectValue;
    const [m, ...more] = await machinesNamed("r01-n01");
    expect(more).toEqual([]);
    expect(m.powerType).toBe("redfish");
    expect(state).toMatchObject({
      id: `maas:${m.systemId}`,
      machine_id: m.systemId,
      status: "Ready",
      state: "ready",
      architecture: "amd64/generic",
    });
    expect(m.statusName).toBe("Ready");
    const again = await apply(rig.p.srv, config, state);
    expect(again.plan.requiresReplace).toEqual([]);
    expect(again.plan.plannedState).toEqual(state);
  });

  it("GIVEN the provider died after enrolling WHEN create runs again THEN it adopts the machine instead of enrolling a duplicate", async () => {
    const config = machineConfig(rig.ml, "r01-n02", "maas");
    // The dead process's enroll: the machine exists (New, never commissioned) but no state was saved.
    const dead = new MaasBackend(
      rig.ml.maas,
      new MaasAcceptance(rig.ml.maas, { core: new HttpCore(), apiKey: rig.ml.lab.info.maas!.apiKey }),
    );
    const enrolledId = await dead.enroll(enrollSpecOf(rig.ml, config));
    expect((await machinesNamed("r01-n02")).map((m) => m.statusName)).toEqual(["New"]);

    const fresh = await rig.provider();
    const a = await apply(fresh.srv, config);
    expect(lines(a.diagnostics)).toBe("");
    expect(a.newState).toMatchObject({ machine_id: enrolledId, state: "ready" });
    const all = await machinesNamed("r01-n02");
    expect(all.map((m) => [m.systemId, m.statusName])).toEqual([[enrolledId, "Ready"]]);
    expect((await destroy(fresh.srv, a.newState)).diagnostics).toEqual([]);
  });

  it("fails when commissioning fails, keeping the machine as tainted state, and destroy removes it", async () => {
    rig.ml.lab.backends!.maas.onStatusChange((m, _from, to) => {
      if (m.hostname === "r01-n03" && to === 1) rig.ml.lab.backends!.maas.failNext(m.systemId, "commission");
    });
    const a = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n03", "maas"));
    expect(a.diagnostics.map((d) => d.summary)).toEqual(["Commissioning failed"]);
    expect(a.diagnostics[0].detail).toContain("recorded as tainted");
    // A wholly known state with an error: the engine records it tainted, so the next apply replaces it.
    const s = a.newState as ObjectValue;
    expect(s).toMatchObject({ status: "Failed commissioning", state: "failed" });
    const kept = await machinesNamed("r01-n03");
    expect(kept.map((m) => m.systemId)).toEqual([s.machine_id]);
    const text = JSON.stringify({ a, s });
    expect(text).not.toContain(rig.ml.password);
    expect(text).not.toContain(rig.ml.lab.info.maas!.apiKey.split(":")[2]);

    expect((await destroy(rig.p.srv, s)).diagnostics).toEqual([]);
    expect(await machinesNamed("r01-n03")).toEqual([]);
  });

  it("GIVEN a machine imported, then marked broken, then deleted by hand WHEN refreshed THEN state follows each step", async () => {
    const r = await read(rig.p.srv, state);
    expect(r.newState).toMatchObject({ state: "ready", name: "r01-n01" });

    const imported = await rig.p.srv.importResourceState({ typeName: T, id: `maas:${state.machine_id}` });
    expect(imported.diagnostics).toEqual([]);
    const refreshed = await read(rig.p.srv, imported.imported[0].state);
    expect(refreshed.newState).toMatchObject({ name: "r01-n01", backend: "maas", status: "Ready" });
    // Recording the config after an import updates in place: it must not re-enroll the node.
    const after = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n01", "maas"), refreshed.newState);
    expect(after.plan.requiresReplace).toEqual([]);
    expect(lines(after.diagnostics)).toBe("");

    // Status changed by hand: the refreshed state says so in both words.
    await rig.ml.maas.markBroken(state.machine_id as string, "bad DIMM");
    expect((await read(rig.p.srv, state)).newState).toMatchObject({ status: "Broken", state: "broken" });

    await rig.ml.maas.deleteMachine(state.machine_id as string);
    const gone = await read(rig.p.srv, state);
    expect(gone.diagnostics).toEqual([]);
    expect(gone.newState).toBeNull();
  });

  it("GIVEN a Ready machine WHEN destroyed THEN MAAS no longer has it, and a second destroy is harmless", async () => {
    const a = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n04", "maas"));
    expect(lines(a.diagnostics)).toBe("");
    expect((await destroy(rig.p.srv, a.newState)).diagnostics).toEqual([]);
    expect((await destroy(rig.p.srv, a.newState)).diagnostics).toEqual([]);
    expect(await rig.ml.maas.listMachines()).toEqual([]);
  });

  it("GIVEN MAAS answering the enrolment with 503 (a region busy with a fleet) WHEN create THEN it looks again and enrolls once more: one Ready machine", async () => {
    const from = rig.ml.lab.backends!.maas.requests.length;
    const fault = rig.ml.lab.world.faults.add({
      kind: "http-status",
      service: "maas",
      status: 503,
      method: "POST",
      count: 1,
    });
    try {
      const a = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n04", "maas"));
      expect(lines(a.diagnostics)).toBe("");
      expect(a.newState).toMatchObject({ name: "r01-n04", status: "Ready" });
      expect(await machinesNamed("r01-n04")).toHaveLength(1);
      const posts = rig.ml.lab.backends!.maas.requests.slice(from).filter((r) => r.method === "POST");
      expect(posts[0].status).toBe(503);
      expect(posts.filter((r) => r.path.endsWith("/machines/")).length).toBe(2);
      expect((await destroy(rig.p.srv, a.newState)).diagnostics).toEqual([]);
    } finally {
      rig.ml.lab.world.faults.remove(fault.id);
    }
  });

  it("fails a MAC that another machine already has, pointing at macs", async () => {
    const a = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n01", "maas"));
    expect(lines(a.diagnostics)).toBe("");
    const clash = machineConfig(rig.ml, "r01-n02", "maas", { macs: (a.newState as ObjectValue).macs });
    const b = await apply(rig.p.srv, clash);
    expect(b.newState).toBeNull();
    expect(lines(b.diagnostics)).toMatch(/Node already enrolled under another name @ macs: .*r01-n01/);
    expect((await destroy(rig.p.srv, a.newState)).diagnostics).toEqual([]);
  });
  it("fails a name that MAAS already gives to other hardware (none of the MACs match), pointing at macs", async () => {
    const a = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n02", "maas"));
    expect(lines(a.diagnostics)).toBe("");
    const otherMac = rig.ml.lab.world.node("r01-n03")!.ports[0].mac.toLowerCase();
    const b = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n02", "maas", { macs: [otherMac] }));
    expect(b.newState).toBeNull();
    expect(lines(b.diagnostics)).toMatch(/Name already used by other hardware @ macs: /);
    expect(await machinesNamed("r01-n02")).toHaveLength(1);
    expect((await destroy(rig.p.srv, a.newState)).diagnostics).toEqual([]);
  });
});
