/**
 * Integration: the lab BMC's BIOS settings per vendor shape (world/bios-shapes.ts, src/lab/README.md "Vendor shapes")
 * over plain HTTPS — Supermicro's `Bios/SD` without SupportedApplyTimes (an apply-time annotation refused), Dell
 * iDRAC's config job (202 + Location, Scheduled → Completed at the reset, SYS011 while it waits, DELETE discards),
 * HPE iLO's pending settings with SystemResetRequired and no SupportedApplyTimes, the generic shape on the others, and
 * a multipart push to an NVIDIA DGX BMC whose Targets name a GPU FirmwareInventory item.
 */
import { request } from "undici";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultSpec, labFirmwareImage } from "../../../src/lab/index.js";
import { call, type Json, powerOutlet, startTestLab, systemPath, type TestLab } from "./lab-client.js";

let t: TestLab;
/** defaultSpec cycles nvidia-dgx, dell, supermicro, hpe, lenovo, contoso. */
const [DGX, DELL, SUPERMICRO, HPE, LENOVO, CONTOSO] = [0, 1, 2, 3, 4, 5];

beforeAll(async () => {
  t = await startTestLab({ spec: defaultSpec({ nodes: 6 }) });
  for (const n of t.lab.info.nodes) await powerOutlet(t, n.name);
});
afterEach(() => t.lab.world.faults.clear());
afterAll(async () => t?.stop());

const bmcOf = (i: number) => t.lab.info.nodes[i].bmc.url;

async function biosOf(i: number): Promise<{ bios: Json; settings: string; bmc: string; sys: string }> {
  const bmc = bmcOf(i);
  const sys = await systemPath(t, bmc);
  const bios = (await call(t, bmc, "GET", `${sys}/Bios`)).body;
  return { bios, settings: bios["@Redfish.Settings"].SettingsObject["@odata.id"], bmc, sys };
}

async function reset(bmc: string, sys: string): Promise<void> {
  const r = await call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: "ForceRestart" } });
  expect(r.status).toBe(204);
}

describe("Supermicro: Bios/SD", () => {
  it("names Bios/SD (Bios/Settings answers 404) and lists no SupportedApplyTimes", async () => {
    const { bios, settings, bmc, sys } = await biosOf(SUPERMICRO);
    expect(settings).toBe(`${sys}/Bios/SD`);
    expect(bios["@Redfish.Settings"]).not.toHaveProperty("SupportedApplyTimes");
    expect((await call(t, bmc, "GET", `${sys}/Bios/Settings`)).status).toBe(404);
    const sd = (await call(t, bmc, "GET", settings)).body;
    expect(sd).not.toHaveProperty("Attributes");
    expect(sd).not.toHaveProperty("@Redfish.SettingsApplyTime");
  });

  it("refuses a PATCH carrying @Redfish.SettingsApplyTime; stages one without it, applied at the next reset", async () => {
    const { bmc, sys, settings } = await biosOf(SUPERMICRO);
    const refused = await call(t, bmc, "PATCH", settings, {
      body: { Attributes: { Iommu: "Enabled" }, "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" } },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error["@Message.ExtendedInfo"][0]).toMatchObject({
      MessageId: "Base.1.18.PropertyUnknown",
      MessageArgs: ["@Redfish.SettingsApplyTime"],
    });
    expect((await call(t, bmc, "GET", settings)).body).not.toHaveProperty("Attributes");
    expect((await call(t, bmc, "PATCH", settings, { body: { Attributes: { Iommu: "Enabled" } } })).status).toBe(200);
    expect((await call(t, bmc, "GET", settings)).body.Attributes).toEqual({ Iommu: "Enabled" });
    await reset(bmc, sys);
    expect((await biosOf(SUPERMICRO)).bios.Attributes.Iommu).toBe("Enabled");
    expect((await call(t, bmc, "GET", settings)).body).not.toHaveProperty("Attributes");
  });
});

describe("Dell iDRAC: config jobs", () => {
  it("creates a job for a PATCH with OnReset (202, Location), which the next reset runs to Completed", async () => {
    const { bios, bmc, sys, settings } = await biosOf(DELL);
    expect(settings).toBe(`${sys}/Bios/Settings`);
    expect(bios["@Redfish.Settings"].SupportedApplyTimes).toEqual(["OnReset"]);
    const r = await call(t, bmc, "PATCH", settings, {
      body: { Attributes: { SriovGlobalEnable: "Enabled" }, "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" } },
    });
    expect(r.status).toBe(202);
    expect(r.headers.location).toMatch(/^\/redfish\/v1\/Managers\/iDRAC\.Embedded\.1\/Jobs\/JID_\d{12}$/);
    const job = (await call(t, bmc, "GET", r.headers.location)).body;
    expect(job).toMatchObject({ JobState: "Scheduled", JobType: "BIOSConfiguration", MessageId: "JCP001" });
    const queue = (await call(t, bmc, "GET", "/redfish/v1/Managers/iDRAC.Embedded.1/Jobs")).body;
    expect(queue.Members).toEqual([{ "@odata.id": r.headers.location }]);

    await reset(bmc, sys);
    expect((await call(t, bmc, "GET", r.headers.location)).body).toMatchObject({
      JobState: "Completed",
      MessageId: "PR19",
      PercentComplete: 100,
    });
    expect((await biosOf(DELL)).bios.Attributes.SriovGlobalEnable).toBe("Enabled");
  });

  it("answers 400 SYS011 while a job waits; DELETE of the job discards its values, then a PATCH goes through", async () => {
    const { bmc, settings } = await biosOf(DELL);
    const onReset = { "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" } };
    const first = await call(t, bmc, "PATCH", settings, { body: { Attributes: { SysProfile: "Custom" }, ...onReset } });
    expect(first.status).toBe(202);
    const again = await call(t, bmc, "PATCH", settings, { body: { Attributes: { SysProfile: "PerfOptimized" } } });
    expect(again.status).toBe(400);
    expect(again.body.error["@Message.ExtendedInfo"][0]).toMatchObject({
      MessageId: "IDRAC.2.14.SYS011",
      Message: expect.stringMatching(/already committed/),
    });
    const root = (await call(t, bmc, "GET", "/redfish/v1")).body;
    const service = (await call(t, bmc, "GET", root.JobService["@odata.id"])).body;
    const jobs = (await call(t, bmc, "GET", service.Jobs["@odata.id"])).body;
    const id = first.headers.location.split("/").pop();
    const std = (await call(t, bmc, "GET", `${service.Jobs["@odata.id"]}/${id}`)).body;
    expect(jobs.Members).toContainEqual({ "@odata.id": `${service.Jobs["@odata.id"]}/${id}` });
    expect(std).toMatchObject({ JobState: "Pending", Oem: { Dell: { JobType: "BIOSConfiguration" } } });
    expect((await call(t, bmc, "DELETE", first.headers.location)).status).toBe(200);
    expect((await call(t, bmc, "GET", settings)).body.Attributes.SysProfile).not.toBe("Custom");
    const third = await call(t, bmc, "PATCH", settings, { body: { Attributes: { SysProfile: "PerfOptimized" } } });
    expect(third.status).toBe(200);
  });

  it("leaves values staged without a job pending across a reset", async () => {
    const { bmc, sys, settings } = await biosOf(DELL);
    await call(t, bmc, "PATCH", settings, { body: { Attributes: { ProcVirtualization: "Disabled" } } });
    await reset(bmc, sys);
    expect((await biosOf(DELL)).bios.Attributes.ProcVirtualization).toBe("Enabled");
    expect((await call(t, bmc, "GET", settings)).body.Attributes.ProcVirtualization).toBe("Disabled");
  });
});

describe("HPE iLO: pending settings", () => {
  it("lists no SupportedApplyTimes; a PATCH answers SystemResetRequired; the next reset applies it", async () => {
    const { bios, bmc, sys, settings } = await biosOf(HPE);
    expect(settings).toBe(`${sys}/Bios/Settings`);
    expect(bios["@Redfish.Settings"]).not.toHaveProperty("SupportedApplyTimes");
    const r = await call(t, bmc, "PATCH", settings, { body: { Attributes: { Sriov: "Disabled" } } });
    expect(r.status).toBe(200);
    expect(r.body["@Message.ExtendedInfo"][0].MessageId).toMatch(/^iLO\.2\.\d+\.SystemResetRequired$/);
    expect((await call(t, bmc, "GET", settings)).body.Attributes).toMatchObject({ Sriov: "Disabled" });
    await reset(bmc, sys);
    expect((await biosOf(HPE)).bios.Attributes.Sriov).toBe("Disabled");
  });
});

describe("generic shape and GPU targets", () => {
  it.each([
    ["nvidia-dgx", DGX],
    ["lenovo", LENOVO],
    ["contoso", CONTOSO],
  ])("%s keeps Bios/Settings with SupportedApplyTimes OnReset", async (_v, i) => {
    const { bios, sys, settings } = await biosOf(i);
    expect(settings).toBe(`${sys}/Bios/Settings`);
    expect(bios["@Redfish.Settings"].SupportedApplyTimes).toEqual(["OnReset"]);
  });

  it("DGX: a multipart push whose Targets names HGX_FW_GPU_SXM_1 is accepted", async () => {
    const bmc = bmcOf(DGX);
    const item = "/redfish/v1/UpdateService/FirmwareInventory/HGX_FW_GPU_SXM_1";
    expect((await call(t, bmc, "GET", item)).status).toBe(200);
    const image = labFirmwareImage({ component: "gpu", version: "96.00.99.00.01" });
    const boundary = "rfgpu";
    const params = JSON.stringify({ Targets: [item], "@Redfish.OperationApplyTime": "OnReset" });
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="UpdateParameters"\r\nContent-Type: application/json\r\n\r\n${params}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="UpdateFile"; filename="gpu.rfimg"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      ),
      image,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const { username, password } = t.lab.spec.credentials;
    const res = await request(`${bmc}/redfish/v1/UpdateService/upload`, {
      method: "POST",
      headers: {
        authorization: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body,
      dispatcher: t.agent,
    });
    const task = JSON.parse(await res.body.text());
    expect(res.statusCode, JSON.stringify(task)).toBe(202);
    expect(task.TaskState).not.toBe("Exception");
    const r = { headers: { location: String(res.headers.location ?? "") } };
    expect(r.headers.location).toBeTruthy();
  });
});
