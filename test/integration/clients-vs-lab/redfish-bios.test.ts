/**
 * The real BIOS client (src/clients/redfish/bios.ts) against the lab's BMCs of every vendor style (one node each):
 * BiosOps.read() finds the settings object through @Redfish.Settings (Supermicro's Bios/SD, the others'
 * Bios/Settings), stage() asks for OnReset only where SupportedApplyTimes lists it (so Supermicro, which refuses the
 * annotation, and HPE, which lists none, get none), one host reset applies the settings (on Dell through the config
 * job the PATCH created), and read() shows them. Dell: staging again while a job waits recovers from iDRAC's SYS011
 * by deleting the waiting job and staging the merged settings.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RedfishClient } from "../../../src/clients/redfish/index.js";
import { type ClientLab, startClientLab } from "./support.js";

let t: ClientLab;
const clients: RedfishClient[] = [];

beforeAll(async () => {
  t = await startClientLab(6);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.close();
});

function bmc(i: number): RedfishClient {
  const n = t.lab.info.nodes[i];
  const c = new RedfishClient({
    baseUrl: n.bmc.url,
    username: n.bmc.username,
    password: n.bmc.password,
    ca: t.lab.info.ca,
    http: { sleep: async () => undefined, retry: { maxAttempts: 2, baseDelayMs: 1 } },
  });
  clients.push(c);
  return c;
}

const vendorOf = (i: number) => t.node(t.lab.info.nodes[i].name).spec.vendor;

/** One setting each vendor's registry has, at a value other than the node's initial one. */
const CHANGE: Record<string, Record<string, string>> = {
  dell: { SriovGlobalEnable: "Enabled" },
  hpe: { Sriov: "Disabled" },
  supermicro: { Iommu: "Enabled" },
  lenovo: { Iommu: "Disabled" },
  "nvidia-dgx": { SriovSupport: "Disabled" },
  contoso: { Above4GDecoding: "Disabled" },
};

/** Where each vendor's settings object lives and which apply time the client uses there. */
const SHAPE: Record<string, { segment: string; applyTime: string }> = {
  dell: { segment: "Settings", applyTime: "OnReset" },
  hpe: { segment: "Settings", applyTime: "unstated" },
  supermicro: { segment: "SD", applyTime: "unstated" },
  lenovo: { segment: "Settings", applyTime: "OnReset" },
  "nvidia-dgx": { segment: "Settings", applyTime: "OnReset" },
  contoso: { segment: "Settings", applyTime: "OnReset" },
};

async function restart(c: RedfishClient): Promise<void> {
  t.advance(600_000); // past any power transition of an earlier reset (the demo profile's states take time)
  if ((await c.getSystem()).powerState !== "On") await c.power("On");
  else await c.power("ForceRestart");
}

describe.each([0, 1, 2, 3, 4, 5])("lab node %i (every vendor style)", (i) => {
  it("reads the BIOS, stages a setting, and one host reset applies it", async () => {
    const vendor = vendorOf(i);
    const c = bmc(i);
    const ops = c.bios();
    const bios = await ops.read();
    expect(bios.settingsRef, vendor).toBe(`${bios.ref}/${SHAPE[vendor].segment}`);
    expect(bios.pending).toEqual({});
    const wanted = CHANGE[vendor];
    const [name, value] = Object.entries(wanted)[0];
    expect(bios.attributes[name], vendor).not.toBe(value);

    expect(await ops.stage(bios, wanted), vendor).toBe(SHAPE[vendor].applyTime);
    const staged = await ops.read();
    expect(staged.pending, vendor).toEqual(wanted);
    expect(staged.attributes[name]).toBe(bios.attributes[name]);

    await restart(c);
    const applied = await ops.read();
    expect(applied.attributes, vendor).toMatchObject(wanted);
    expect(applied.pending).toEqual({});
    expect(applied.lastApplyMessages).toEqual([{ messageId: "Base.1.18.Success", properties: [] }]);
  });
});

describe("Dell iDRAC: staging while a config job waits", () => {
  it("deletes the waiting job on SYS011 and stages the merged settings in one new job that the reset runs", async () => {
    const i = t.lab.info.nodes.findIndex((n) => t.node(n.name).spec.vendor === "dell");
    const node = t.node(t.lab.info.nodes[i].name);
    const c = bmc(i);
    const ops = c.bios();
    expect(await ops.stage(await ops.read(), { SysProfile: "PerfOptimized" })).toBe("OnReset");
    const first = node.bios.jobs.at(-1);
    expect(first?.state).toBe("Scheduled");

    const bios = await ops.read();
    expect(bios.pending).toEqual({ SysProfile: "PerfOptimized" });
    expect(await ops.stage(bios, { NumaNodesPerSocket: 2 })).toBe("OnReset");
    expect(node.bios.jobs.map((j) => j.id)).not.toContain(first?.id);
    const second = node.bios.jobs.at(-1);
    expect(second?.state).toBe("Scheduled");
    expect((await ops.read()).pending).toEqual({ SysProfile: "PerfOptimized", NumaNodesPerSocket: 2 });

    await restart(c);
    const applied = await ops.read();
    expect(applied.attributes).toMatchObject({ SysProfile: "PerfOptimized", NumaNodesPerSocket: 2 });
    expect(applied.pending).toEqual({});
    expect(second?.state).toBe("Completed");
  });
});
