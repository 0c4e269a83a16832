/**
 * The IronicClient flow run against Debian's real Ironic 21.4 (test/contract/ironic/ironic-client.test.ts) and against
 * the lab's Ironic (test/integration/clients-vs-lab/ironic.test.ts) with the same outcomes: microversion negotiation,
 * enroll with a port, lock retries, power, provide (cleaning), allocate and deploy, undeploy, delete. Each file gives
 * its client, how the conductor is made to hold a node's lock, and how long to wait.
 */
import { describe, expect, it } from "vitest";
import { isClientError } from "../../src/clients/errors.js";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { rejection } from "./rejection.js";

/** What a file hands the flow (read once its beforeAll ran). */
export interface IronicFlowGround {
  /** The describe's title. */
  readonly title: string;
  /** The client under test, and the Ironic URL it talks to. */
  client(): IronicClient;
  url(): string;
  /** The flow's node is named `${prefix}-${tag}`; its resource class, allocation and port derive from tag and mac. */
  readonly prefix: string;
  readonly tag: string;
  readonly mac: string;
  /** What the client's onLocked hook saw. */
  readonly locked: readonly string[];
  /** Makes the conductor hold the node's exclusive lock for a while. */
  holdLock(uuid: string): Promise<void>;
  /** Waits for provision states, and for power and allocations. */
  readonly poll: { readonly state: PollOptions; readonly quick: PollOptions };
  /** Registers the file's own cases right after enroll (they run between enroll and the lock case). */
  afterEnroll?(): void;
}

interface PollOptions {
  readonly pollMs: number;
  readonly timeoutMs: number;
}

/** Registers the flow's describe and its cases, in order. */
export function ironicClientFlow(g: IronicFlowGround): void {
  let nodeUuid = "";
  const name = () => `${g.prefix}-${g.tag}`;
  /** Sets the provision `target` and waits for available; the states passed on the way. */
  const toAvailable = async (target: "provide" | "deleted"): Promise<string[]> => {
    const seen: string[] = [];
    await g.client().setProvisionState(nodeUuid, target);
    await g.client().waitForProvisionState(nodeUuid, "available", {
      ...g.poll.state,
      // fake-hardware cleans with no steps: the conductor holds the node in `cleaning` for a moment only, which a
      // poll at the usual pace missed once on a loaded machine.
      pollMs: 20,
      onProgress: (n) => seen.push(String(n.provisionState)),
    });
    return seen;
  };
  describe(g.title, () => {
    it("negotiates the highest microversion both sides know from GET /", async () => {
      expect(await g.client().negotiate()).toEqual({ version: "1.82", min: "1.1", max: "1.82" });
    });

    it("fails with a typed error naming the supported range when a microversion is not supported", async () => {
      const pinned = new IronicClient({ url: g.url(), microversion: "1.99" });
      const e1 = await rejection(pinned.listNodes());
      expect(isClientError(e1, "RACKFORM_ERR_IRONIC_MICROVERSION")).toBe(true);
      expect(e1.message).toContain("[1.1, 1.82]");
      await pinned.close();
      // The server's own 406 for a version it does not know.
      const e2 = await rejection(g.client().rawAtVersion("GET", "/v1/nodes", "99.99"));
      expect(isClientError(e2, "RACKFORM_ERR_IRONIC_MICROVERSION")).toBe(true);
      expect(e2.status).toBe(406);
      expect(e2.message).toMatch(/supported version range is: \[1\.1, 1\.82\]/);
    });

    it("enrolls a node with a port and validates it", async () => {
      const client = g.client();
      const n = await client.createNode({
        name: name(),
        driver: "fake-hardware",
        resourceClass: `rf-gpu-${g.tag}`,
        properties: { cpu_arch: "x86_64", memory_mb: 2097152, local_gb: 3840, cpus: 128 },
        extra: { rack: "r1" },
      });
      nodeUuid = n.uuid;
      expect(n.provisionState).toBe("enroll");
      expect(n.resourceClass).toBe(`rf-gpu-${g.tag}`);
      const port = await client.extras.createPort({ nodeUuid, address: g.mac, pxeEnabled: true });
      expect(port.address).toBe(g.mac);
      expect((await client.extras.listPorts({ node: nodeUuid })).map((p) => p.uuid)).toEqual([port.uuid]);
      const v = await client.validate(nodeUuid);
      expect(v.power.result).toBe(true);
      expect(v.management.result).toBe(true);
    });

    g.afterEnroll?.();

    it("refuses an impossible transition with a typed bad-request error quoting Ironic", async () => {
      const e = await rejection(g.client().setProvisionState(nodeUuid, "active"));
      expect(isClientError(e, "RACKFORM_ERR_IRONIC_BAD_REQUEST")).toBe(true);
      expect(e.message).toContain("enroll");
    });

    it("manages the node, and a patch sent while the conductor holds the node lock is retried until it applies", async () => {
      const client = g.client();
      await client.setProvisionState(nodeUuid, "manage");
      const m = await client.waitForProvisionState(nodeUuid, "manageable", g.poll.state);
      expect(m.provisionState).toBe("manageable");
      await g.holdLock(nodeUuid);
      const patched = await client.updateNode(nodeUuid, [{ op: "add", path: "/extra/pdu_outlet", value: "A1" }]);
      expect(patched.extra).toMatchObject({ rack: "r1", pdu_outlet: "A1" });
      expect(g.locked.length).toBeGreaterThan(0);
      expect(g.locked[0]).toMatch(/HTTP 409: Node .* is locked by host/);
    });

    it("does not retry a 409 that is not a lock: a duplicate MAC is a typed conflict at once", async () => {
      const before = g.locked.length;
      const e = await rejection(g.client().extras.createPort({ nodeUuid, address: g.mac }));
      expect(isClientError(e, "RACKFORM_ERR_IRONIC_CONFLICT")).toBe(true);
      expect(e.message).toContain(g.mac);
      expect(g.locked.length).toBe(before);
    });

    it("powers the node on and off through states/power", async () => {
      const client = g.client();
      await client.setPowerState(nodeUuid, "power on");
      expect((await client.waitForPowerState(nodeUuid, "power on", g.poll.quick)).powerState).toBe("power on");
      await client.setPowerState(nodeUuid, "power off");
      expect((await client.waitForPowerState(nodeUuid, "power off", g.poll.quick)).powerState).toBe("power off");
    });

    it("provides the node (automated cleaning) to available, and one list serves it by uuid and name", async () => {
      const client = g.client();
      const seen = await toAvailable("provide");
      expect(seen.some((s) => /clean/.test(s))).toBe(true);
      const idx = await client.indexNodes({ fields: ["provision_state", "power_state"] });
      expect(idx.byUuid.get(nodeUuid)?.provisionState).toBe("available");
      expect(idx.byName.get(name())?.uuid).toBe(nodeUuid);
      // The selection was honoured: unselected fields are absent.
      expect(idx.byUuid.get(nodeUuid)?.driverInfo).toBeUndefined();
    });

    it("allocates the node by resource class and deploys it to active", async () => {
      const client = g.client();
      const a = await client.extras.createAllocation({ name: `rf-alloc-${g.tag}`, resourceClass: `rf-gpu-${g.tag}` });
      const done = await client.extras.waitForAllocation(a.uuid, g.poll.quick);
      expect(done.nodeUuid).toBe(nodeUuid);
      await client.updateNode(nodeUuid, [
        { op: "add", path: "/instance_info/image_source", value: "http://127.0.0.1/fake.qcow2" },
        { op: "add", path: "/instance_info/root_gb", value: 10 },
      ]);
      await client.setProvisionState(nodeUuid, "active");
      const n = await client.waitForProvisionState(nodeUuid, "active", g.poll.state);
      expect(n.lastError ?? null).toBeNull();
      expect((await client.getNode(nodeUuid)).allocationUuid).toBe(a.uuid);
    });

    it("undeploys (deleted → cleaning → available), which also releases the allocation", async () => {
      const client = g.client();
      const seen = await toAvailable("deleted");
      expect(seen[0]).toMatch(/deleting|clean/);
      const e = await rejection(client.extras.getAllocation(`rf-alloc-${g.tag}`));
      expect(isClientError(e, "RACKFORM_ERR_IRONIC_NOT_FOUND")).toBe(true);
    });

    it("deletes the port and the node; a second delete is a no-op and the node is gone", async () => {
      const client = g.client();
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
}
