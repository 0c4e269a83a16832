/** Integration: faults injected through the control API change what the BMCs do, and go away when deleted. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, control, powerOutlet, startTestLab, systemPath, type TestLab } from "./lab-client.js";

describe("fault injection", () => {
  let t: TestLab;
  let bmc: string;
  let name: string;
  beforeEach(async () => {
    t = await startTestLab({ nodes: 2 });
    name = t.lab.info.nodes[0].name;
    bmc = t.lab.info.nodes[0].bmc.url;
    await powerOutlet(t, name);
    await powerOutlet(t, t.lab.info.nodes[1].name);
  });
  afterEach(async () => t?.stop());

  it("answers 503 with Retry-After the given number of times, then recovers; other nodes are untouched", async () => {
    const f = await control(t, "POST", "/faults", {
      kind: "http-status",
      status: 503,
      retryAfterS: 7,
      node: name,
      count: 2,
    });
    expect(f.status).toBe(201);
    const other = t.lab.info.nodes[1].bmc.url;
    expect((await call(t, other, "GET", "/redfish/v1/Systems")).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const r = await call(t, bmc, "GET", "/redfish/v1/Systems");
      expect(r.status).toBe(503);
      expect(r.headers["retry-after"]).toBe("7");
      expect(r.body.error.code).toMatch(/ServiceTemporarilyUnavailable$/);
    }
    expect((await call(t, bmc, "GET", "/redfish/v1/Systems")).status).toBe(200);
  });

  it("answers 429 on one path only", async () => {
    await control(t, "POST", "/faults", {
      kind: "http-status",
      status: 429,
      retryAfterS: 1,
      path: "/redfish/v1/Managers",
    });
    expect((await call(t, bmc, "GET", "/redfish/v1/Managers")).status).toBe(429);
    expect((await call(t, bmc, "GET", "/redfish/v1/Chassis")).status).toBe(200);
  });

  it("resets connections, and makes a BMC unreachable until the fault is deleted", async () => {
    await control(t, "POST", "/faults", { kind: "connection-reset", node: name, count: 1 });
    await expect(call(t, bmc, "GET", "/redfish/v1/Systems")).rejects.toThrow();
    expect((await call(t, bmc, "GET", "/redfish/v1/Systems")).status).toBe(200);

    const f = await control(t, "POST", "/faults", { kind: "bmc-unreachable", node: name });
    await expect(call(t, bmc, "GET", "/redfish/v1/Systems")).rejects.toThrow();
    expect((await control(t, "GET", `/nodes/${name}`)).body.bmc).toBe("off");
    expect((await control(t, "DELETE", `/faults/${f.body.id}`)).status).toBe(204);
    expect((await call(t, bmc, "GET", "/redfish/v1/Systems")).status).toBe(200);
  });

  it("hangs a request until the fault is deleted, then drops it", async () => {
    await control(t, "POST", "/faults", { kind: "hang", node: name });
    const pending = call(t, bmc, "GET", "/redfish/v1/Systems");
    let settled = false;
    pending.then(
      () => (settled = true),
      () => (settled = true),
    );
    // The fault counts the request when it arrives; wait for that instead of sleeping.
    while ((await control(t, "GET", "/faults")).body[0].hits < 1) await new Promise((r) => setImmediate(r));
    expect(settled).toBe(false);
    await control(t, "DELETE", "/faults");
    await expect(pending).rejects.toThrow();
  });

  it("adds latency and still answers", async () => {
    await control(t, "POST", "/faults", { kind: "latency", ms: 50, node: name, count: 1 });
    expect((await call(t, bmc, "GET", "/redfish/v1")).status).toBe(200);
    expect((await control(t, "GET", "/faults")).body).toEqual([]);
  });

  it("hides a GPU and drifts firmware while those faults are active", async () => {
    const sys = await systemPath(t, bmc);
    await control(t, "POST", "/faults", { kind: "missing-gpu", node: name, gpus: 1 });
    await control(t, "POST", "/faults", {
      kind: "firmware-drift",
      node: name,
      component: "bios",
      version: "0.0.1-rogue",
    });
    const procs = (await call(t, bmc, "GET", `${sys}/Processors`)).body;
    expect(procs["Members@odata.count"]).toBe(2 + 7);
    expect((await call(t, bmc, "GET", sys)).body.BiosVersion).toBe("0.0.1-rogue");
    expect((await control(t, "GET", `/nodes/${name}`)).body.gpus.count).toBe(7);
    await control(t, "DELETE", "/faults");
    expect((await call(t, bmc, "GET", `${sys}/Processors`)).body["Members@odata.count"]).toBe(2 + 8);
  });

  it("storms a backend API with 503 + Retry-After (service scope) while BMCs and the other backend answer", async () => {
    const { maas, ironic } = t.lab.info;
    const f = await control(t, "POST", "/faults", {
      kind: "http-status",
      service: "ironic",
      status: 503,
      retryAfterS: 2,
      count: 2,
    });
    expect(f.status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const r = await fetch(`${ironic!.url}/v1/nodes`);
      expect(r.status).toBe(503);
      expect(r.headers.get("retry-after")).toBe("2");
    }
    expect((await fetch(`${ironic!.url}/v1/nodes`)).status).toBe(200);
    expect((await call(t, bmc, "GET", "/redfish/v1/Systems")).status).toBe(200);
    await control(t, "POST", "/faults", { kind: "http-status", service: "maas", status: 429, count: 1 });
    expect((await fetch(`${maas!.url}api/2.0/version/`)).status).toBe(429);
    expect((await fetch(`${maas!.url}api/2.0/version/`)).status).toBe(200);
    expect((await call(t, bmc, "GET", "/redfish/v1/Systems")).status).toBe(200);
    const bad = await control(t, "POST", "/faults", { kind: "latency", ms: 5, service: "maas" });
    expect(bad.body.error.message).toMatch(/^service: only http-status/);
  });

  it("fails an invalid fault with 400 naming the field", async () => {
    const r = await control(t, "POST", "/faults", { kind: "http-status" });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toMatch(/^status:/);
    const u = await control(t, "POST", "/faults", { kind: "latency", ms: 5, node: "nope" });
    expect(u.body.error).toEqual({ code: "RACKFORM_ERR_LAB_FAULT_INVALID", message: 'node: unknown node "nope"' });
    expect((await control(t, "POST", "/faults", { kind: "meteor" })).body.error.message).toMatch(
      /^kind: must be one of/,
    );
  });
});
