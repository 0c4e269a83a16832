/**
 * Integration: the lab BMC's BIOS over plain HTTPS — Bios with @Redfish.Settings, the settings object (GET overlay,
 * PATCH staging checked against the AttributeRegistry with Base registry errors), the registry published through
 * /redfish/v1/Registries, staged settings applied at the next host power-on, the bios-settings-ignored fault, and a
 * node whose spec overrides BIOS values and firmware versions (`hardware.bios`, defaultSpec's nodeOverrides).
 */

import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { defaultSpec, startLab } from "../../../src/lab/index.js";
import { call, control, type Json, powerOutlet, startTestLab, systemPath, type TestLab } from "./lab-client.js";

let t: TestLab;
/** Node index by vendor style (defaultSpec cycles nvidia-dgx, dell, supermicro, hpe). */
const DGX = 0;
const DELL = 1;
const SUPERMICRO = 2;
const HPE = 3;
/** The Supermicro node's spec overrides (AMI names), as an e2e rack's "wrong BIOS" nodes are made. */
const OVERRIDE = {
  bios: { Iommu: "Disabled", NumaNodesPerSocket: "NPS4" },
  firmware: { bios: "2.0b", bmc: "01.02.03" },
};

beforeAll(async () => {
  const spec = defaultSpec({ nodes: 4, nodeOverrides: (i) => (i === SUPERMICRO ? OVERRIDE : undefined) });
  t = await startTestLab({ spec });
  for (const n of t.lab.info.nodes) await powerOutlet(t, n.name);
});
afterEach(() => t.lab.world.faults.clear());
afterAll(async () => t?.stop());

const bmcOf = (i: number) => t.lab.info.nodes[i].bmc.url;

async function biosOf(i: number): Promise<{ bios: Json; settings: string; bmc: string; sys: string }> {
  const bmc = bmcOf(i);
  const sys = await systemPath(t, bmc);
  const system = (await call(t, bmc, "GET", sys)).body;
  const bios = (await call(t, bmc, "GET", system.Bios["@odata.id"])).body;
  return { bios, settings: bios["@Redfish.Settings"].SettingsObject["@odata.id"], bmc, sys };
}

async function reset(bmc: string, sys: string, type = "ForceRestart"): Promise<void> {
  const r = await call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: type } });
  expect(r.status).toBe(204);
}

describe("Bios resource and registry", () => {
  it("links the System to its Bios, whose @Redfish.Settings names the settings object and OnReset", async () => {
    const { bios, settings, sys } = await biosOf(DELL);
    expect(bios["@odata.type"]).toMatch(/^#Bios\.v1_\d+_\d+\.Bios$/);
    expect(bios["@odata.id"]).toBe(`${sys}/Bios`);
    expect(settings).toBe(`${sys}/Bios/Settings`);
    expect(bios["@Redfish.Settings"].SupportedApplyTimes).toEqual(["OnReset"]);
    expect(bios.Attributes).toMatchObject({ SysProfile: expect.any(String), SriovGlobalEnable: "Disabled" });
    expect(bios.AttributeRegistry).toBe("BiosAttributeRegistry.v1_0_0");
  });

  it("names attributes per vendor: Dell SysProfile, HPE WorkloadProfile/Sriov, AMI-style Iommu on DGX", async () => {
    const hpe = (await biosOf(HPE)).bios.Attributes;
    expect(Object.keys(hpe)).toEqual(expect.arrayContaining(["WorkloadProfile", "Sriov", "ProcVirtualization"]));
    expect(hpe).not.toHaveProperty("SysProfile");
    const dgx = (await biosOf(DGX)).bios.Attributes;
    expect(dgx).toMatchObject({ Iommu: "Auto", NumaNodesPerSocket: "Auto", SystemProductName: "DGXH100" });
  });

  it("starts a node with its spec's BIOS overrides (the rest at the vendor's values) and firmware versions", async () => {
    const { bios, bmc, sys } = await biosOf(SUPERMICRO);
    expect(bios.Attributes).toMatchObject({
      Iommu: "Disabled",
      NumaNodesPerSocket: "NPS4",
      SriovSupport: "Enabled",
      SystemProductName: "SYS-821GE-TNHR",
    });
    expect((await biosOf(DGX)).bios.Attributes).toMatchObject({ Iommu: "Auto", NumaNodesPerSocket: "Auto" });
    expect((await call(t, bmc, "GET", sys)).body.BiosVersion).toBe("2.0b");
    const inventory = (await call(t, bmc, "GET", "/redfish/v1/UpdateService/FirmwareInventory")).body;
    const versions = await Promise.all(
      inventory.Members.map(async (m: Json) => (await call(t, bmc, "GET", m["@odata.id"])).body.Version),
    );
    expect(versions).toEqual(expect.arrayContaining(["2.0b", "01.02.03", "28.39.1002"]));
  });

  it("refuses to start a lab whose node overrides a BIOS attribute its vendor's registry lacks, naming both", async () => {
    const spec = defaultSpec({ nodes: 2, nodeOverrides: (i) => (i === DELL ? { bios: { Iommu: "Enabled" } } : {}) });
    const stateDir = join(tmpdir(), "rackform-lab-never-started");
    await expect(startLab({ spec, stateDir, backends: false })).rejects.toThrow(
      /nodes\.1\.hardware\.bios\.Iommu: node "r01-n02": unknown BIOS attribute "Iommu" for dell/,
    );
  });

  it("publishes the AttributeRegistry through Registries: MessageRegistryFile Location (en) → registry", async () => {
    const bmc = bmcOf(DELL);
    const root = (await call(t, bmc, "GET", "/redfish/v1")).body;
    const files = (await call(t, bmc, "GET", root.Registries["@odata.id"])).body;
    expect(files["@odata.type"]).toBe("#MessageRegistryFileCollection.MessageRegistryFileCollection");
    const file = (await call(t, bmc, "GET", files.Members[0]["@odata.id"])).body;
    expect(file).toMatchObject({ Registry: "BiosAttributeRegistry.v1_0_0", Languages: ["en"] });
    const where = file.Location.find((l: Json) => l.Language === "en");
    const reg = (await call(t, bmc, "GET", where.Uri)).body;
    expect(reg["@odata.type"]).toMatch(/^#AttributeRegistry\.v1_\d+_\d+\.AttributeRegistry$/);
    expect(reg.Id).toBe("BiosAttributeRegistry.v1_0_0");
    const attrs = new Map(reg.RegistryEntries.Attributes.map((a: Json) => [a.AttributeName, a]));
    expect(attrs.get("SystemModelName")).toMatchObject({ Type: "String", ReadOnly: true });
    expect(attrs.get("NumaNodesPerSocket")).toMatchObject({ Type: "Integer", LowerBound: 1, UpperBound: 4 });
    expect((attrs.get("BootMode") as Json).Value.map((v: Json) => v.ValueName)).toEqual(["Uefi", "Bios"]);
    expect(reg.RegistryEntries.Dependencies[0]).toMatchObject({
      Type: "Map",
      Dependency: { MapFrom: [{ MapFromAttribute: "BootMode", MapFromValue: "Bios" }], MapToProperty: "ReadOnly" },
    });
    expect((await call(t, bmc, "GET", `${files.Members[0]["@odata.id"]}/nope.json`)).status).toBe(404);
  });
});

describe("Bios/Settings", () => {
  it("stages a PATCH (shown overlaid in Settings, not in Bios) and applies it at the next reset", async () => {
    const { bmc, sys, settings } = await biosOf(DELL);
    const r = await call(t, bmc, "PATCH", settings, {
      body: {
        Attributes: { SriovGlobalEnable: "Enabled", SysProfile: "PerfOptimized", NumaNodesPerSocket: 2 },
        "@Redfish.SettingsApplyTime": { ApplyTime: "OnReset" },
      },
    });
    // iDRAC: a config job is created (bios-vendors.test.ts covers it).
    expect(r.status).toBe(202);
    const staged = (await call(t, bmc, "GET", settings)).body;
    expect(staged.Attributes).toMatchObject({ SriovGlobalEnable: "Enabled", ProcVirtualization: "Enabled" });
    expect((await biosOf(DELL)).bios.Attributes.SriovGlobalEnable).toBe("Disabled");

    await reset(bmc, sys, "On");
    const after = (await biosOf(DELL)).bios;
    expect(after.Attributes).toMatchObject({ SriovGlobalEnable: "Enabled", SysProfile: "PerfOptimized" });
    expect(after.Attributes.NumaNodesPerSocket).toBe(2);
    expect(after["@Redfish.Settings"].Messages).toEqual([expect.objectContaining({ MessageId: "Base.1.18.Success" })]);
  });

  it.each([
    [{ SriovGlobalEnable: "Maybe" }, "PropertyValueNotInList", ["Maybe", "Attributes/SriovGlobalEnable"]],
    [{ NoSuchKnob: "Enabled" }, "PropertyUnknown", ["Attributes/NoSuchKnob"]],
    [{ NumaNodesPerSocket: 9 }, "PropertyValueNotInList", ["9", "Attributes/NumaNodesPerSocket"]],
    [{ NumaNodesPerSocket: "2" }, "PropertyValueTypeError", ['"2"', "Attributes/NumaNodesPerSocket"]],
    [{ SystemModelName: "Other" }, "PropertyNotWritable", ["Attributes/SystemModelName"]],
    [{ BootMode: "Bios", MmioAbove4Gb: "Disabled" }, "PropertyNotWritable", ["Attributes/MmioAbove4Gb"]],
  ])("refuses %j with 400 %s and stages nothing", async (attrs, id, args) => {
    const { bmc, settings } = await biosOf(DELL);
    const before = (await call(t, bmc, "GET", settings)).body.Attributes;
    const r = await call(t, bmc, "PATCH", settings, { body: { Attributes: attrs } });
    expect(r.status).toBe(400);
    const info = r.body.error["@Message.ExtendedInfo"][0];
    expect(info.MessageId).toBe(`Base.1.18.${id}`);
    expect(info.MessageArgs).toEqual(args);
    expect((await call(t, bmc, "GET", settings)).body.Attributes).toEqual(before);
  });

  it("refuses an ApplyTime other than OnReset", async () => {
    const { bmc, settings } = await biosOf(HPE);
    const r = await call(t, bmc, "PATCH", settings, {
      body: { Attributes: { Sriov: "Disabled" }, "@Redfish.SettingsApplyTime": { ApplyTime: "Immediate" } },
    });
    expect(r.status).toBe(400);
    expect(r.body.error["@Message.ExtendedInfo"][0].MessageId).toBe("Base.1.18.PropertyValueNotInList");
  });

  it("bios-settings-ignored: one reset leaves the settings pending with SettingsFailed; the next applies them", async () => {
    const { bmc, sys, settings } = await biosOf(HPE);
    const node = t.lab.info.nodes[HPE].name;
    await reset(bmc, sys, "On");
    expect((await control(t, "POST", "/faults", { kind: "bios-settings-ignored", node, count: 1 })).status).toBe(201);
    await call(t, bmc, "PATCH", settings, { body: { Attributes: { WorkloadProfile: "HighPerformanceCompute" } } });
    await reset(bmc, sys);
    const ignored = (await biosOf(HPE)).bios;
    expect(ignored.Attributes.WorkloadProfile).toBe("GeneralPowerEfficientCompute");
    expect(ignored["@Redfish.Settings"].Messages).toEqual([
      expect.objectContaining({
        MessageId: "Base.1.18.SettingsFailed",
        RelatedProperties: ["/Attributes/WorkloadProfile"],
      }),
    ]);
    expect((await call(t, bmc, "GET", settings)).body.Attributes.WorkloadProfile).toBe("HighPerformanceCompute");
    await reset(bmc, sys);
    expect((await biosOf(HPE)).bios.Attributes.WorkloadProfile).toBe("HighPerformanceCompute");
  });
});
