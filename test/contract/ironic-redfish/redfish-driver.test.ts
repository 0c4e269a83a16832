/**
 * Contract: Debian's real Ironic 21.4 with the redfish hardware type (sushy underneath), the run's one real Ironic (test/setup/ironic.ts), drives the lab's BMCs —
 * one node of every vendor style the lab offers. Enroll by BMC url + the system path discovered from the BMC,
 * validate (power, management), manage, redfish inspection (ports from the lab's MACs, cpus/memory_mb), power on/off
 * with the lab world following.
 * Fails, never skips, when Ironic cannot start.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IronicClient } from "../../../src/clients/ironic/index.js";
import { RedfishClient } from "../../../src/clients/redfish/index.js";
import { type Lab, type LabNode, startLab } from "../../../src/lab/index.js";
import { createIronicApi, redfishBmc } from "../../../src/lab/ironic/index.js";
import { ironicLogTail, type RealIronicInfo } from "../../support/real-ironic.js";
import { sharedRealIronic } from "../../support/shared-counterparts.js";

let lab: Lab;
let stateDir: string;
let ironic: (RealIronicInfo & { release(): void }) | undefined;
let client: IronicClient;
/** Lab node name → { system path found on its BMC, Ironic uuid }. */
const enrolled = new Map<string, { systemPath: string; uuid: string; vendor: string }>();
/** What real Ironic's inspection recorded, per lab node: properties and port MACs. */
const realInspection = new Map<string, { properties: Record<string, unknown>; macs: string[] }>();

/** Request log position after our own discovery requests, so later entries are Ironic's. */
let afterEnroll = 0;

const POLL = { pollMs: 250, timeoutMs: 90_000 };

/** Conductor log tail with the lab password masked (debug logs may echo driver_info). */
function logs(): string {
  const pw = lab?.spec.credentials.password;
  const t = ironic ? ironicLogTail(ironic.dir, 40) : "(no Ironic)";
  return pw ? t.split(pw).join("***") : t;
}

function labNode(name: string): LabNode {
  const n = lab.world.node(name);
  if (!n) throw new Error(`lab has no node ${name}`);
  return n;
}

beforeAll(async () => {
  stateDir = mkdtempSync(join(tmpdir(), "rf-ironic-redfish-lab-"));
  lab = await startLab({ stateDir, nodes: 6, profile: "instant" });
  // Real Ironic talks to a BMC only when it answers: the outlets feed the BMCs.
  for (const n of lab.world.nodes.values()) lab.world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
  ironic = await sharedRealIronic();
  client = new IronicClient({ url: ironic.url, lockRetry: { maxAttempts: 30, baseDelayMs: 200, maxDelayMs: 1_000 } });
}, 240_000);

afterAll(async () => {
  await client?.close();
  ironic?.release();
  await lab?.close();
  rmSync(stateDir, { recursive: true, force: true });
});

/** The redfish driver_info of a lab node: its BMC, trusted through the lab CA, and the system path on it. */
const driverInfoOf = (info: (typeof lab.info.nodes)[number], systemId: string | undefined) => ({
  redfish_address: info.bmc.url,
  redfish_username: info.bmc.username,
  redfish_password: info.bmc.password,
  redfish_verify_ca: lab.info.ca,
  redfish_system_id: systemId,
});

describe("Debian's Ironic 21.4 redfish driver against the lab BMCs", () => {
  it("enrolls one node per vendor style by BMC url, CA file and the system path discovered on the BMC", async () => {
    for (const info of lab.info.nodes) {
      const rf = new RedfishClient({ baseUrl: info.bmc.url, ...info.bmc, auth: "basic", ca: lab.info.ca });
      const [systemId] = await rf.listSystems();
      const sys = await rf.getSystem(systemId);
      await rf.close();
      const n = await client.createNode({
        name: `rf-${info.name}`,
        driver: "redfish",
        driverInfo: driverInfoOf(info, sys.odataId),
        more: { inspect_interface: "redfish", management_interface: "redfish", power_interface: "redfish" },
      });
      expect(n.provisionState).toBe("enroll");
      expect(n.driverInfo?.redfish_password).toBe("******");
      enrolled.set(info.name, { systemPath: sys.odataId, uuid: n.uuid, vendor: labNode(info.name).spec.vendor });
    }
    expect(new Set([...enrolled.values()].map((e) => e.vendor)).size).toBe(6);
    afterEnroll = lab.requests.last();
  });

  it("validates every node: the power, management and inspect interfaces pass", async () => {
    for (const [name, e] of enrolled) {
      const v = await client.validate(e.uuid);
      expect(v.power, `${name} (${e.vendor}) power: ${v.power?.reason}\n${logs()}`).toMatchObject({ result: true });
      expect(v.management, `${name} (${e.vendor}) management: ${v.management?.reason}\n${logs()}`).toMatchObject({
        result: true,
      });
      expect(v.inspect, `${name} (${e.vendor}) inspect: ${v.inspect?.reason}`).toMatchObject({ result: true });
    }
  });

  it("manages every node (verifying talks to the BMC) to manageable with the BMC's power state", async () => {
    await Promise.all([...enrolled.values()].map((e) => client.setProvisionState(e.uuid, "manage")));
    for (const [name, e] of enrolled) {
      const n = await client.waitForProvisionState(e.uuid, "manageable", POLL).catch((err: Error) => {
        throw new Error(`${name} (${e.vendor}): ${err.message}\n${logs()}`);
      });
      expect(n.lastError ?? null, `${name} (${e.vendor})`).toBeNull();
      expect(n.powerState, `${name} (${e.vendor})`).toBe("power off");
    }
  }, 120_000);

  it("inspects every node through redfish: ports from the lab's MACs, cpus and memory_mb from the BMC", async () => {
    await Promise.all([...enrolled.values()].map((e) => client.setProvisionState(e.uuid, "inspect")));
    for (const [name, e] of enrolled) {
      await client.waitForProvisionState(e.uuid, "manageable", POLL).catch((err: Error) => {
        throw new Error(`${name} (${e.vendor}): ${err.message}\n${logs()}`);
      });
      const n = await client.getNode(e.uuid);
      const why = `${name} (${e.vendor}): last_error ${n.lastError}\n${logs()}`;
      expect(n.lastError ?? null, why).toBeNull();
      const hw = labNode(name).spec.hardware;
      expect(Number(n.properties?.cpus), why).toBe(hw.cpu.sockets * hw.cpu.coresPerSocket * 2);
      expect(Number(n.properties?.memory_mb), why).toBe(hw.memory.dimms * hw.memory.dimmGiB * 1024);
      expect(n.properties?.cpu_arch, why).toBe("x86_64");
      const ports = await client.extras.listPorts({ node: e.uuid });
      const labMacs = labNode(name).ports.map((p) => p.mac.toLowerCase());
      expect(ports.map((p) => p.address.toLowerCase()).sort(), why).toEqual([...labMacs].sort());
      realInspection.set(name, {
        properties: { ...n.properties },
        macs: ports.map((p) => p.address.toLowerCase()).sort(),
      });
    }
  }, 120_000);

  it("powers every node on and off; the lab world's host power follows", async () => {
    for (const [target, labState] of [
      ["power on", "On"],
      ["power off", "Off"],
    ] as const) {
      await Promise.all([...enrolled.values()].map((e) => client.setPowerState(e.uuid, target)));
      for (const [name, e] of enrolled) {
        const n = await client.waitForPowerState(e.uuid, target, POLL).catch((err: Error) => {
          throw new Error(`${name} (${e.vendor}): ${err.message}\n${logs()}`);
        });
        expect(n.lastError ?? null, `${name} (${e.vendor}) ${target}`).toBeNull();
        expect(lab.world.powerState(labNode(name)), `${name} (${e.vendor}) ${target}`).toBe(labState);
      }
    }
  }, 120_000);

  it("sets a one-time PXE boot through Ironic's management API; the BMC's override follows and power-on consumes it", async () => {
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${ironic?.url}${path}`, {
        ...init,
        headers: { "content-type": "application/json", "x-openstack-ironic-api-version": "1.82" },
      });
    for (const [name, e] of enrolled) {
      const why = `${name} (${e.vendor})`;
      const put = await api(`/v1/nodes/${e.uuid}/management/boot_device`, {
        method: "PUT",
        body: JSON.stringify({ boot_device: "pxe", persistent: false }),
      });
      expect(put.status, `${why}: ${await put.clone().text()}\n${logs()}`).toBe(204);
      expect(labNode(name).boot, why).toMatchObject({ target: "Pxe", enabled: "Once" });
      const got = await (await api(`/v1/nodes/${e.uuid}/management/boot_device`)).json();
      expect(got, why).toEqual({ boot_device: "pxe", persistent: false });
      await client.setPowerState(e.uuid, "power on");
      await client.waitForPowerState(e.uuid, "power on", POLL);
      expect(labNode(name).lastBootSource, why).toBe("Pxe");
      expect(labNode(name).boot.enabled, why).toBe("Disabled");
      await client.setPowerState(e.uuid, "power off");
      await client.waitForPowerState(e.uuid, "power off", POLL);
    }
  }, 120_000);

  it("Ironic's own requests (after our discovery) reached every BMC, as the lab's request log shows", () => {
    const seen = lab.requests.since(afterEnroll);
    const hosts = new Set(seen.map((r) => r.address));
    // Every request sushy sent was understood: no 4xx/5xx (a 412 would mean a stale If-Match, a 400 a payload the
    // lab does not accept) and no dropped connection.
    const refused = seen
      .filter((r) => r.status === 0 || r.status >= 400)
      .map((r) => `${r.method} ${r.path} ${r.status}`);
    expect(refused).toEqual([]);
    for (const info of lab.info.nodes) expect(hosts).toContain(new URL(info.bmc.url).hostname);
    // The CA file is what Ironic was told to trust; it is the lab's own.
    expect(readFileSync(lab.info.ca, "utf8")).toContain("BEGIN CERTIFICATE");
  });

  it("the lab's own Ironic inspects the same BMCs to the same properties and ports as real Ironic", async () => {
    const labIronic = createIronicApi({
      bmc: redfishBmc({ caPem: readFileSync(lab.info.ca, "utf8") }),
      delays: { verifyMs: 0, inspectMs: 0, powerMs: 0 },
    });
    const server = await labIronic.listen("127.0.0.1", 0);
    const labClient = new IronicClient({ url: server.url });
    try {
      for (const info of lab.info.nodes) {
        const real = realInspection.get(info.name);
        if (!real) throw new Error(`real Ironic did not inspect ${info.name}`);
        const n = await labClient.createNode({
          name: `rf-${info.name}`,
          driver: "redfish",
          driverInfo: driverInfoOf(info, enrolled.get(info.name)?.systemPath),
        });
        await labClient.setProvisionState(n.uuid, "manage");
        await labClient.waitForProvisionState(n.uuid, "manageable", POLL);
        await labClient.setProvisionState(n.uuid, "inspect");
        await labClient.waitForProvisionState(n.uuid, "manageable", POLL);
        const got = await labClient.getNode(n.uuid);
        const macs = (await labClient.extras.listPorts({ node: n.uuid })).map((p) => p.address.toLowerCase()).sort();
        const vendor = labNode(info.name).spec.vendor;
        expect({ properties: got.properties, macs }, `${info.name} (${vendor}): lab Ironic vs real Ironic`).toEqual(
          real,
        );
      }
    } finally {
      await labClient.close();
      labIronic.stop();
      await server.close();
    }
  });
});
