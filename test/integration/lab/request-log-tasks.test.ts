/** Integration: the request log (what reached the lab) and firmware update tasks over simulated time. */
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/lab/index.js";
import { call, control, type Json, powerOutlet, startTestLab, type TestLab } from "./lab-client.js";

describe("request log", () => {
  let t: TestLab;
  afterEach(async () => t?.stop());

  it("records method, path, host, target and status, and ?since= returns only newer requests", async () => {
    t = await startTestLab({ nodes: 1 });
    const node = t.lab.info.nodes[0];
    await powerOutlet(t, node.name);
    const mark = (await control(t, "GET", "/requests")).body.last;
    expect((await control(t, "GET", `/requests?since=${mark}`)).body.entries).toEqual([]);

    await call(t, node.bmc.url, "GET", "/redfish/v1/Systems");
    await call(t, node.bmc.url, "GET", "/redfish/v1/Nope");
    const { entries } = (await control(t, "GET", `/requests?since=${mark}`)).body;
    expect(entries.map((e: Json) => [e.method, e.path, e.status, e.target])).toEqual([
      ["GET", "/redfish/v1/Systems", 200, node.name],
      ["GET", "/redfish/v1/Nope", 404, node.name],
    ]);
    expect(entries[0].host).toBe(new URL(node.bmc.url).host);
    expect(entries[0].seq).toBeGreaterThan(mark);
    expect(Date.parse(entries[0].time)).not.toBeNaN();
  });

  it("records dropped connections with status 0", async () => {
    t = await startTestLab({ nodes: 1 });
    const node = t.lab.info.nodes[0];
    await powerOutlet(t, node.name);
    await control(t, "POST", "/faults", { kind: "connection-reset", count: 1 });
    await expect(call(t, node.bmc.url, "GET", "/redfish/v1")).rejects.toThrow();
    const { entries } = (await control(t, "GET", "/requests")).body;
    expect(entries.at(-1)).toMatchObject({ path: "/redfish/v1", status: 0 });
  });
});

describe("firmware update tasks", () => {
  let t: TestLab;
  afterEach(async () => t?.stop());

  it("SimpleUpdate returns 202 with a task monitor; the task progresses with simulated time and then the version changes", async () => {
    const clock = new ManualClock();
    t = await startTestLab({ nodes: 1, clock, profile: "demo" });
    const node = t.lab.info.nodes[0];
    await powerOutlet(t, node.name);
    clock.advance(t.lab.world.time.duration("bmcBootMs"));
    const bmc = node.bmc.url;
    const us = (await call(t, bmc, "GET", "/redfish/v1/UpdateService")).body;
    const r = await call(t, bmc, "POST", us.Actions["#UpdateService.SimpleUpdate"].target, {
      body: { ImageURI: "http://127.0.0.1:8080/fw/bios-9.1.0.bin", TransferProtocol: "HTTP" },
    });
    expect(r.status).toBe(202);
    const monitor = r.headers.location;
    const task = r.body["@odata.id"];

    const busy = await call(t, bmc, "POST", us.Actions["#UpdateService.SimpleUpdate"].target, {
      body: { ImageURI: "http://x/bmc-1.0.bin" },
    });
    expect(busy.status).toBe(409);

    clock.advance(t.lab.world.time.duration("firmwareUpdateMs") / 2);
    const half = await call(t, bmc, "GET", task);
    expect(half.body).toMatchObject({ TaskState: "Running", PercentComplete: 50 });
    expect((await call(t, bmc, "GET", monitor)).status).toBe(202);

    clock.advance(t.lab.world.time.duration("firmwareUpdateMs") / 2);
    expect((await call(t, bmc, "GET", task)).body).toMatchObject({ TaskState: "Completed", PercentComplete: 100 });
    expect((await call(t, bmc, "GET", monitor)).status).toBe(200);
    const sys = (await call(t, bmc, "GET", "/redfish/v1/Systems")).body.Members[0]["@odata.id"];
    expect((await call(t, bmc, "GET", sys)).body.BiosVersion).toBe("9.1.0");
  });

  it("an update-failure fault ends the task in Exception and keeps the old version", async () => {
    t = await startTestLab({ nodes: 1 });
    const node = t.lab.info.nodes[0];
    await powerOutlet(t, node.name);
    await control(t, "POST", "/faults", { kind: "update-failure", node: node.name });
    const r = await call(t, node.bmc.url, "POST", "/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate", {
      body: { ImageURI: "http://127.0.0.1/nic-99.1.bin" },
    });
    const task = (await call(t, node.bmc.url, "GET", r.body["@odata.id"])).body;
    expect(task.TaskState).toBe("Exception");
    expect((await control(t, "GET", `/nodes/${node.name}`)).body.firmware.nic).toBe("28.39.1002");
  });
});
