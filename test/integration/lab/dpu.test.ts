/**
 * The lab's BlueField-3 DPUs: each its own Redfish service behind the host's outlet, mode changes only after the
 * documented reboot sequence, BFB installs as tasks that can fail, and the host's inventory listing the card.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSpec, FACTORY_BFB } from "../../../src/lab/index.js";
import { call, control, powerOutlet, startTestLab, systemPath, type TestLab } from "./lab-client.js";

const SYS = "/redfish/v1/Systems/Bluefield";
const UPDATE = "/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate";
const DPU_OS = "redfish/v1/UpdateService/FirmwareInventory/DPU_OS";

describe("lab BlueField-3 DPUs", () => {
  let t: TestLab;
  let node: string;
  let dpu: string;
  let host: string;

  beforeAll(async () => {
    t = await startTestLab({ spec: defaultSpec({ nodes: 2, dpus: 1, dpuMode: "NicMode" }), backends: false });
    const n = t.lab.info.nodes[0];
    node = n.name;
    host = n.bmc.url;
    dpu = n.dpus?.[0]?.url ?? "";
  });
  afterAll(async () => t?.stop());

  it("lists each DPU's BMC in the lab file on its own loopback address", () => {
    const n = t.lab.info.nodes[0];
    expect(n.dpus).toHaveLength(1);
    expect(n.dpus?.[0].id).toBe(`${node}-dpu0`);
    expect(new URL(dpu).hostname).toMatch(/^127\.12\.1\.1$/);
  });

  it("powers with the host's outlet: unreachable while it is off", async () => {
    await expect(call(t, dpu, "GET", "/redfish/v1")).rejects.toThrow();
    await powerOutlet(t, node);
    const root = await call(t, dpu, "GET", "/redfish/v1");
    expect(root.status).toBe(200);
    expect(root.body.Systems["@odata.id"]).toBe("/redfish/v1/Systems");
  });

  it("serves Systems/Bluefield and Managers/Bluefield_BMC, and refuses a wrong password", async () => {
    const sys = await call(t, dpu, "GET", SYS);
    expect(sys.body.BootProgress).toEqual({ LastState: "OEM", OemLastState: "UEFI" });
    const mgr = await call(t, dpu, "GET", "/redfish/v1/Managers/Bluefield_BMC");
    expect(mgr.body.ManagerType).toBe("BMC");
    const bad = await call(t, dpu, "GET", SYS, { auth: "none" });
    expect(bad.status).toBe(401);
  });

  it("changes mode only after two Arm reboots and then a host power-on", async () => {
    const set = await call(t, dpu, "POST", `${SYS}/Oem/Nvidia/Actions/Mode.Set`, { body: { Mode: "DpuMode" } });
    expect(set.status).toBe(200);
    const mode = async () => (await call(t, dpu, "GET", `${SYS}/Oem/Nvidia`)).body.Mode;
    expect(await mode()).toBe("NicMode");
    const sysPath = await systemPath(t, host);
    const hostReset = (type: string) =>
      call(t, host, "POST", `${sysPath}/Actions/ComputerSystem.Reset`, { body: { ResetType: type } });
    // A power-on before the Arm reboots changes nothing.
    expect((await hostReset("On")).status).toBe(204);
    expect(await mode()).toBe("NicMode");
    for (let i = 0; i < 2; i++) {
      const r = await call(t, dpu, "POST", `${SYS}/Actions/ComputerSystem.Reset`, {
        body: { ResetType: "ForceRestart" },
      });
      expect(r.status).toBe(204);
    }
    expect(await mode()).toBe("NicMode");
    await hostReset("ForceOff");
    await hostReset("On");
    expect(await mode()).toBe("DpuMode");
    expect((await call(t, dpu, "GET", SYS)).body.BootProgress.OemLastState).toBe("OsIsRunning");
  });

  it("rejects an unknown mode with the Base registry's message", async () => {
    const r = await call(t, dpu, "POST", `${SYS}/Oem/Nvidia/Actions/Mode.Set`, { body: { Mode: "ZeroTrust" } });
    expect(r.status).toBe(400);
    expect(r.body.error["@Message.ExtendedInfo"][0].MessageId).toMatch(/ActionParameterValueNotInList$/);
  });

  it("installs a BFB only through the BMC's rshim, which needs the host's rshim disabled", async () => {
    const before = await call(t, dpu, "GET", `/${DPU_OS}`);
    expect(before.body.Version).toBe(FACTORY_BFB);
    // BMC rshim asked while the host holds the device: accepted, but it does not start.
    await call(t, dpu, "PATCH", "/redfish/v1/Managers/Bluefield_BMC/Oem/Nvidia", {
      body: { BmcRShim: { BmcRShimEnabled: true } },
    });
    const rshim = await call(t, dpu, "GET", "/redfish/v1/Managers/Bluefield_BMC/Oem/Nvidia");
    expect(rshim.body.BmcRShim.BmcRShimEnabled).toBe(false);
    const noRshim = await call(t, dpu, "POST", UPDATE, {
      body: { TransferProtocol: "HTTP", ImageURI: "http://127.0.0.1/x.bfb", Targets: [DPU_OS] },
    });
    expect(noRshim.status).toBe(202);
    const failed = await call(t, dpu, "GET", noRshim.headers.location);
    expect(failed.body.TaskState).toBe("Exception");

    await call(t, dpu, "POST", `${SYS}/Oem/Nvidia/Actions/HostRshim.Set`, { body: { HostRshim: "Disabled" } });
    await call(t, dpu, "PATCH", "/redfish/v1/Managers/Bluefield_BMC/Oem/Nvidia", {
      body: { BmcRShim: { BmcRShimEnabled: true } },
    });
    const bfb = "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod";
    const r = await call(t, dpu, "POST", UPDATE, {
      body: { TransferProtocol: "HTTP", ImageURI: `http://127.0.0.1/${bfb}.bfb`, Targets: [DPU_OS] },
    });
    expect(r.status).toBe(202);
    expect(r.body.TaskState).toMatch(/^(New|Running|Completed)$/);
    const task = await call(t, dpu, "GET", r.headers.location);
    expect(task.body).toMatchObject({ TaskState: "Completed", PercentComplete: 100 });
    expect((await call(t, dpu, "GET", `/${DPU_OS}`)).body.Version).toBe(bfb);
  });

  it("fails a BFB install with the task's messages when the bfb-install-failure fault is set", async () => {
    const f = await control(t, "POST", "/faults", { kind: "bfb-install-failure", node: `${node}-dpu0`, count: 1 });
    expect(f.status).toBe(201);
    const r = await call(t, dpu, "POST", UPDATE, {
      body: { TransferProtocol: "HTTP", ImageURI: "http://127.0.0.1/broken-1.0.bfb", Targets: [DPU_OS] },
    });
    const task = await call(t, dpu, "GET", r.headers.location);
    expect(task.body.TaskState).toBe("Exception");
    expect(task.body.TaskStatus).toBe("Critical");
    expect(task.body.Messages.map((m: { MessageId: string }) => m.MessageId)).toContain("Update.1.0.TransferFailed");
    expect((await call(t, dpu, "GET", `/${DPU_OS}`)).body.Version).not.toBe("broken-1.0");
  });

  it("refuses a SimpleUpdate without the DPU_OS target", async () => {
    const r = await call(t, dpu, "POST", UPDATE, { body: { ImageURI: "http://127.0.0.1/a.bfb" } });
    expect(r.status).toBe(400);
  });

  it("shows the DPU in the host's inventory as a PCIe device", async () => {
    const sys = await call(t, host, "GET", await systemPath(t, host));
    const ids = sys.body.PCIeDevices.map((l: { "@odata.id": string }) => l["@odata.id"]);
    const dev = ids.find((x: string) => x.endsWith("/DPU1"));
    expect(dev).toBeDefined();
    const body = (await call(t, host, "GET", dev)).body;
    expect(body).toMatchObject({ Manufacturer: "NVIDIA", Model: "BlueField-3 DPU" });
  });
});
