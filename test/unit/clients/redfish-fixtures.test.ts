/**
 * The Redfish client against real payloads: DMTF mockups (public-rackmount1, public-tower, public-pdu), DSP2046
 * examples and sushy samples. Mockups are served from a loopback server so the whole discovery path runs.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { extractServerMessage, isClientError } from "../../../src/clients/errors.js";
import { RedfishClient } from "../../../src/clients/redfish/client.js";
import * as p from "../../../src/clients/redfish/parse.js";
import { chooseResetType } from "../../../src/clients/redfish/reset.js";
import {
  FIXTURES,
  fixture,
  type MockupServer,
  requireFixtures,
  startMockup,
} from "../../support/clients/mockup-server.js";

const mockup = (name: string) => join(requireFixtures(), "dmtf", "mockups", name);
const sushy = (f: string) => fixture(`sushy/json_samples/${f}`);
const servers: MockupServer[] = [];
const clients: RedfishClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(name: string, opts: Parameters<typeof startMockup>[1] = {}) {
  const server = await startMockup(mockup(name), opts);
  servers.push(server);
  const client = new RedfishClient({ baseUrl: server.url, username: "admin", password: "secret" });
  clients.push(client);
  return { server, client };
}

describe("fixtures", () => {
  it("are present (fails, never skips, when the shared folder is missing)", () => {
    expect(requireFixtures()).toBe(FIXTURES);
  });
});

describe("parsers on sushy samples", () => {
  it("extracts the server's messages from error bodies, array or single ExtendedInfo", () => {
    const many = extractServerMessage(JSON.stringify(sushy("error.json")));
    expect(many).toContain("The property SKU is a read only property");
    expect(many).toContain("malformed JSON");
    const single = extractServerMessage(JSON.stringify(sushy("error_single_ext_info.json")));
    expect(single).toContain("See Resolution for information");
    expect(extractServerMessage(JSON.stringify(sushy("session_error.json")))).toContain("no valid session");
    expect(extractServerMessage(JSON.stringify(sushy("transfer_proto_required_error.json")))).toContain(
      "TransferProtocolType",
    );
    expect(extractServerMessage('{"detail":"quota exceeded"}')).toBe("quota exceeded");
  });

  it("reads power, boot and reset facts of a system", () => {
    const s = p.parseSystem(sushy("systemv1_20.json"));
    expect(s).toMatchObject({
      id: "437XR1138R2",
      powerState: "On",
      boot: { target: "Pxe", enabled: "Once", mode: "UEFI" },
    });
    expect(s.resetTypes).toContain("ForceRestart");
    expect(s.boot.allowedTargets).toContain("Pxe");
  });

  it("reads MACs, CPUs, drives, firmware and tasks", () => {
    expect(p.interfaceMac(sushy("ethernet_interfaces.json"))).toBe("12:44:6A:3B:04:11");
    expect(p.parseProcessor(sushy("processor.json")).cpu?.model).toContain("Xeon");
    expect(p.parseDrive(sushy("drive.json"))).toMatchObject({
      model: "C123",
      serial: "1234570",
      capacityBytes: 899527000000,
    });
    expect(p.simpleStorageDrives(sushy("simple_storage.json")).map((d) => d.model)).toEqual(["3000GT8", "3000GT7"]);
    expect(p.parseFirmware(sushy("softwareinventory.json"))).toEqual({
      id: "BMC",
      name: "Contoso BMC Firmware",
      version: "1.45.455b66-rev4",
      odataId: "/redfish/v1/UpdateService/FirmwareInventory/BMC",
      relatedItems: ["/redfish/v1/Managers/1"],
    });
    const done = p.parseTask(sushy("task.json"), "/x");
    expect(done).toMatchObject({ state: "Completed", percentComplete: 100, messages: ["Property SKU is read only."] });
    expect(p.parseTask(sushy("task2.json"), "/x")).toMatchObject({ state: "Pending", percentComplete: 55 });
    expect(p.isGpuFunction(sushy("pcie_function.json"))).toBe(false);
    expect(p.isGpuFunction({ DeviceClass: "DisplayController", VendorId: "0x10de" })).toBe(true);
    expect(p.isGpuFunction({ ClassCode: "0x030200", VendorId: "0x10de" })).toBe(true);
    expect(p.isGpuFunction({ DeviceClass: "DisplayController", VendorId: "0x1a03" })).toBe(false);
  });

  it("reads DSP2046 outlet and processor examples", () => {
    const outlet = p.parseOutlet(fixture("dmtf/mockups/DSP2046-examples/Outlet-v1-example.json"));
    expect(outlet.controlTarget).toMatch(/Outlet\.PowerControl$/);
    expect(p.parseProcessor(fixture("dmtf/mockups/DSP2046-examples/Processor-v1-example.json")).kind).toBe("cpu");
    expect(fixture("dmtf/mockups/DSP2046-examples/Outlet-v1-PowerControl-request-example.json")).toEqual({
      PowerState: "PowerCycle",
    });
  });
});

describe("reset type choice", () => {
  it("maps a missing type to an equivalent only when the effect is the same", () => {
    expect(chooseResetType("PowerCycle", ["On", "ForceOff", "ForceRestart"], "On")).toBe("ForceRestart");
    expect(chooseResetType("On", ["ForceOn", "ForceOff"], "Off")).toBe("ForceOn");
    expect(chooseResetType("On", ["PushPowerButton"], "Off")).toBe("PushPowerButton");
    expect(chooseResetType("On", ["PushPowerButton"], "On")).toBeUndefined();
    expect(chooseResetType("ForceOff", ["On", "GracefulShutdown"], "On")).toBeUndefined();
    expect(chooseResetType("Nmi", undefined, "On")).toBe("Nmi");
  });
});

describe("discovery over loopback: public-rackmount1", () => {
  it("inventories the system: MACs, CPUs, memory, drives, firmware; an empty socket and an FPGA are left out", async () => {
    const { client } = await serve("public-rackmount1");
    const inv = await client.inventory();
    expect(inv).toMatchObject({
      systemId: "437XR1138R2",
      serial: "437XR1138R2",
      model: "3500",
      manufacturer: "Contoso",
      memoryGiB: 96,
    });
    expect(inv.macs).toEqual(["12:44:6A:3B:04:11", "AA:BB:CC:DD:EE:00", "AA:BB:CC:DD:EE:FE"]);
    expect(inv.cpus).toEqual([expect.objectContaining({ id: "CPU1", cores: 8 })]);
    expect(inv.gpus).toEqual([]);
    expect(inv.drives.length).toBeGreaterThan(0);
    const fw = Object.fromEntries(inv.firmware.map((f) => [f.id, f.version]));
    expect(fw).toMatchObject({ BMC: "1.45.455b66-rev4", BIOS: "P79 v1.45" });
  });

  it("logs in with a session, reuses the token and logs out", async () => {
    const token = String(sushy("session_creation_headers.json")["X-Auth-Token"]);
    const { server, client } = await serve("public-rackmount1", { token });
    await client.getSystem();
    await client.getSystem();
    expect(server.seen.filter((s) => s.method === "POST" && s.path.endsWith("/Sessions"))).toHaveLength(1);
    expect(server.seen.filter((s) => s.headers["x-auth-token"] === token).length).toBeGreaterThan(1);
    await client.logout();
    expect(server.tokens.has(token)).toBe(false);
  });

  it("resets with an allowed type and maps PowerCycle to ForceRestart", async () => {
    const { server, client } = await serve("public-rackmount1");
    expect(await client.power("PowerCycle")).toEqual({ requested: "PowerCycle", sent: "ForceRestart" });
    const post = server.seen.find((s) => s.path.endsWith("ComputerSystem.Reset"));
    expect(JSON.parse(post!.body)).toEqual({ ResetType: "ForceRestart" });
  });

  it("fails a reset the BMC does not allow, listing the allowed types", async () => {
    const { server, client } = await serve("public-rackmount1");
    server.override("/redfish/v1/Systems/437XR1138R2", (j) => {
      const a = j.Actions as Record<string, Record<string, unknown>>;
      a["#ComputerSystem.Reset"]["ResetType@Redfish.AllowableValues"] = ["On", "ForceOff"];
      return j;
    });
    const err = await client.power("GracefulRestart").catch((e) => e);
    expect(isClientError(err, "RACKFORM_ERR_REDFISH_RESET_UNSUPPORTED")).toBe(true);
    expect(err.message).toContain("allowed: On, ForceOff");
  });

  it("sets a boot override with If-Match and retries once after a 412", async () => {
    const { server, client } = await serve("public-rackmount1", { staleEtagOnce: true });
    const sys = await client.setBootOverride("Hdd", "Continuous");
    expect(sys.boot).toMatchObject({ target: "Hdd", enabled: "Continuous" });
    const patches = server.seen.filter((s) => s.method === "PATCH");
    expect(patches).toHaveLength(2);
    expect(patches.every((s) => typeof s.headers["if-match"] === "string")).toBe(true);
  });

  it("refuses a boot target outside the allowed list", async () => {
    const { client } = await serve("public-rackmount1");
    const err = await client.setBootOverride("Floppy", "Once").catch((e) => e);
    expect(err.code).toBe("RACKFORM_ERR_REDFISH_BOOT_TARGET_UNSUPPORTED");
    expect(err.message).toContain("Pxe");
  });

  it("runs SimpleUpdate and follows its task to completion", async () => {
    const { server, client } = await serve("public-rackmount1", { taskPolls: 3 });
    const progress: number[] = [];
    const done = await client.simpleUpdate("https://images.contoso.org/bmc_0260_2021.bin", [], {
      sleep: async () => undefined,
      onProgress: (t) => progress.push(t.percentComplete ?? -1),
    });
    expect(done).toMatchObject({
      state: "Completed",
      percentComplete: 100,
      messages: ["The update of BMC completed."],
    });
    expect(progress).toContain(50);
    const post = server.seen.find((s) => s.path.endsWith("UpdateService.SimpleUpdate"));
    expect(JSON.parse(post!.body)).toEqual({ ImageURI: "https://images.contoso.org/bmc_0260_2021.bin" });
  });
});

describe("discovery over loopback: more", () => {
  it("fails a firmware update whose task ends in Exception, with the task's messages", async () => {
    const { client } = await serve("public-rackmount1", { taskEnds: "Exception" });
    const err = await client.simpleUpdate("https://x/bmc.bin", [], { sleep: async () => undefined }).catch((e) => e);
    expect(err.code).toBe("RACKFORM_ERR_REDFISH_TASK_FAILED");
    expect(err.message).toContain("Image bmc.bin failed signature verification.");
  });

  it("times out a task that never ends, on the injected clock", async () => {
    const { client } = await serve("public-rackmount1", { taskPolls: 1_000 });
    let now = 0;
    const err = await client
      .simpleUpdate("https://x/bmc.bin", [], {
        sleep: async () => void (now += 60_000),
        now: () => now,
        timeoutMs: 300_000,
      })
      .catch((e) => e);
    expect(err.code).toBe("RACKFORM_ERR_REDFISH_TASK_TIMEOUT");
  });

  it("logs in through the spec's session URI when the service root itself needs credentials", async () => {
    const { client } = await serve("public-rackmount1", { rootRequiresAuth: true });
    expect((await client.getSystem()).id).toBe("437XR1138R2");
  });

  it("discovers systems, managers, chassis and rack PDUs from the service root", async () => {
    expect(await (await serve("public-rackmount1")).client.discover()).toEqual({
      systems: ["437XR1138R2"],
      managers: ["BMC"],
      chassis: ["1U"],
      hasUpdateService: true,
      rackPdus: [],
    });
    expect((await (await serve("public-pdu")).client.discover()).rackPdus).toEqual(["1"]);
  });
});

describe("discovery over loopback: public-tower", () => {
  it("counts the two GPUs once although they appear as Processors and PCIe devices", async () => {
    const { client } = await serve("public-tower");
    const inv = await client.inventory();
    expect(inv.systemId).toBe("437XR1238R2");
    expect(inv.gpus.map((g) => g.id)).toEqual(["GPU1", "GPU2"]);
    expect(inv.gpus[0]).toMatchObject({
      model: "Nvidia(R) TU102",
      source: "processor",
      pcieDevice: "/redfish/v1/Chassis/Tower/PCIeDevices/Slot1",
    });
    expect(inv.cpus).toHaveLength(8);
    expect(inv.memoryGiB).toBe(1024);
    expect(inv.macs).toEqual(["FB:AA:1D:4E:D0:7A", "FB:AA:1D:4E:D0:7C"]);
    expect(inv.drives.length).toBeGreaterThan(0);
  });
});

describe("discovery over loopback: public-pdu", () => {
  it("lists rack PDUs and reads outlet states", async () => {
    const { client } = await serve("public-pdu");
    expect(await client.listPdus()).toEqual([
      expect.objectContaining({ id: "1", model: "ZAP4000", firmwareVersion: "4.3.0" }),
    ]);
    expect(await client.getOutlet("1", "A1")).toMatchObject({ powerState: "On", powerEnabled: true });
  });

  it("switches an outlet off via #Outlet.PowerControl", async () => {
    const { server, client } = await serve("public-pdu");
    expect((await client.setOutletPower("1", "B1", "Off")).powerState).toBe("Off");
    const post = server.seen.find((s) => s.path.endsWith("Outlet.PowerControl"));
    expect(JSON.parse(post!.body)).toEqual({ PowerState: "Off" });
  });

  it("fails for an outlet without PowerControl and for an unknown outlet", async () => {
    const { client } = await serve("public-pdu");
    expect((await client.setOutletPower("1", "A5", "On").catch((e) => e)).code).toBe(
      "RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED",
    );
    const missing = await client.getOutlet("1", "Z9").catch((e) => e);
    expect(missing.code).toBe("RACKFORM_ERR_REDFISH_NOT_FOUND");
    expect(missing.message).toContain("A1");
  });
});
