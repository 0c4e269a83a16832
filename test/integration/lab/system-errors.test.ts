/** Integration: ComputerSystem PATCH with ETag/If-Match, Reset, and Redfish error bodies with the right statuses. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type Json, startPoweredNode, type TestLab } from "./lab-client.js";

describe("ComputerSystem and errors", () => {
  let t: TestLab;
  let bmc: string;
  let sys: string;
  beforeAll(async () => ({ t, bmc, sys } = await startPoweredNode()));
  afterAll(async () => t?.stop());

  const expectRedfishError = (r: { status: number; body: Json }, status: number, id: RegExp) => {
    expect(r.status).toBe(status);
    expect(r.body.error.code).toMatch(id);
    expect(r.body.error.message).toEqual(expect.any(String));
    expect(r.body.error["@Message.ExtendedInfo"][0].MessageId).toMatch(id);
  };

  it("fails a PATCH with a stale If-Match with 412 and leaves the boot settings unchanged", async () => {
    const before = await call(t, bmc, "GET", sys);
    const etag = before.headers.etag;
    const first = await call(t, bmc, "PATCH", sys, { body: { AssetTag: "rack-a" }, headers: { "if-match": etag } });
    expect(first.status).toBe(200);
    expect(first.headers.etag).not.toBe(etag);
    const stale = await call(t, bmc, "PATCH", sys, {
      body: { Boot: { BootSourceOverrideTarget: "Pxe" } },
      headers: { "if-match": etag },
    });
    expectRedfishError(stale, 412, /PreconditionFailed$/);
    expect((await call(t, bmc, "GET", sys)).body.Boot.BootSourceOverrideTarget).toBe("None");
  });

  it("sets a one-time PXE override that a power-on consumes", async () => {
    const r = await call(t, bmc, "PATCH", sys, {
      body: { Boot: { BootSourceOverrideTarget: "Pxe", BootSourceOverrideEnabled: "Once" } },
    });
    expect(r.body.Boot).toMatchObject({ BootSourceOverrideTarget: "Pxe", BootSourceOverrideEnabled: "Once" });
    expect(
      (await call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: "On" } })).status,
    ).toBe(204);
    const after = (await call(t, bmc, "GET", sys)).body;
    expect(after.PowerState).toBe("On");
    expect(after.Boot.BootSourceOverrideEnabled).toBe("Disabled");
    expect(t.lab.world.node(t.lab.info.nodes[0].name)!.lastBootSource).toBe("Pxe");
  });

  it("answers 409 to ResetType On when the host is already on", async () => {
    const r = await call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: "On" } });
    expectRedfishError(r, 409, /ResourceInUse$/);
  });

  it("fails bad input with 400: malformed JSON, value not in list, unknown and read-only properties, bad ResetType", async () => {
    expectRedfishError(await call(t, bmc, "PATCH", sys, { raw: "{not json" }), 400, /MalformedJSON$/);
    expectRedfishError(
      await call(t, bmc, "PATCH", sys, { body: { Boot: { BootSourceOverrideTarget: "Floppy" } } }),
      400,
      /PropertyValueNotInList$/,
    );
    expectRedfishError(await call(t, bmc, "PATCH", sys, { body: { Colour: "blue" } }), 400, /PropertyUnknown$/);
    expectRedfishError(await call(t, bmc, "PATCH", sys, { body: { PowerState: "Off" } }), 400, /PropertyNotWritable$/);
    expectRedfishError(
      await call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: "Explode" } }),
      400,
      /ActionParameterValueNotInList$/,
    );
  });

  it("answers 404 for unknown resources and 405 with Allow for a wrong method", async () => {
    expectRedfishError(await call(t, bmc, "GET", "/redfish/v1/Systems/1-does-not-exist"), 404, /ResourceNotFound$/);
    expectRedfishError(await call(t, bmc, "GET", "/redfish/v1/Nothing"), 404, /ResourceNotFound$/);
    const r = await call(t, bmc, "DELETE", sys);
    expectRedfishError(r, 405, /OperationNotAllowed$/);
    expect(r.headers.allow).toBe("GET, PATCH");
  });

  it("lists GPUs as Processors with ProcessorType GPU and NICs with MACs and link speed", async () => {
    const system = (await call(t, bmc, "GET", sys)).body;
    const procs = (await call(t, bmc, "GET", system.Processors["@odata.id"])).body;
    const bodies = await Promise.all(
      procs.Members.map(async (m: Json) => (await call(t, bmc, "GET", m["@odata.id"])).body),
    );
    const gpus = bodies.filter((b) => b.ProcessorType === "GPU");
    expect(gpus).toHaveLength(8);
    expect(new Set(gpus.map((g) => g.SerialNumber)).size).toBe(8);
    expect(gpus[0].Model).toBe("NVIDIA H100 80GB HBM3");
    const nics = (await call(t, bmc, "GET", system.EthernetInterfaces["@odata.id"])).body;
    const nic = (await call(t, bmc, "GET", nics.Members[0]["@odata.id"])).body;
    expect(nic.MACAddress).toMatch(/^02(:[0-9a-f]{2}){5}$/);
    expect(nic.SpeedMbps).toBe(25_000);
  });
});
