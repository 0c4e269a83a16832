/**
 * Integration: rackform's own Redfish client (src/clients/redfish, as on main) against the lab BMC's BIOS and
 * multipart push — read the BIOS and its registry, stage settings, reset through the client's power call and read
 * them applied; push an image staged OnReset and see the next reset apply it; and the faults bios-settings-ignored,
 * bad-signature, component-busy and power-lost-mid-update as the client reports them.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fileImageSource } from "../../../src/clients/images/source.js";
import { checkBiosSettings, RedfishClient } from "../../../src/clients/redfish/index.js";
import { labFirmwareImage } from "../../../src/lab/index.js";
import { powerOutlet, startTestLab, type TestLab } from "./lab-client.js";

let t: TestLab;
let dir: string;
const clients: RedfishClient[] = [];
/** defaultSpec cycles nvidia-dgx, dell, supermicro, hpe. */
const DELL = 1;
const SUPERMICRO = 2;
const HPE = 3;
const noSleep = { sleep: async () => undefined };

beforeAll(async () => {
  t = await startTestLab({ nodes: 4 });
  dir = mkdtempSync(join(tmpdir(), "rackform-fwlab-"));
  for (const n of t.lab.info.nodes) await powerOutlet(t, n.name);
});
afterEach(() => t.lab.world.faults.clear());
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function client(i: number): RedfishClient {
  const n = t.lab.info.nodes[i];
  const c = new RedfishClient({
    baseUrl: n.bmc.url,
    username: n.bmc.username,
    password: n.bmc.password,
    ca: t.lab.info.ca,
    http: { retry: { maxAttempts: 1 } },
  });
  clients.push(c);
  return c;
}

const labNode = (i: number) =>
  t.lab.world.nodes.get(t.lab.info.nodes[i].name) as NonNullable<unknown> & {
    ids: { firmware: Record<string, string> };
  };
const fwUri = (i: number, c: string) => `/redfish/v1/UpdateService/FirmwareInventory/${labNode(i).ids.firmware[c]}`;

async function versionOf(c: RedfishClient, i: number, component: string): Promise<string | undefined> {
  const id = labNode(i).ids.firmware[component];
  return (await c.firmwareInventory()).find((f) => f.id === id)?.version;
}

/** Writes a lab image to a file and returns what pushFirmware takes. */
async function imageFile(name: string, opts: Parameters<typeof labFirmwareImage>[0], targets: string[]) {
  const path = join(dir, name);
  writeFileSync(path, labFirmwareImage(opts));
  return { source: await fileImageSource(path), filename: name, targets };
}

/** Powers the host on (if off) then restarts it through the client. */
async function restart(c: RedfishClient): Promise<void> {
  if ((await c.getSystem()).powerState !== "On") await c.power("On");
  await c.power("ForceRestart");
}

describe("RedfishClient BIOS against the lab", () => {
  it("reads the BIOS and its registry, stages settings OnReset, and reads them applied after a reset", async () => {
    const c = client(DELL);
    const ops = c.bios();
    const bios = await ops.read();
    expect(bios).toMatchObject({ registryId: "BiosAttributeRegistry.v1_0_0", applyTimes: ["OnReset"], pending: {} });
    expect(bios.settingsRef).toBe(`${bios.ref}/Settings`);
    const reg = await ops.registry(bios.registryId as string);
    expect(reg?.attributes.get("SysProfile")?.allowed).toContain("PerfOptimized");
    expect(reg?.attributes.get("SystemModelName")?.readOnly).toBe(true);
    expect(reg?.dependencies).toHaveLength(1);
    const wanted = { SriovGlobalEnable: "Enabled", SysProfile: "PerfOptimized", NumaNodesPerSocket: 2 };
    expect(checkBiosSettings(reg as NonNullable<typeof reg>, bios.attributes, wanted)).toEqual([]);
    expect(
      checkBiosSettings(reg as NonNullable<typeof reg>, bios.attributes, {
        BootMode: "Bios",
        MmioAbove4Gb: "Disabled",
      }),
    ).toEqual([expect.objectContaining({ attribute: "MmioAbove4Gb", kind: "dependency" })]);

    expect(await ops.stage(bios, wanted)).toBe("OnReset");
    const staged = await ops.read();
    expect(staged.pending).toEqual(wanted);
    expect(staged.attributes.SriovGlobalEnable).toBe("Disabled");

    await restart(c);
    const applied = await ops.read();
    expect(applied.attributes).toMatchObject(wanted);
    expect(applied.pending).toEqual({});
    expect(applied.lastApplyMessages).toEqual([{ messageId: "Base.1.18.Success", properties: [] }]);
  });

  it("gets the BMC's 400 PropertyValueNotInList when staging a value outside the registry", async () => {
    const ops = client(HPE).bios();
    const bios = await ops.read();
    await expect(ops.stage(bios, { WorkloadProfile: "Turbo" })).rejects.toMatchObject({
      status: 400,
      messageId: "Base.1.18.PropertyValueNotInList",
    });
  });

  it("bios-settings-ignored: after the reset the settings are still pending and SettingsFailed names them", async () => {
    const c = client(SUPERMICRO);
    const ops = c.bios();
    if ((await c.getSystem()).powerState !== "On") await c.power("On");
    t.lab.world.faults.add({ kind: "bios-settings-ignored", node: t.lab.info.nodes[SUPERMICRO].name, count: 1 });
    await ops.stage(await ops.read(), { Iommu: "Enabled" });
    await c.power("ForceRestart");
    const after = await ops.read();
    expect(after.pending).toEqual({ Iommu: "Enabled" });
    expect(after.lastApplyMessages).toEqual([
      { messageId: "Base.1.18.SettingsFailed", properties: ["/Attributes/Iommu"] },
    ]);
    await c.power("ForceRestart");
    expect((await ops.read()).attributes.Iommu).toBe("Enabled");
  });
});

describe("RedfishClient pushFirmware against the lab", () => {
  it("pushes an image staged OnReset: the task completes, the version changes only at the next reset", async () => {
    const c = client(DELL);
    const before = await versionOf(c, DELL, "bios");
    const req = await imageFile("bios-2.3.1.rfimg", { component: "bios", version: "2.3.1" }, [fwUri(DELL, "bios")]);
    const snap = await c.pushFirmware(req, noSleep);
    expect(snap.state).toBe("Completed");
    expect(snap.messages.join(" ")).toMatch(/next host reset/);
    expect(await versionOf(c, DELL, "bios")).toBe(before);
    await restart(c);
    expect(await versionOf(c, DELL, "bios")).toBe("2.3.1");
  });

  it("bad-signature: the task ends Exception and the client's error names the image", async () => {
    const c = client(HPE);
    const before = await versionOf(c, HPE, "bmc");
    const req = await imageFile("ilo-bad.rfimg", { component: "bmc", version: "3.10", signature: "wrong" }, []);
    await expect(c.pushFirmware(req, noSleep)).rejects.toMatchObject({
      code: "RACKFORM_ERR_REDFISH_TASK_FAILED",
      message: expect.stringContaining("ilo-bad.rfimg"),
    });
    expect(await versionOf(c, HPE, "bmc")).toBe(before);
  });

  it("component-busy: the first push is refused 503 with Retry-After, the next one goes through", async () => {
    const c = client(SUPERMICRO);
    t.lab.world.faults.add({ kind: "component-busy", node: t.lab.info.nodes[SUPERMICRO].name, retryAfterS: 2 });
    const req = await imageFile("nic.rfimg", { component: "nic", version: "28.41.0" }, [fwUri(SUPERMICRO, "nic")]);
    const since = t.lab.requests.last();
    const slept: number[] = [];
    const sleep = async (ms: number) => void slept.push(ms);
    // The client sends a refused push again itself (its body opened afresh), after the BMC's Retry-After.
    expect((await c.pushFirmware(req, { sleep })).state).toBe("Completed");
    const posts = t.lab.requests.since(since).filter((e) => e.method === "POST" && e.path.endsWith("/upload"));
    expect(posts.map((e) => e.status)).toEqual([503, 202]);
    expect(slept[0]).toBe(2_000);
    await restart(c);
    expect(await versionOf(c, SUPERMICRO, "nic")).toBe("28.41.0");
  });

  it("power-lost-mid-update: the reset loses the staged image; the version stays", async () => {
    const c = client(HPE);
    const before = await versionOf(c, HPE, "bios");
    t.lab.world.faults.add({ kind: "power-lost-mid-update", node: t.lab.info.nodes[HPE].name, count: 1 });
    const req = await imageFile("u54.rfimg", { component: "bios", version: "3.0.0" }, [fwUri(HPE, "bios")]);
    expect((await c.pushFirmware(req, noSleep)).state).toBe("Completed");
    await restart(c);
    expect(await versionOf(c, HPE, "bios")).toBe(before);
  });
});
