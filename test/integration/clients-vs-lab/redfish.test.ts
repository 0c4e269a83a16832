/**
 * RedfishClient against the lab's BMCs (one per vendor style) and rack PDUs: discovery without hard-coded ids,
 * inventory, power, one-time boot, SimpleUpdate tasks, outlets, session expiry, injected 503/429 and an unreachable
 * BMC. The lab runs on a manual clock; the client's retry sleeps are recorded, never waited.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { RedfishClient } from "../../../src/clients/redfish/index.js";
import { type ClientLab, rejection, startClientLab } from "./support.js";

let t: ClientLab;
const sleeps: number[] = [];
const clients: RedfishClient[] = [];

beforeAll(async () => {
  t = await startClientLab(6);
});
afterEach(() => {
  t.lab.world.faults.clear();
  vi.useRealTimers();
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await t?.close();
});

/** A client of node `i`'s BMC (or a PDU url) trusting the lab CA; retry sleeps are recorded instead of waited. */
function bmc(i: number, opts: { auth?: "session" | "basic"; url?: string } = {}): RedfishClient {
  const n = t.lab.info.nodes[i];
  const c = new RedfishClient({
    baseUrl: opts.url ?? n.bmc.url,
    username: n.bmc.username,
    password: n.bmc.password,
    auth: opts.auth ?? "session",
    ca: t.lab.info.ca,
    http: { random: () => 0.5, sleep: async (ms) => void sleeps.push(ms), retry: { maxAttempts: 4, baseDelayMs: 100 } },
  });
  clients.push(c);
  return c;
}

describe.each([0, 1, 2, 3, 4, 5])("lab node %i (every vendor style)", (i) => {
  it("discovers system, manager and chassis ids by following links, and reads a full inventory", async () => {
    const info = t.lab.info.nodes[i];
    const node = t.node(info.name);
    const c = bmc(i);
    const d = await c.discover();
    expect(d.systems, node.spec.vendor).toEqual([node.systemId]);
    expect(d.managers).toEqual([node.ids.manager]);
    expect(d.chassis).toContain(node.chassisId);
    expect(d.hasUpdateService).toBe(true);

    const inv = await c.inventory();
    expect(inv.systemId).toBe(node.systemId);
    expect(inv.serial).toBe(node.serial);
    expect(inv.gpus).toHaveLength(8);
    expect(new Set(inv.gpus.map((g) => g.id)).size).toBe(8);
    expect(inv.macs).toEqual(node.ports.map((p) => p.mac.toUpperCase()));
    const hw = node.spec.hardware;
    expect(inv.cpus).toHaveLength(hw.cpu.sockets);
    expect(inv.memoryGiB).toBe(hw.memory.dimms * hw.memory.dimmGiB);
    const versions = inv.firmware.map((f) => f.version);
    for (const comp of ["bmc", "bios", "gpu", "nic"] as const) {
      expect(versions, `${node.spec.vendor} ${comp}`).toContain(t.lab.world.firmwareVersion(node, comp));
    }
    expect(inv.drives.length).toBeGreaterThan(0);
  });
  it("powers the host on and off through ComputerSystem.Reset; the world follows", async () => {
    const c = bmc(i);
    const node = t.node(t.lab.info.nodes[i].name);
    expect((await c.getSystem()).powerState).toBe("Off");
    expect(await c.power("On")).toEqual({ requested: "On", sent: "On" });
    t.advance(1_000);
    expect(t.lab.world.powerState(node)).toBe("On");
    expect((await c.getSystem()).powerState).toBe("On");
    await c.power("ForceOff");
    t.advance(1_000);
    expect(t.lab.world.powerState(node)).toBe("Off");
    expect((await c.getSystem()).powerState).toBe("Off");
  });

  it("sets a one-time PXE boot with If-Match; the next power-on boots PXE and consumes the override", async () => {
    const c = bmc(i);
    const node = t.node(t.lab.info.nodes[i].name);
    const sys = await c.setBootOverride("Pxe", "Once");
    expect(sys.boot).toMatchObject({ target: "Pxe", enabled: "Once" });
    await c.power("On");
    t.advance(1_000);
    expect(node.lastBootSource).toBe("Pxe");
    expect((await c.getSystem()).boot.enabled).toBe("Disabled");
    await c.power("ForceOff");
    t.advance(1_000);
  });

  it("refuses a boot target the BMC does not allow before sending anything", async () => {
    const c = bmc(i);
    const before = t.lab.requests.last();
    const e = await rejection(c.setBootOverride("Floppy", "Once"));
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_BOOT_TARGET_UNSUPPORTED")).toBe(true);
    expect(t.requestsSince(before).some((r) => r.method === "PATCH")).toBe(false);
  });
});

describe("firmware", () => {
  it("runs SimpleUpdate: 202 + task monitor, polled to Completed; inventory and world show the new version", async () => {
    const c = bmc(3);
    const node = t.node(t.lab.info.nodes[3].name);
    const seen: (string | undefined)[] = [];
    const done = await c.simpleUpdate("http://images.lab/bios-9.8.7.bin", [], {
      pollIntervalMs: 500,
      sleep: async (ms) => t.advance(ms), // polling moves simulated time: no real waiting
      onProgress: (s) => seen.push(s.state),
    });
    expect(done.state).toBe("Completed");
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toContain("Running");
    expect(t.lab.world.firmwareVersion(node, "bios")).toBe("9.8.7");
    expect((await c.firmwareInventory()).map((f) => f.version)).toContain("9.8.7");
  });

  it("reports a failed update task as a typed error with the task's messages", async () => {
    const c = bmc(3);
    t.lab.world.faults.add({ kind: "update-failure", node: t.lab.info.nodes[3].name });
    const e = await rejection(
      c.simpleUpdate("http://images.lab/bmc-1.2.3.bin", [], {
        pollIntervalMs: 500,
        sleep: async (ms) => t.advance(ms),
      }),
    );
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_TASK_FAILED")).toBe(true);
    expect(e.message).toMatch(/Exception|Critical/);
  });
});

describe("rack PDUs", () => {
  it("lists the PDU, reads and switches an outlet; the node's BMC goes dark with it and comes back", async () => {
    const info = t.lab.info.nodes[4];
    const pduInfo = t.lab.info.pdus.find((p) => p.id === info.pdu);
    if (!pduInfo) throw new Error(`no PDU ${info.pdu} in the lab file`);
    const c = bmc(4, { url: pduInfo.url });
    expect((await c.discover()).rackPdus).toEqual([info.pdu]);
    expect((await c.getOutlet(info.pdu, String(info.outlet))).powerState).toBe("On");
    const off = await c.setOutletPower(info.pdu, String(info.outlet), "Off");
    expect(off.powerState).toBe("Off");
    expect(t.lab.world.outletOf(info.name).on).toBe(false);
    expect(t.lab.world.bmcState(t.node(info.name))).toBe("off");
    expect((await c.setOutletPower(info.pdu, String(info.outlet), "On")).powerState).toBe("On");
    t.advance(60_000);
    expect(t.lab.world.bmcState(t.node(info.name))).toBe("up");
  });
});

describe("sessions and faults", () => {
  it("logs in again once when the BMC expired the session (30 min idle), then succeeds", async () => {
    const c = bmc(0);
    const name = t.lab.info.nodes[0].name;
    await c.login();
    await c.getSystem();
    const before = t.lab.requests.last();
    // The lab's SessionService expires idle sessions by the wall clock (SessionTimeout 1800 s).
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 31 * 60_000 });
    expect((await c.getSystem()).id).toBe(t.node(name).systemId);
    const seen = t.requestsSince(before, name).map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(seen.filter((s) => s.endsWith(" 401"))).toHaveLength(1);
    expect(seen.filter((s) => s.startsWith("POST /redfish/v1/SessionService/Sessions"))).toEqual([
      "POST /redfish/v1/SessionService/Sessions 201",
    ]);
  });

  it.each([
    [503, 2],
    [429, 1],
  ])("retries an injected %i (%i times) within bounds, honouring Retry-After, then succeeds", async (status, count) => {
    const c = bmc(5, { auth: "basic" });
    const name = t.lab.info.nodes[5].name;
    await c.getSystem();
    sleeps.length = 0;
    const before = t.lab.requests.last();
    t.lab.world.faults.add({
      kind: "http-status",
      status,
      retryAfterS: 1,
      count,
      node: name,
      path: "/redfish/v1/Systems/",
    });
    expect((await c.getSystem()).id).toBe(t.node(name).systemId);
    const statuses = t.requestsSince(before, name).map((r) => r.status);
    expect(statuses.filter((s) => s === status)).toHaveLength(count);
    expect(sleeps).toEqual(Array(count).fill(1_000));
  });

  it("gives up on a persistent 503 after maxAttempts with a typed status error quoting the BMC", async () => {
    const c = bmc(5, { auth: "basic" });
    const name = t.lab.info.nodes[5].name;
    await c.getSystem();
    const before = t.lab.requests.last();
    t.lab.world.faults.add({ kind: "http-status", status: 503, node: name, path: "/redfish/v1/Systems/" });
    const e = await rejection(c.getSystem());
    expect(isClientError(e, "RACKFORM_ERR_HTTP_STATUS")).toBe(true);
    expect(e).toMatchObject({ status: 503, attempts: 4 });
    expect(t.requestsSince(before, name).filter((r) => r.status === 503)).toHaveLength(4);
  });

  it("fails with a typed connect error when the BMC is unreachable, without leaking the password", async () => {
    const c = bmc(5, { auth: "basic" });
    const name = t.lab.info.nodes[5].name;
    await c.getSystem();
    t.lab.world.faults.add({ kind: "bmc-unreachable", node: name });
    const e = await rejection(c.getSystem());
    expect(isClientError(e, "RACKFORM_ERR_HTTP_CONNECT")).toBe(true);
    expect(e).toMatchObject({ attempts: 4 });
    expect(`${e.message}${e.stack}${JSON.stringify(e)}`).not.toContain(t.lab.spec.credentials.password);
  });
});
