/**
 * rackform_machine with backend = "ironic" through the provider server against the lab's Ironic, whose redfish driver
 * reaches the lab's BMCs: create (manage → inspect → provide) to available, crash-resume without a duplicate node,
 * the failure path (inspection fails: kept as tainted), drift, import, and delete leaving Ironic empty.
 */
import { describe, expect, it } from "vitest";
import type { ObjectValue } from "../../../src/framework/index.js";
import { IronicBackend } from "../../../src/provider/backends/index.js";
import { apply, destroy, enrollSpecOf, lines, machineConfig, machineRig, read, T } from "./machine-support.js";

const rig = machineRig(4);

const nodesNamed = async (name: string) =>
  (await rig.ml.ironic.listNodes({ detail: true })).filter((n) => n.name === name);

describe("rackform_machine on Ironic", () => {
  let state: ObjectValue;

  it("GIVEN a powered node WHEN create THEN Ironic holds one available redfish node, inspected, and the plan is empty", async () => {
    const config = machineConfig(rig.ml, "r01-n01", "ironic", { resource_class: "gpu-h100" });
    const from = rig.ml.lab.backends!.ironic.requests.length;
    const a = await apply(rig.p.srv, config);
    expect(lines(a.diagnostics)).toBe("");
    state = a.newState as ObjectValue;
    const [n, ...more] = await nodesNamed("r01-n01");
    expect(more).toEqual([]);
    expect(n).toMatchObject({ driver: "redfish", provisionState: "available", resourceClass: "gpu-h100" });
    // The password is stored by Ironic, but Ironic (like rackform) never shows it.
    expect(n.driverInfo?.redfish_password).not.toBe(rig.ml.password);
    expect(state).toMatchObject({ id: `ironic:${n.uuid}`, machine_id: n.uuid, status: "available", state: "ready" });
    // Inspection found every NIC of the node, not only the one configured.
    const ports = await rig.ml.ironic.extras.listPorts({ node: n.uuid });
    expect(ports.length).toBe(rig.ml.lab.world.node("r01-n01")!.ports.length);
    const again = await apply(rig.p.srv, config, state);
    expect(again.plan.requiresReplace).toEqual([]);
    expect(again.plan.plannedState).toEqual(state);
    // Issue #14: the lab's Ironic has no conductor default, so provide's cleaning boots the provider's IPA images:
    // they went in with the node (POST), and no PATCH was needed before provide.
    expect(n.driverInfo).toMatchObject({
      deploy_kernel: `${rig.ml.lab.images.url}ipa.kernel`,
      deploy_ramdisk: `${rig.ml.lab.images.url}ipa.initramfs`,
    });
    const writes = rig.ml.lab.backends!.ironic.requests.slice(from).filter((r) => r.method !== "GET");
    expect(writes.filter((r) => r.method === "PATCH")).toEqual([]);
    expect(writes.map((r) => r.path).indexOf("/v1/nodes")).toBe(0);
  });

  it("GIVEN an available node WHEN the provider's deploy kernel/ramdisk change THEN one in-place update writes them into driver_info", async () => {
    const config = machineConfig(rig.ml, "r01-n01", "ironic", { resource_class: "gpu-h100" });
    const images = rig.ml.lab.images.url;
    const moved = await rig.provider(undefined, {
      deploy_kernel: `${images}ipa.kernel?v=2`,
      deploy_ramdisk: `${images}ipa.initramfs?v=2`,
    });
    const from = rig.ml.lab.backends!.ironic.requests.length;
    const a = await apply(moved.srv, config, state);
    expect(lines(a.diagnostics)).toBe("");
    expect(a.plan.requiresReplace).toEqual([]);
    expect(a.plan.plannedState).toMatchObject({ deploy_kernel: `${images}ipa.kernel?v=2`, id: state.id });
    const [n] = await nodesNamed("r01-n01");
    expect(n.driverInfo).toMatchObject({
      deploy_kernel: `${images}ipa.kernel?v=2`,
      deploy_ramdisk: `${images}ipa.initramfs?v=2`,
    });
    const patches = rig.ml.lab.backends!.ironic.requests.slice(from).filter((r) => r.method === "PATCH");
    expect(patches.map((r) => r.path)).toEqual([`/v1/nodes/${n.uuid}`]);
    const again = await apply(moved.srv, config, a.newState as ObjectValue);
    expect(again.plan.plannedState).toEqual(a.newState);
    // Back to the images the rest of this file's tear-downs boot.
    state = (await apply(rig.p.srv, config, a.newState as ObjectValue)).newState as ObjectValue;
    expect(state.deploy_kernel).toBe(`${images}ipa.kernel`);
  });

  it("GIVEN no deploy kernel/ramdisk in the provider nor a conductor default WHEN create THEN cleaning fails as Ironic's does, naming the missing images", async () => {
    const bare = await rig.provider(undefined, { deploy_kernel: null, deploy_ramdisk: null });
    const a = await apply(bare.srv, machineConfig(rig.ml, "r01-n04", "ironic"));
    expect(lines(a.diagnostics)).toContain("Missing are: ['deploy_kernel', 'deploy_ramdisk']");
    const [n] = await nodesNamed("r01-n04");
    expect(n).toMatchObject({ provisionState: "clean failed", maintenance: true });
    await destroy(bare.srv, a.newState as ObjectValue);
    expect(await nodesNamed("r01-n04")).toEqual([]);
  });

  it("GIVEN the provider died after enrolling WHEN create runs again THEN it resumes the node instead of enrolling a duplicate", async () => {
    const config = machineConfig(rig.ml, "r01-n02", "ironic");
    const enrolledId = await new IronicBackend(rig.ml.ironic).enroll(enrollSpecOf(rig.ml, config));
    expect((await nodesNamed("r01-n02")).map((n) => n.provisionState)).toEqual(["enroll"]);

    const fresh = await rig.provider();
    const a = await apply(fresh.srv, config);
    expect(lines(a.diagnostics)).toBe("");
    expect(a.newState).toMatchObject({ machine_id: enrolledId, state: "ready" });
    expect((await nodesNamed("r01-n02")).map((n) => [n.uuid, n.provisionState])).toEqual([[enrolledId, "available"]]);
    expect((await destroy(fresh.srv, a.newState)).diagnostics).toEqual([]);
  });

  it("fails when inspection fails, keeping the node as tainted state, and destroy removes it", async () => {
    rig.ml.lab.backends!.ironic.onProvisionState((n, from, to) => {
      if (n.name === "r01-n03" && from === "verifying" && to === "manageable")
        rig.ml.lab.backends!.ironic.failNext(n.uuid, "inspect");
    });
    const a = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n03", "ironic"));
    expect(a.diagnostics.map((d) => d.summary)).toEqual(["Commissioning failed"]);
    expect(a.diagnostics[0].detail).toContain("lab fault injected into inspect");
    const s = a.newState as ObjectValue;
    expect(s).toMatchObject({ status: "inspect failed", state: "failed" });
    expect((await nodesNamed("r01-n03")).map((n) => n.uuid)).toEqual([s.machine_id]);
    expect(JSON.stringify(a)).not.toContain(rig.ml.password);

    // inspect failed is not deletable in Ironic: delete manages the node first.
    expect((await destroy(rig.p.srv, s)).diagnostics).toEqual([]);
    expect(await nodesNamed("r01-n03")).toEqual([]);
  });

  it("fails when the node outlasts timeouts.create, keeping it as tainted state, and destroy still removes it", async () => {
    const hang = rig.ml.lab.world.faults.add({ kind: "hang", node: "r01-n03" });
    const timeouts = { create: "2s", read: null, update: null, delete: null };
    const a = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n03", "ironic", { timeouts }));
    rig.ml.lab.world.faults.remove(hang.id);
    expect(a.diagnostics.map((d) => d.summary)).toEqual([
      "Failed to enroll and commission the machine",
      "Machine kept as tainted",
    ]);
    expect(a.diagnostics[0].detail).toContain("raise timeouts.create");
    const s = a.newState as ObjectValue;
    expect(s.machine_id).toBe((await nodesNamed("r01-n03"))[0].uuid);
    expect(["enrolling", "commissioning"]).toContain(s.state);

    expect(lines((await destroy(rig.p.srv, s)).diagnostics)).toBe("");
    expect(await nodesNamed("r01-n03")).toEqual([]);
  });

  it("GIVEN Ironic answering 503 to every request WHEN refreshed THEN the recorded state stands with a warning naming the node, not an error that would stop the rack's plan", async () => {
    const fault = rig.ml.lab.world.faults.add({ kind: "http-status", service: "ironic", status: 503, retryAfterS: 0 });
    try {
      const r = await read(rig.p.srv, state);
      expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      expect(r.newState).toEqual(state);
      expect(lines(r.diagnostics)).toContain("Could not read; the recorded state stands: r01-n01");
      expect(lines(r.diagnostics)).toContain("503");
    } finally {
      rig.ml.lab.world.faults.remove(fault.id);
    }
    // Ironic answers again: the next refresh reads it, without a warning.
    const again = await read(rig.p.srv, state);
    expect(lines(again.diagnostics)).toBe("");
    expect(again.newState).toMatchObject({ name: "r01-n01", status: "available" });
  });

  it("GIVEN a node deleted by hand WHEN refreshed THEN it is gone from state; an import reads a node back", async () => {
    const imported = await rig.p.srv.importResourceState({ typeName: T, id: `ironic:${state.machine_id}` });
    expect(imported.diagnostics).toEqual([]);
    const refreshed = await read(rig.p.srv, imported.imported[0].state);
    expect(refreshed.newState).toMatchObject({ name: "r01-n01", backend: "ironic", status: "available" });

    await rig.ml.ironic.deleteNode(state.machine_id as string);
    const gone = await read(rig.p.srv, state);
    expect(gone.diagnostics).toEqual([]);
    expect(gone.newState).toBeNull();
  });

  it("GIVEN an available node WHEN destroyed THEN Ironic has no node and no port left", async () => {
    const a = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n04", "ironic"));
    expect(lines(a.diagnostics)).toBe("");
    expect((await destroy(rig.p.srv, a.newState)).diagnostics).toEqual([]);
    expect((await destroy(rig.p.srv, a.newState)).diagnostics).toEqual([]);
    expect(await rig.ml.ironic.listNodes()).toEqual([]);
    expect(await rig.ml.ironic.extras.listPorts()).toEqual([]);
  });

  it("fails a node whose BMC address is enrolled under another name, pointing at bmc_endpoint", async () => {
    const a = await apply(rig.p.srv, machineConfig(rig.ml, "r01-n01", "ironic"));
    expect(lines(a.diagnostics)).toBe("");
    const other = machineConfig(rig.ml, "r01-n02", "ironic", {
      bmc_endpoint: (a.newState as ObjectValue).bmc_endpoint,
    });
    const b = await apply(rig.p.srv, other);
    expect(b.newState).toBeNull();
    expect(lines(b.diagnostics)).toMatch(/Node already enrolled under another name @ bmc_endpoint: .*r01-n01/);
    expect((await destroy(rig.p.srv, a.newState)).diagnostics).toEqual([]);
  });
});
