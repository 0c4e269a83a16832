/**
 * IronicClient against the lab Ironic: the flow of test/contract/ironic/ironic-client.test.ts (there against
 * Debian's Ironic 21.4, fake-hardware) with the same outcomes, then a redfish node whose BMC is a lab BMC (the lab
 * Ironic's redfish driver trusts the lab CA): manage, inspect, power — the lab world follows.
 * Real time with short conductor delays; nothing waits more than about a second.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { IronicClient } from "../../../src/clients/ironic/index.js";
import { createIronicApi, type IronicApi, redfishBmc } from "../../../src/lab/ironic/index.js";
import { type ClientLab, rejection, startClientLab } from "./support.js";

const tag = randomBytes(3).toString("hex");
const mac = `52:54:00:${tag.slice(0, 2)}:${tag.slice(2, 4)}:${tag.slice(4, 6)}`;
const POLL = { pollMs: 25, timeoutMs: 20_000 };
const locked: string[] = [];
let t: ClientLab;
let ironic: IronicApi;
let server: { url: string; close(): Promise<void> };
let client: IronicClient;
let nodeUuid = "";

beforeAll(async () => {
  t = await startClientLab(2, "instant");
  ironic = createIronicApi({
    bmc: redfishBmc({ caPem: readFileSync(t.lab.info.ca, "utf8") }),
    // A power change holds the node lock long enough for a PATCH to meet 409 NodeLocked and be retried.
    delays: { verifyMs: 20, inspectMs: 100, cleanMs: 150, deployMs: 150, deleteMs: 50, powerMs: 500, allocationMs: 0 },
  });
  server = await ironic.listen("127.0.0.1", 0);
  client = new IronicClient({
    url: server.url,
    lockRetry: { maxAttempts: 20, baseDelayMs: 100, maxDelayMs: 300 },
    onLocked: (i) => locked.push(i.message),
  });
});

afterAll(async () => {
  await client?.close();
  ironic?.stop();
  await server?.close();
  await t?.close();
});

describe("IronicClient against the lab Ironic (the contract flow, fake-hardware)", () => {
  it("negotiates the highest microversion both sides know from GET /", async () => {
    expect(await client.negotiate()).toEqual({ version: "1.82", min: "1.1", max: "1.82" });
  });

  it("fails with a typed error naming the supported range when a microversion is not supported", async () => {
    const pinned = new IronicClient({ url: server.url, microversion: "1.99" });
    const e1 = await rejection(pinned.listNodes());
    await pinned.close();
    expect(isClientError(e1, "RACKFORM_ERR_IRONIC_MICROVERSION")).toBe(true);
    expect(e1.message).toContain("[1.1, 1.82]");
    const e2 = await rejection(client.rawAtVersion("GET", "/v1/nodes", "99.99"));
    expect(isClientError(e2, "RACKFORM_ERR_IRONIC_MICROVERSION")).toBe(true);
    expect(e2.status).toBe(406);
    expect(e2.message).toMatch(/supported version range is: \[1\.1, 1\.82\]/);
  });

  it("enrolls a node with a port and validates it", async () => {
    const n = await client.createNode({
      name: `rf-lab-${tag}`,
      driver: "fake-hardware",
      resourceClass: `rf-gpu-${tag}`,
      properties: { cpu_arch: "x86_64", memory_mb: 2097152, local_gb: 3840, cpus: 128 },
      extra: { rack: "r1" },
    });
    nodeUuid = n.uuid;
    expect(n.provisionState).toBe("enroll");
    const port = await client.extras.createPort({ nodeUuid, address: mac, pxeEnabled: true });
    expect(port.address).toBe(mac);
    expect((await client.extras.listPorts({ node: nodeUuid })).map((p) => p.uuid)).toEqual([port.uuid]);
    const v = await client.validate(nodeUuid);
    expect(v.power.result).toBe(true);
    expect(v.management.result).toBe(true);
  });

  it("refuses an impossible transition with a typed bad-request error quoting Ironic", async () => {
    const e = await rejection(client.setProvisionState(nodeUuid, "active"));
    expect(isClientError(e, "RACKFORM_ERR_IRONIC_BAD_REQUEST")).toBe(true);
    expect(e.message).toContain("enroll");
  });

  it("manages the node, and a patch sent while the conductor holds the node lock is retried until it applies", async () => {
    await client.setProvisionState(nodeUuid, "manage");
    expect((await client.waitForProvisionState(nodeUuid, "manageable", POLL)).provisionState).toBe("manageable");
    // A power change reserves the node (the contract test uses a fake vendor passthru, which the lab does not serve).
    await client.setPowerState(nodeUuid, "power off");
    const patched = await client.updateNode(nodeUuid, [{ op: "add", path: "/extra/pdu_outlet", value: "A1" }]);
    expect(patched.extra).toMatchObject({ rack: "r1", pdu_outlet: "A1" });
    expect(locked.length).toBeGreaterThan(0);
    expect(locked[0]).toMatch(/HTTP 409: Node .* is locked by host/);
  });

  it("does not retry a 409 that is not a lock: a duplicate MAC is a typed conflict at once", async () => {
    const before = locked.length;
    const e = await rejection(client.extras.createPort({ nodeUuid, address: mac }));
    expect(isClientError(e, "RACKFORM_ERR_IRONIC_CONFLICT")).toBe(true);
    expect(e.message).toContain(mac);
    expect(locked.length).toBe(before);
  });

  it("powers the node on and off through states/power", async () => {
    await client.setPowerState(nodeUuid, "power on");
    expect((await client.waitForPowerState(nodeUuid, "power on", POLL)).powerState).toBe("power on");
    await client.setPowerState(nodeUuid, "power off");
    expect((await client.waitForPowerState(nodeUuid, "power off", POLL)).powerState).toBe("power off");
  });

  it("provides the node (automated cleaning) to available, and one list serves it by uuid and name", async () => {
    const seen: string[] = [];
    await client.setProvisionState(nodeUuid, "provide");
    await client.waitForProvisionState(nodeUuid, "available", {
      ...POLL,
      onProgress: (n) => seen.push(String(n.provisionState)),
    });
    expect(seen.some((s) => /clean/.test(s))).toBe(true);
    const idx = await client.indexNodes({ fields: ["provision_state", "power_state"] });
    expect(idx.byUuid.get(nodeUuid)?.provisionState).toBe("available");
    expect(idx.byName.get(`rf-lab-${tag}`)?.uuid).toBe(nodeUuid);
    expect(idx.byUuid.get(nodeUuid)?.driverInfo).toBeUndefined();
  });

  it("allocates the node by resource class and deploys it to active", async () => {
    const a = await client.extras.createAllocation({ name: `rf-alloc-${tag}`, resourceClass: `rf-gpu-${tag}` });
    const done = await client.extras.waitForAllocation(a.uuid, POLL);
    expect(done.nodeUuid).toBe(nodeUuid);
    await client.updateNode(nodeUuid, [
      { op: "add", path: "/instance_info/image_source", value: "http://127.0.0.1/fake.qcow2" },
      { op: "add", path: "/instance_info/root_gb", value: 10 },
    ]);
    await client.setProvisionState(nodeUuid, "active");
    const n = await client.waitForProvisionState(nodeUuid, "active", POLL);
    expect(n.lastError ?? null).toBeNull();
    expect((await client.getNode(nodeUuid)).allocationUuid).toBe(a.uuid);
  });

  it("undeploys (deleted → cleaning → available), which also releases the allocation", async () => {
    const seen: string[] = [];
    await client.setProvisionState(nodeUuid, "deleted");
    await client.waitForProvisionState(nodeUuid, "available", {
      ...POLL,
      onProgress: (n) => seen.push(String(n.provisionState)),
    });
    expect(seen[0]).toMatch(/deleting|clean/);
    const e = await rejection(client.extras.getAllocation(`rf-alloc-${tag}`));
    expect(isClientError(e, "RACKFORM_ERR_IRONIC_NOT_FOUND")).toBe(true);
  });

  it("deletes the port and the node; a second delete is a no-op and the node is gone", async () => {
    const [port] = await client.extras.listPorts({ node: nodeUuid });
    await client.extras.deletePort(port.uuid);
    await client.setMaintenance(nodeUuid, true, "decommission");
    expect((await client.getNode(nodeUuid)).maintenanceReason).toBe("decommission");
    await client.deleteNode(nodeUuid);
    await client.deleteNode(nodeUuid);
    const e = await rejection(client.getNode(nodeUuid));
    expect(isClientError(e, "RACKFORM_ERR_IRONIC_NOT_FOUND")).toBe(true);
  });
});

describe("IronicClient → lab Ironic → lab BMC (redfish driver)", () => {
  it("enrolls by BMC, manages, inspects (ports from the lab's MACs), and powers on/off with the world following", async () => {
    const info = t.lab.info.nodes[0];
    const node = t.node(info.name);
    const n = await client.createNode({
      name: `rf-bmc-${tag}`,
      driver: "redfish",
      driverInfo: {
        redfish_address: info.bmc.url,
        redfish_username: info.bmc.username,
        redfish_password: info.bmc.password,
      },
    });
    expect((await client.validate(n.uuid)).power.result).toBe(true);
    await client.setProvisionState(n.uuid, "manage");
    await client.waitForProvisionState(n.uuid, "manageable", POLL);
    await client.setProvisionState(n.uuid, "inspect");
    await client.waitForProvisionState(n.uuid, "manageable", POLL);
    const inspected = await client.getNode(n.uuid);
    const hw = node.spec.hardware;
    expect(Number(inspected.properties?.cpus)).toBe(hw.cpu.sockets * hw.cpu.coresPerSocket * 2);
    expect(Number(inspected.properties?.memory_mb)).toBe(hw.memory.dimms * hw.memory.dimmGiB * 1024);
    const ports = await client.extras.listPorts({ node: n.uuid });
    expect(ports.map((p) => p.address.toLowerCase()).sort()).toEqual(node.ports.map((p) => p.mac.toLowerCase()).sort());
    await client.setPowerState(n.uuid, "power on");
    await client.waitForPowerState(n.uuid, "power on", POLL);
    expect(t.lab.world.powerState(node)).toBe("On");
    await client.setPowerState(n.uuid, "power off");
    await client.waitForPowerState(n.uuid, "power off", POLL);
    expect(t.lab.world.powerState(node)).toBe("Off");
  });
});
