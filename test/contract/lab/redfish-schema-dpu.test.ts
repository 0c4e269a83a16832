/**
 * Contract: every standard payload a lab BlueField-3 DPU BMC serves (and the host's PCIe device for it) validates
 * against the DMTF JSON Schema version its @odata.type names. NVIDIA's OEM resources (`Oem/Nvidia`, whose types
 * NVIDIA's CSDL declares, not DMTF's) are left out.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSpec } from "../../../src/lab/index.js";
import { call, powerOutlet, startTestLab, systemPath, type TestLab } from "../../integration/lab/lab-client.js";
import { loadDmtfSchemas, schemaFailures } from "../../support/dmtf-schemas.js";

describe("lab BlueField DPU payloads against DMTF JSON Schema", () => {
  let t: TestLab;
  const payloads = new Map<string, unknown>();

  beforeAll(async () => {
    t = await startTestLab({ spec: defaultSpec({ nodes: 1, dpus: 1 }), backends: false });
    const n = t.lab.info.nodes[0];
    await powerOutlet(t, n.name);
    const dpu = n.dpus?.[0].url ?? "";
    const get = async (p: string) => (await call(t, dpu, "GET", p)).body;
    for (const p of [
      "/redfish/v1",
      "/redfish/v1/Systems",
      "/redfish/v1/Systems/Bluefield",
      "/redfish/v1/Managers",
      "/redfish/v1/Managers/Bluefield_BMC",
      "/redfish/v1/UpdateService",
      "/redfish/v1/UpdateService/FirmwareInventory",
      "/redfish/v1/UpdateService/FirmwareInventory/DPU_OS",
      "/redfish/v1/UpdateService/FirmwareInventory/BMC_Firmware",
      "/redfish/v1/TaskService",
      "/redfish/v1/SessionService",
    ])
      payloads.set(p, await get(p));
    await call(t, dpu, "POST", "/redfish/v1/Systems/Bluefield/Oem/Nvidia/Actions/HostRshim.Set", {
      body: { HostRshim: "Disabled" },
    });
    await call(t, dpu, "PATCH", "/redfish/v1/Managers/Bluefield_BMC/Oem/Nvidia", {
      body: { BmcRShim: { BmcRShimEnabled: true } },
    });
    const r = await call(t, dpu, "POST", "/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate", {
      body: {
        TransferProtocol: "HTTP",
        ImageURI: "http://127.0.0.1/x.bfb",
        Targets: ["redfish/v1/UpdateService/FirmwareInventory/DPU_OS"],
      },
    });
    payloads.set("Task (202)", r.body);
    payloads.set("Task", await get(r.headers.location));
    const host = n.bmc.url;
    const sys = (await call(t, host, "GET", await systemPath(t, host))).body;
    const dev = sys.PCIeDevices.find((l: { "@odata.id": string }) => l["@odata.id"].endsWith("/DPU1"))["@odata.id"];
    payloads.set("host PCIeDevice DPU1", (await call(t, host, "GET", dev)).body);
  });
  afterAll(async () => t?.stop());

  it("every payload validates against the schema version its @odata.type names", () => {
    expect(schemaFailures(loadDmtfSchemas(), payloads)).toEqual([]);
    expect(payloads.size).toBeGreaterThan(12);
  });
});
