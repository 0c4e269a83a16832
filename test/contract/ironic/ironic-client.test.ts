/**
 * Contract: IronicClient against Debian's real Ironic 21.4 (fake-hardware, noauth), the run's one real Ironic started
 * by the global setup (test/setup/ironic.ts).
 * Fails, never skips, when Ironic cannot be started.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { IronicClient } from "../../../src/clients/ironic/index.js";
import { IronicBackend } from "../../../src/provider/backends/index.js";
import { sharedRealIronic } from "../../support/shared-counterparts.js";

let URL = "";
let release = () => {};
const tag = randomBytes(3).toString("hex");
const mac = `52:54:00:${tag.slice(0, 2)}:${tag.slice(2, 4)}:${tag.slice(4, 6)}`;
const locked: string[] = [];
let client: IronicClient;
let nodeUuid = "";

beforeAll(async () => {
  ({ url: URL, release } = await sharedRealIronic());
  client = new IronicClient({
    url: URL,
    auth: { type: "noauth" },
    lockRetry: { maxAttempts: 20, baseDelayMs: 200, maxDelayMs: 1_000 },
    onLocked: (i) => locked.push(i.message),
  });
}, 240_000);

afterAll(async () => {
  await client?.close();
  release();
});

describe("IronicClient against Debian Ironic 21.4 (fake-hardware)", () => {
  it("negotiates the highest microversion both sides know from GET /", async () => {
    const v = await client.negotiate();
    expect(v).toEqual({ version: "1.82", min: "1.1", max: "1.82" });
  });

  it("fails with a typed error naming the supported range when a microversion is not supported", async () => {
    const pinned = new IronicClient({ url: URL, microversion: "1.99" });
    const e1 = await pinned.listNodes().catch((e: unknown) => e);
    expect(isClientError(e1, "RACKFORM_ERR_IRONIC_MICROVERSION")).toBe(true);
    expect((e1 as Error).message).toContain("[1.1, 1.82]");
    await pinned.close();
    // The server's own 406 for a version it does not know.
    const e2 = await client.rawAtVersion("GET", "/v1/nodes", "99.99").catch((e: unknown) => e);
    expect(isClientError(e2, "RACKFORM_ERR_IRONIC_MICROVERSION")).toBe(true);
    expect((e2 as { status?: number }).status).toBe(406);
    expect((e2 as Error).message).toMatch(/supported version range is: \[1\.1, 1\.82\]/);
  });

  it("enrolls a node with a port and validates it", async () => {
    const n = await client.createNode({
      name: `rf-contract-${tag}`,
      driver: "fake-hardware",
      resourceClass: `rf-gpu-${tag}`,
      properties: { cpu_arch: "x86_64", memory_mb: 2097152, local_gb: 3840, cpus: 128 },
      extra: { rack: "r1" },
    });
    nodeUuid = n.uuid;
    expect(n.provisionState).toBe("enroll");
    expect(n.resourceClass).toBe(`rf-gpu-${tag}`);
    const port = await client.extras.createPort({ nodeUuid, address: mac, pxeEnabled: true });
    expect(port.address).toBe(mac);
    expect((await client.extras.listPorts({ node: nodeUuid })).map((p) => p.uuid)).toEqual([port.uuid]);
    const v = await client.validate(nodeUuid);
    expect(v.power.result).toBe(true);
    expect(v.management.result).toBe(true);
  });

  // Issue #14: rackform_machine enrolls a redfish node with the provider's IPA kernel/ramdisk in driver_info, so provide's
  // cleaning can boot the ramdisk. Real Ironic takes the keys at create, and its redfish-virtual-media boot (this
  // ironic.conf has no [conductor]deploy_kernel) reports exactly them missing on a node enrolled without.
  it("takes the IPA kernel/ramdisk in driver_info at enroll (rackform's backend), and names them missing without", async () => {
    const images = { kernel: "http://images.example/ipa.kernel", ramdisk: "http://images.example/ipa.initramfs" };
    const spec = (name: string) => ({
      name,
      macs: [],
      bmcAddress: "https://192.0.2.10",
      bmcUsername: "admin",
      bmcPassword: "not-a-real-password",
      bmcInsecure: true,
      architecture: "amd64/generic",
    });
    const withImages = await new IronicBackend(client, { deployImages: images }).enroll(spec(`rf-ipa-${tag}`));
    const without = await new IronicBackend(client).enroll(spec(`rf-noipa-${tag}`));
    try {
      expect((await client.getNode(withImages)).driverInfo).toMatchObject({
        deploy_kernel: images.kernel,
        deploy_ramdisk: images.ramdisk,
      });
      expect((await client.validate(withImages)).boot.reason ?? "").not.toContain("deploy_kernel");
      expect((await client.validate(without)).boot).toMatchObject({
        result: false,
        reason:
          "Error validating Redfish virtual media. Some parameters were missing in node's driver_info. Missing are: ['deploy_kernel', 'deploy_ramdisk']",
      });
    } finally {
      await client.deleteNode(withImages);
      await client.deleteNode(without);
    }
  });

  it("refuses an impossible transition with a typed bad-request error quoting Ironic", async () => {
    const e = await client.setProvisionState(nodeUuid, "active").catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_IRONIC_BAD_REQUEST")).toBe(true);
    expect((e as Error).message).toContain("enroll");
  });

  it("manages the node, and a patch sent while the conductor holds the node lock is retried until it applies", async () => {
    await client.setProvisionState(nodeUuid, "manage");
    const m = await client.waitForProvisionState(nodeUuid, "manageable", { pollMs: 100, timeoutMs: 60_000 });
    expect(m.provisionState).toBe("manageable");
    // The fake vendor passthru second_method holds the node's exclusive lock for 2 s (lab conf: [fake] vendor_delay = 2),
    // and the lab's conductor tries a lock once, so Ironic answers 409 NodeLocked meanwhile.
    const held = await fetch(`${URL}/v1/nodes/${nodeUuid}/vendor_passthru?method=second_method`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-openstack-ironic-api-version": "1.82" },
      body: JSON.stringify({ bar: "lock" }),
    });
    expect(held.status).toBe(202);
    const patched = await client.updateNode(nodeUuid, [{ op: "add", path: "/extra/pdu_outlet", value: "A1" }]);
    expect(patched.extra).toMatchObject({ rack: "r1", pdu_outlet: "A1" });
    expect(locked.length).toBeGreaterThan(0);
    expect(locked[0]).toMatch(/HTTP 409: Node .* is locked by host/);
  });

  it("does not retry a 409 that is not a lock: a duplicate MAC is a typed conflict at once", async () => {
    const before = locked.length;
    const e = await client.extras.createPort({ nodeUuid, address: mac }).catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_IRONIC_CONFLICT")).toBe(true);
    expect((e as Error).message).toContain(mac);
    expect(locked.length).toBe(before);
  });

  it("powers the node on and off through states/power", async () => {
    await client.setPowerState(nodeUuid, "power on");
    expect((await client.waitForPowerState(nodeUuid, "power on", { pollMs: 100, timeoutMs: 30_000 })).powerState).toBe(
      "power on",
    );
    await client.setPowerState(nodeUuid, "power off");
    expect((await client.waitForPowerState(nodeUuid, "power off", { pollMs: 100, timeoutMs: 30_000 })).powerState).toBe(
      "power off",
    );
  });

  it("provides the node (automated cleaning) to available, and one list serves it by uuid and name", async () => {
    const seen: string[] = [];
    await client.setProvisionState(nodeUuid, "provide");
    await client.waitForProvisionState(nodeUuid, "available", {
      pollMs: 100,
      timeoutMs: 60_000,
      onProgress: (n) => seen.push(String(n.provisionState)),
    });
    expect(seen.some((s) => /clean/.test(s))).toBe(true);
    const idx = await client.indexNodes({ fields: ["provision_state", "power_state"] });
    expect(idx.byUuid.get(nodeUuid)?.provisionState).toBe("available");
    expect(idx.byName.get(`rf-contract-${tag}`)?.uuid).toBe(nodeUuid);
    // The selection was honoured: unselected fields are absent.
    expect(idx.byUuid.get(nodeUuid)?.driverInfo).toBeUndefined();
  });

  it("allocates the node by resource class and deploys it to active", async () => {
    const a = await client.extras.createAllocation({ name: `rf-alloc-${tag}`, resourceClass: `rf-gpu-${tag}` });
    const done = await client.extras.waitForAllocation(a.uuid, { pollMs: 100, timeoutMs: 30_000 });
    expect(done.nodeUuid).toBe(nodeUuid);
    await client.updateNode(nodeUuid, [
      { op: "add", path: "/instance_info/image_source", value: "http://127.0.0.1/fake.qcow2" },
      { op: "add", path: "/instance_info/root_gb", value: 10 },
    ]);
    await client.setProvisionState(nodeUuid, "active");
    const n = await client.waitForProvisionState(nodeUuid, "active", { pollMs: 100, timeoutMs: 60_000 });
    expect(n.lastError ?? null).toBeNull();
    expect((await client.getNode(nodeUuid)).allocationUuid).toBe(a.uuid);
  });

  it("undeploys (deleted → cleaning → available), which also releases the allocation", async () => {
    const seen: string[] = [];
    await client.setProvisionState(nodeUuid, "deleted");
    await client.waitForProvisionState(nodeUuid, "available", {
      pollMs: 100,
      timeoutMs: 60_000,
      onProgress: (n) => seen.push(String(n.provisionState)),
    });
    expect(seen[0]).toMatch(/deleting|clean/);
    const e = await client.extras.getAllocation(`rf-alloc-${tag}`).catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_IRONIC_NOT_FOUND")).toBe(true);
  });

  it("deletes the port and the node; a second delete is a no-op and the node is gone", async () => {
    const [port] = await client.extras.listPorts({ node: nodeUuid });
    await client.extras.deletePort(port.uuid);
    await client.setMaintenance(nodeUuid, true, "decommission");
    expect((await client.getNode(nodeUuid)).maintenanceReason).toBe("decommission");
    await client.deleteNode(nodeUuid);
    await client.deleteNode(nodeUuid);
    const e = await client.getNode(nodeUuid).catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_IRONIC_NOT_FOUND")).toBe(true);
  });
});
