/** Integration: health faults as the BMCs serve them — component Status, counts, the vendor's LogService and its query. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, control, type Json, powerOutlet, startTestLab, type TestLab } from "./lab-client.js";

describe("health faults over Redfish", () => {
  let t: TestLab;
  const node = (vendor: string) => {
    const n = [...t.lab.world.nodes.values()].find((x) => x.spec.vendor === vendor);
    if (!n) throw new Error(vendor);
    const info = t.lab.info.nodes.find((x) => x.name === n.spec.name);
    return { n, name: n.spec.name, bmc: info?.bmc.url as string };
  };
  const get = (bmc: string, path: string, headers?: Record<string, string>) => call(t, bmc, "GET", path, { headers });
  const fault = async (spec: Record<string, unknown>) => {
    const r = await control(t, "POST", "/faults", spec);
    expect(r.status).toBe(201);
    return r.body.id as string;
  };

  beforeAll(async () => {
    t = await startTestLab({ nodes: 6, backends: false });
    for (const n of t.lab.info.nodes) await powerOutlet(t, n.name);
  });
  afterAll(async () => t?.stop());

  it("Dell: components turn sick as the faults say, the GPU off the bus is gone, the SEL has their entries", async () => {
    const { n, name, bmc } = node("dell");
    const sys = `/redfish/v1/Systems/${n.systemId}`;
    const ch = `/redfish/v1/Chassis/${n.chassisId}`;
    const before = await get(bmc, sys);
    await fault({ kind: "gpu-xid", node: name, xid: 79, gpu: 0 });
    await fault({ kind: "gpu-xid", node: name, xid: 48, gpu: 1 });
    await fault({ kind: "memory-ecc", node: name, dimm: 3 });
    await fault({ kind: "pcie-degraded", node: name, device: "NIC1" });
    await fault({ kind: "thermal", node: name });

    const procs = await get(bmc, `${sys}/Processors`);
    expect(procs.body["Members@odata.count"]).toBe(n.spec.hardware.cpu.sockets + n.gpus.length - 1);
    expect((await get(bmc, `${sys}/Processors/${n.gpus[0].id}`)).status).toBe(404);
    expect((await get(bmc, `${sys}/Processors/${n.gpus[1].id}`)).body.Status.Health).toBe("Critical");
    expect((await get(bmc, `${sys}/Processors/${n.gpus[2].id}`)).body.Status.Health).toBe("OK");
    const pcie = (await get(bmc, `${ch}/PCIeDevices`)).body.Members.map((m: Json) => m["@odata.id"]);
    expect(pcie).not.toContain(`${ch}/PCIeDevices/${n.gpus[0].id}`);
    const nic = (await get(bmc, `${ch}/PCIeDevices/NIC1`)).body;
    expect(nic.PCIeInterface).toMatchObject({ LanesInUse: 8, MaxLanes: 16 });
    expect(nic.Status.Health).toBe("Warning");
    expect((await get(bmc, `${ch}/PCIeDevices/NIC2`)).body.Status.Health).toBe("OK");
    expect((await get(bmc, `${sys}/Memory/DIMM3`)).body.Status.Health).toBe("Critical");
    expect((await get(bmc, `${sys}/Memory/DIMM2`)).body.Status.Health).toBe("OK");
    expect((await get(bmc, ch)).body.Status.Health).toBe("Critical");
    const temp = (await get(bmc, `${ch}/Thermal`)).body.Temperatures[0];
    expect(temp).toMatchObject({ ReadingCelsius: 47, UpperThresholdCritical: 42, Status: { Health: "Critical" } });
    const s = await get(bmc, sys, { "if-none-match": before.headers.etag });
    expect(s.status).toBe(200);
    expect(s.body.Status).toMatchObject({ Health: "Warning", HealthRollup: "Critical" });
    expect(s.body.MemorySummary.Status.Health).toBe("Critical");
    expect(s.body.LogServices).toBeUndefined();

    const mgr = (await get(bmc, `/redfish/v1/Managers/${n.ids.manager}`)).body;
    expect(mgr.LogServices["@odata.id"]).toBe("/redfish/v1/Managers/iDRAC.Embedded.1/LogServices");
    const services = (await get(bmc, mgr.LogServices["@odata.id"])).body;
    expect(services.Members).toEqual([{ "@odata.id": "/redfish/v1/Managers/iDRAC.Embedded.1/LogServices/Sel" }]);
    const sel = (await get(bmc, services.Members[0]["@odata.id"])).body;
    expect(sel).toMatchObject({ Id: "Sel", LogEntryType: "SEL", OverWritePolicy: "WrapsWhenFull" });
    const entries = (await get(bmc, sel.Entries["@odata.id"])).body;
    expect(entries["Members@odata.count"]).toBe(5);
    expect(entries.Members.map((e: Json) => e.Id)).toEqual(["1", "2", "3", "4", "5"]);
    const mem = entries.Members[2];
    expect(mem).toMatchObject({
      "@odata.type": "#LogEntry.v1_21_0.LogEntry",
      "@odata.id": "/redfish/v1/Managers/iDRAC.Embedded.1/LogServices/Sel/Entries/3",
      EntryType: "SEL",
      SensorType: "Memory",
      Severity: "Critical",
      MessageId: "MEM0001",
      MessageArgs: ["DIMM3"],
      Links: { OriginOfCondition: { "@odata.id": `${sys}/Memory/DIMM3` } },
    });
    expect(mem.Created).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/);
    expect((await get(bmc, mem["@odata.id"])).body).toMatchObject({ Id: "3", MessageId: "MEM0001" });
    expect((await get(bmc, `${sel.Entries["@odata.id"]}/99`)).status).toBe(404);
  });

  it("Dell: $top, $skip and $filter on the SEL; its ETag changes only when an entry is added", async () => {
    const { name, bmc } = node("dell");
    const path = "/redfish/v1/Managers/iDRAC.Embedded.1/LogServices/Sel/Entries";
    expect((await get(bmc, "/redfish/v1")).body.ProtocolFeaturesSupported.FilterQuery).toBe(true);
    const page = (await get(bmc, `${path}?$skip=1&$top=2`)).body;
    expect(page.Members.map((e: Json) => e.Id)).toEqual(["2", "3"]);
    expect(page["Members@odata.count"]).toBe(5);
    expect(page["@odata.nextLink"]).toBe(`${path}?%24skip=3&%24top=2`);
    const since = (await get(bmc, `${path}?$filter=${encodeURIComponent("Id gt '3'")}`)).body;
    expect(since.Members.map((e: Json) => e.Id)).toEqual(["4", "5"]);
    expect(since["Members@odata.count"]).toBe(2);
    const crit = (await get(bmc, `${path}?$filter=${encodeURIComponent("Severity eq 'Warning' or Id le '1'")}`)).body;
    expect(crit.Members.map((e: Json) => e.Id)).toEqual(["1", "4"]);
    expect((await get(bmc, `${path}?$filter=Bogus%20eq%201`)).status).toBe(400);
    expect((await get(bmc, `${path}?$top=-1`)).status).toBe(400);

    const first = await get(bmc, path);
    expect(first.headers.etag).toMatch(/^"/);
    expect((await get(bmc, path, { "if-none-match": first.headers.etag })).status).toBe(304);
    await fault({ kind: "gpu-xid", node: name, xid: 31, gpu: 4 });
    const after = await get(bmc, path, { "if-none-match": first.headers.etag });
    expect(after.status).toBe(200);
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(after.body.Members.at(-1)).toMatchObject({ Id: "6", Severity: "Warning" });
  });

  it("NVIDIA HGX: the EventLog hangs off the System, takes $top/$skip and refuses $filter with 501", async () => {
    const { n, name, bmc } = node("nvidia-dgx");
    await fault({ kind: "gpu-xid", node: name, xid: 63, gpu: 2 });
    await fault({ kind: "nvlink-down", node: name, gpu: 5 });
    const sys = (await get(bmc, `/redfish/v1/Systems/${n.systemId}`)).body;
    expect(sys.LogServices["@odata.id"]).toBe("/redfish/v1/Systems/DGX/LogServices");
    const path = "/redfish/v1/Systems/DGX/LogServices/EventLog/Entries";
    const all = (await get(bmc, path)).body;
    expect(all.Members.map((e: Json) => [e.EntryType, e.MessageId, e.Severity])).toEqual([
      ["Event", "ResourceEvent.1.0.ResourceErrorsDetected", "Critical"],
      ["Event", "ResourceEvent.1.0.ResourceErrorsDetected", "Critical"],
    ]);
    expect(all.Members[0].Message).toContain("XID 63 Row Remapper");
    expect(all.Members[0].SensorType).toBeUndefined();
    expect((await get(bmc, `${path}?$top=1`)).body.Members.map((e: Json) => e.Id)).toEqual(["1"]);
    const r = await get(bmc, `${path}?$filter=${encodeURIComponent("Id gt '1'")}`);
    expect(r.status).toBe(501);
    expect(r.body.error["@Message.ExtendedInfo"][0].MessageId).toMatch(/QueryParameterUnsupported$/);
    const gpu = (await get(bmc, `/redfish/v1/Systems/DGX/Processors/${n.gpus[5].id}`)).body;
    expect(gpu.Status.Health).toBe("Warning");
    expect((await get(bmc, "/redfish/v1/Managers/BMC/LogServices")).status).toBe(404);
  });

  it("a ForceRestart through the BMC cures power-cycle faults; hardware faults stay and are logged again", async () => {
    const { n, name, bmc } = node("supermicro");
    const sys = `/redfish/v1/Systems/${n.systemId}`;
    await fault({ kind: "gpu-xid", node: name, xid: 79, gpu: 7 });
    const keep = await fault({ kind: "memory-ecc", node: name, dimm: 0 });
    const reset = (type: string) =>
      call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: type } });
    expect((await reset("On")).status).toBe(204);
    const count = (await get(bmc, `${sys}/Processors`)).body["Members@odata.count"];
    expect(count).toBe(n.spec.hardware.cpu.sockets + n.gpus.length);
    expect((await reset("ForceRestart")).status).toBe(204);
    expect((await get(bmc, `${sys}/Memory/DIMM0`)).body.Status.Health).toBe("Critical");
    const log = (await get(bmc, `${sys}/LogServices/Log1/Entries`)).body;
    expect(log.Members.map((e: Json) => e.Message)).toEqual([
      "The resource property GPU8 has detected errors of type 'GPU has fallen off the bus'.",
      "Uncorrectable ECC @ DIMM0 - Assertion",
      "Uncorrectable ECC @ DIMM0 - Assertion",
      "Uncorrectable ECC @ DIMM0 - Assertion",
    ]);
    expect(log.Members[1]).toMatchObject({ EntryType: "SEL", SensorType: "Memory", MessageId: "0x0C01" });
    // Supermicro's log ignores $filter (every entry comes back), and its service root says it has none.
    const ignored = await get(bmc, `${sys}/LogServices/Log1/Entries?$filter=${encodeURIComponent("Id gt '3'")}`);
    expect(ignored.body["Members@odata.count"]).toBe(4);
    const features = (await get(bmc, "/redfish/v1")).body.ProtocolFeaturesSupported;
    expect(features).toMatchObject({ FilterQuery: false, TopSkipQuery: true });
    expect((await control(t, "DELETE", `/faults/${keep}`)).status).toBe(204);
    expect((await get(bmc, `${sys}/Memory/DIMM0`)).body.Status.Health).toBe("OK");
  });
});
