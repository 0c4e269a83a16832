// A fake-hardware node through Ironic's state machine on the lab, with a manual clock: transient states, locks, errors.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, createFakeNode, faultOf, type Lab, node, provision, startLab } from "./support.js";

let lab: Lab;
beforeEach(async () => {
  lab = await startLab();
});
afterEach(() => lab.close());

/** Brings a new node to available (manage, provide) and powers it on, as the captured real flow does. */
async function availableNode(extra: Record<string, unknown> = {}) {
  const n = await createFakeNode(lab.url, extra);
  await provision(lab.url, n.uuid, { target: "manage" });
  await lab.clock.advance(100);
  await provision(lab.url, n.uuid, { target: "provide" });
  await lab.clock.advance(1000);
  await call(lab.url, "PUT", `/v1/nodes/${n.uuid}/states/power`, { body: { target: "power on" } });
  await lab.clock.advance(100);
  return n;
}

describe("provisioning a fake-hardware node", () => {
  it("walks enroll → verifying → manageable → inspecting → manageable → cleaning → available", async () => {
    const n = await createFakeNode(lab.url, { name: "gpu-rack1-u07", properties: { cpus: 128 } });
    expect(n.provision_state).toBe("enroll");
    expect((await provision(lab.url, n.uuid, { target: "manage" })).status).toBe(202);
    expect(await node(lab.url, n.uuid)).toMatchObject({
      provision_state: "verifying",
      target_provision_state: "manageable",
      reservation: "localhost",
    });
    await lab.clock.advance(100);
    expect(await node(lab.url, "gpu-rack1-u07")).toMatchObject({
      provision_state: "manageable",
      target_provision_state: null,
      reservation: null,
    });

    await provision(lab.url, n.uuid, { target: "inspect" });
    expect(await node(lab.url, n.uuid)).toMatchObject({
      provision_state: "inspecting",
      target_provision_state: "manageable",
    });
    await lab.clock.advance(1000);
    const inspected = await node(lab.url, n.uuid);
    expect(inspected.provision_state).toBe("manageable");
    expect(inspected.inspection_finished_at).toMatch(/^2026-01-01T00:00:01\.\d{6}\+00:00$/);

    await provision(lab.url, n.uuid, { target: "provide" });
    expect(await node(lab.url, n.uuid)).toMatchObject({
      provision_state: "cleaning",
      target_provision_state: "available",
    });
    await lab.clock.advance(1000);
    expect(await node(lab.url, n.uuid)).toMatchObject({ provision_state: "available", target_provision_state: null });
  });

  it("allocates, deploys, rebuilds and undeploys; tear-down removes the allocation and instance_info", async () => {
    const n = await availableNode();
    const alloc = await call(lab.url, "POST", "/v1/allocations", {
      body: { resource_class: "baremetal-gpu", name: "alloc-1" },
    });
    expect(alloc.status).toBe(201);
    expect(alloc.json).toMatchObject({ state: "allocating", node_uuid: null });
    await lab.clock.advance(0);
    const done = (await call(lab.url, "GET", "/v1/allocations/alloc-1")).json;
    expect(done).toMatchObject({ state: "active", node_uuid: n.uuid });
    expect(await node(lab.url, n.uuid)).toMatchObject({ instance_uuid: done.uuid, allocation_uuid: done.uuid });

    const patch = await call(lab.url, "PATCH", `/v1/nodes/${n.uuid}`, {
      body: [{ op: "add", path: "/instance_info/image_source", value: "http://127.0.0.1/img.qcow2" }],
    });
    expect(patch.status).toBe(200);
    await provision(lab.url, n.uuid, { target: "active" });
    expect(await node(lab.url, n.uuid)).toMatchObject({
      provision_state: "deploying",
      target_provision_state: "active",
    });
    await lab.clock.advance(2000);
    const active = await node(lab.url, n.uuid);
    expect(active).toMatchObject({ provision_state: "active", power_state: "power on" });
    expect(active.instance_info).toMatchObject({
      image_source: "http://127.0.0.1/img.qcow2",
      image_type: "whole-disk",
    });

    await provision(lab.url, n.uuid, { target: "rebuild" });
    expect((await node(lab.url, n.uuid)).provision_state).toBe("deploying");
    await lab.clock.advance(2000);

    await provision(lab.url, n.uuid, { target: "deleted" });
    expect(await node(lab.url, n.uuid)).toMatchObject({
      provision_state: "deleting",
      target_provision_state: "available",
    });
    await lab.clock.advance(500);
    expect((await node(lab.url, n.uuid)).provision_state).toBe("cleaning");
    await lab.clock.advance(1000);
    expect(await node(lab.url, n.uuid)).toMatchObject({
      provision_state: "available",
      instance_uuid: null,
      instance_info: {},
    });
    expect((await call(lab.url, "GET", "/v1/allocations/alloc-1")).status).toBe(404);
  });

  it("fails an allocation with no matching node, with Ironic's reason", async () => {
    const r = await call(lab.url, "POST", "/v1/allocations", { body: { resource_class: "nothing-like-it" } });
    await lab.clock.advance(0);
    const a = (await call(lab.url, "GET", `/v1/allocations/${r.json.uuid}`)).json;
    expect(a.state).toBe("error");
    expect(a.last_error).toContain("no available nodes match the resource class nothing-like-it");
  });
});

describe("refusals", () => {
  it("fails an illegal transition with 400 and Ironic's message", async () => {
    const n = await createFakeNode(lab.url);
    const r = await provision(lab.url, n.uuid, { target: "active" });
    expect(r.status).toBe(400);
    expect(faultOf(r)).toEqual({
      faultcode: "Client",
      faultstring: `The requested action "active" can not be performed on node "${n.uuid}" while it is in state "enroll".`,
      debuginfo: null,
    });
  });

  it("fails requests on a node under a transition with 409 NodeLocked", async () => {
    const n = await availableNode();
    await provision(lab.url, n.uuid, { target: "active" });
    const locked = `Node ${n.uuid} is locked by host localhost, please retry after the current operation is completed.`;
    for (const r of [
      await provision(lab.url, n.uuid, { target: "deleted" }),
      await call(lab.url, "PUT", `/v1/nodes/${n.uuid}/states/power`, { body: { target: "power off" } }),
      await call(lab.url, "DELETE", `/v1/nodes/${n.uuid}`),
    ]) {
      expect(r.status).toBe(409);
      expect(faultOf(r).faultstring).toBe(locked);
    }
    const patch = await call(lab.url, "PATCH", `/v1/nodes/${n.uuid}`, {
      body: [{ op: "add", path: "/extra/a", value: 1 }],
    });
    expect(patch.status).toBe(409);
    expect(faultOf(patch).faultstring).toBe(
      `Node ${n.uuid} can not be updated while a state transition is in progress.`,
    );
    await lab.clock.advance(2000);
    expect((await provision(lab.url, n.uuid, { target: "deleted" })).status).toBe(202);
  });

  it("refuses to deploy in maintenance and to delete an active node", async () => {
    const n = await availableNode();
    expect((await call(lab.url, "PUT", `/v1/nodes/${n.uuid}/maintenance`, { body: { reason: "psu" } })).status).toBe(
      202,
    );
    expect(await node(lab.url, n.uuid)).toMatchObject({ maintenance: true, maintenance_reason: "psu" });
    const r = await provision(lab.url, n.uuid, { target: "active" });
    expect(r.status).toBe(400);
    expect(faultOf(r).faultstring).toBe(
      `The provisioning operation can't be performed on node ${n.uuid} because it's in maintenance mode.`,
    );
    await call(lab.url, "DELETE", `/v1/nodes/${n.uuid}/maintenance`);
    await provision(lab.url, n.uuid, { target: "active" });
    await lab.clock.advance(2000);
    const del = await call(lab.url, "DELETE", `/v1/nodes/${n.uuid}`);
    expect(del.status).toBe(409);
    expect(faultOf(del).faultstring).toContain(`while it is in provision state "active"`);
  });

  it("answers unknown nodes with 404, bad JSON like Ironic 21.4 (500 Server), and clean without steps with 400", async () => {
    const missing = await call(lab.url, "GET", "/v1/nodes/no-such-node");
    expect(missing.status).toBe(404);
    expect(faultOf(missing).faultstring).toBe("Node no-such-node could not be found.");
    const bad = await call(lab.url, "POST", "/v1/nodes", { raw: "{bad" });
    expect(bad.status).toBe(500);
    expect(faultOf(bad)).toMatchObject({
      faultcode: "Server",
      faultstring: "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    });
    const n = await createFakeNode(lab.url);
    await provision(lab.url, n.uuid, { target: "manage" });
    await lab.clock.advance(100);
    const clean = await provision(lab.url, n.uuid, { target: "clean" });
    expect(faultOf(clean).faultstring).toBe('"clean_steps" is required when setting target provision state to clean');
  });
});

describe("failures", () => {
  it("lands a failed deploy in 'deploy failed' with last_error, and rebuild recovers it", async () => {
    const n = await availableNode();
    lab.api.failNext(n.uuid, "deploy");
    await provision(lab.url, n.uuid, { target: "active" });
    await lab.clock.advance(2000);
    const failed = await node(lab.url, n.uuid);
    expect(failed).toMatchObject({
      provision_state: "deploy failed",
      target_provision_state: "active",
      reservation: null,
    });
    expect(failed.last_error).toContain("Deploy step deploy.deploy failed");
    await provision(lab.url, n.uuid, { target: "rebuild" });
    await lab.clock.advance(2000);
    expect(await node(lab.url, n.uuid)).toMatchObject({ provision_state: "active", last_error: null });
  });

  it("puts a node whose automated cleaning failed into maintenance with fault 'clean failure'", async () => {
    const n = await createFakeNode(lab.url);
    await provision(lab.url, n.uuid, { target: "manage" });
    await lab.clock.advance(100);
    lab.api.failNext(n.uuid, "clean");
    await provision(lab.url, n.uuid, { target: "provide" });
    await lab.clock.advance(1000);
    expect(await node(lab.url, n.uuid)).toMatchObject({
      provision_state: "clean failed",
      target_provision_state: "available",
      maintenance: true,
      fault: "clean failure",
    });
  });

  it("lands a failed inspection in 'inspect failed'; manage recovers it", async () => {
    const n = await createFakeNode(lab.url);
    await provision(lab.url, n.uuid, { target: "manage" });
    await lab.clock.advance(100);
    lab.api.failNext(n.uuid, "inspect");
    await provision(lab.url, n.uuid, { target: "inspect" });
    await lab.clock.advance(1000);
    const f = await node(lab.url, n.uuid);
    expect(f.provision_state).toBe("inspect failed");
    expect(f.last_error).toMatch(/^Failed to inspect hardware/);
    await provision(lab.url, n.uuid, { target: "manage" });
    expect((await node(lab.url, n.uuid)).provision_state).toBe("manageable");
  });
});

describe("steps", () => {
  it("runs a burn-in clean step in 'clean wait', records its result, and abort stops a running one", async () => {
    const n = await createFakeNode(lab.url);
    await provision(lab.url, n.uuid, { target: "manage" });
    await lab.clock.advance(100);
    await provision(lab.url, n.uuid, {
      target: "clean",
      clean_steps: [{ interface: "deploy", step: "burnin_gpu", args: { dcgm_level: 3 } }],
    });
    await lab.clock.advance(1000);
    expect(await node(lab.url, n.uuid)).toMatchObject({
      provision_state: "clean wait",
      clean_step: { step: "burnin_gpu" },
    });
    await lab.clock.advance(5000);
    const done = await node(lab.url, n.uuid);
    expect(done.provision_state).toBe("manageable");
    expect(done.driver_internal_info.lab_step_results[0]).toMatchObject({
      step: "burnin_gpu",
      status: "passed",
      result: { dcgm_level: 3, xid_errors: 0 },
    });

    await provision(lab.url, n.uuid, { target: "clean", clean_steps: [{ interface: "deploy", step: "burnin_cpu" }] });
    await lab.clock.advance(1000);
    expect((await provision(lab.url, n.uuid, { target: "abort" })).status).toBe(202);
    await lab.clock.advance(0);
    expect(await node(lab.url, n.uuid)).toMatchObject({
      provision_state: "clean failed",
      target_provision_state: "manageable",
    });
  });

  it("services an active node at 1.87 with a burn-in whose failure lands in 'service failed'", async () => {
    await lab.close();
    lab = await startLab({ maxVersion: "1.87" });
    const n = await availableNode();
    await provision(lab.url, n.uuid, { target: "active" });
    await lab.clock.advance(2000);
    const old = await provision(lab.url, n.uuid, { target: "service", service_steps: [] });
    expect(faultOf(old).faultstring).toBe("Unexpected arguments: service_steps");
    lab.api.setStepOutcome(n.uuid, "burnin_gpu", { fail: "GPU 3: XID 79 (fallen off the bus)", durationMs: 3000 });
    const steps = [{ interface: "deploy", step: "burnin_gpu" }];
    expect((await provision(lab.url, n.uuid, { target: "service", service_steps: steps }, "1.87")).status).toBe(202);
    expect((await node(lab.url, n.uuid, "1.87")).provision_state).toBe("service wait");
    await lab.clock.advance(3000);
    const failed = await node(lab.url, n.uuid, "1.87");
    expect(failed.provision_state).toBe("service failed");
    expect(failed.last_error).toContain("XID 79");
    expect(failed.driver_internal_info.lab_step_results[0].status).toBe("failed");
    await provision(lab.url, n.uuid, { target: "abort" }, "1.87");
    expect((await node(lab.url, n.uuid, "1.87")).provision_state).toBe("active");
  });
});

describe("nodes API", () => {
  it("masks passwords in driver_info, lists with filters and fields, and validates per interface", async () => {
    const r = await call(lab.url, "POST", "/v1/nodes", {
      body: {
        driver: "redfish",
        name: "bmc-node",
        driver_info: { redfish_address: "https://127.0.0.9", redfish_username: "root", redfish_password: "calvin" },
      },
    });
    expect(r.status).toBe(201);
    expect(r.headers.get("location")).toBe(`${lab.url}/v1/nodes/${r.json.uuid}`);
    expect(r.json.driver_info).toEqual({
      redfish_address: "https://127.0.0.9",
      redfish_username: "root",
      redfish_password: "******",
    });
    expect(JSON.stringify((await call(lab.url, "GET", "/v1/nodes?detail=true")).json)).not.toContain("calvin");
    expect(lab.api.node("bmc-node")?.driver_info.redfish_password).toBe("calvin");
    await createFakeNode(lab.url, { name: "other" });
    const list = (await call(lab.url, "GET", "/v1/nodes?driver=redfish")).json.nodes;
    expect(list).toEqual([
      {
        instance_uuid: null,
        maintenance: false,
        name: "bmc-node",
        power_state: null,
        provision_state: "enroll",
        uuid: r.json.uuid,
        links: expect.any(Array),
      },
    ]);
    const fields = (await call(lab.url, "GET", `/v1/nodes/bmc-node?fields=provision_state,driver`)).json;
    expect(Object.keys(fields)).toEqual(["driver", "provision_state", "links"]);
    const v = (await call(lab.url, "GET", "/v1/nodes/bmc-node/validate")).json;
    expect(v.power).toEqual({ result: true });
    expect(v.deploy).toEqual({
      result: false,
      reason:
        "Error validating Redfish virtual media. Some parameters were missing in node's driver_info. Missing are: ['deploy_kernel', 'deploy_ramdisk']",
    });
    expect(v.console.reason).toBe("Driver redfish does not support console (disabled or not implemented).");
  });

  it("creates, finds and deletes ports; refuses a duplicate MAC with 409", async () => {
    const n = await createFakeNode(lab.url);
    const p = await call(lab.url, "POST", "/v1/ports", { body: { node_uuid: n.uuid, address: "52:54:00:AA:BB:01" } });
    expect(p.status).toBe(201);
    expect(p.json).toMatchObject({
      address: "52:54:00:aa:bb:01",
      pxe_enabled: true,
      node_uuid: n.uuid,
      portgroup_uuid: null,
    });
    const dup = await call(lab.url, "POST", "/v1/ports", { body: { node_uuid: n.uuid, address: "52:54:00:aa:bb:01" } });
    expect(dup.status).toBe(409);
    expect(faultOf(dup).faultstring).toBe("A port with MAC address 52:54:00:aa:bb:01 already exists.");
    expect((await call(lab.url, "GET", `/v1/ports?address=52:54:00:aa:bb:01`)).json.ports).toHaveLength(1);
    expect((await call(lab.url, "GET", `/v1/nodes/${n.uuid}/ports`)).json.ports[0].uuid).toBe(p.json.uuid);
    expect((await call(lab.url, "DELETE", `/v1/ports/${p.json.uuid}`)).status).toBe(204);
    expect((await call(lab.url, "DELETE", `/v1/nodes/${n.uuid}`)).status).toBe(204);
    expect((await call(lab.url, "GET", `/v1/nodes/${n.uuid}`)).status).toBe(404);
  });
});
