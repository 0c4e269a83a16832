/**
 * IronicClient against the lab Ironic: the flow of test/contract/ironic/ironic-client.test.ts (there against
 * Debian's Ironic 21.4, fake-hardware) with the same outcomes, then a redfish node whose BMC is a lab BMC (the lab
 * Ironic's redfish driver trusts the lab CA): manage, inspect, power — the lab world follows.
 * Real time with short conductor delays; nothing waits more than about a second.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IronicClient } from "../../../src/clients/ironic/index.js";
import { createIronicApi, type IronicApi, redfishBmc } from "../../../src/lab/ironic/index.js";
import { ironicClientFlow } from "../../support/ironic-client-flow.js";
import { type ClientLab, startClientLab } from "./support.js";

const tag = randomBytes(3).toString("hex");
const mac = `52:54:00:${tag.slice(0, 2)}:${tag.slice(2, 4)}:${tag.slice(4, 6)}`;
const POLL = { pollMs: 25, timeoutMs: 20_000 };
const locked: string[] = [];
let t: ClientLab;
let ironic: IronicApi;
let server: { url: string; close(): Promise<void> };
let client: IronicClient;

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

ironicClientFlow({
  title: "IronicClient against the lab Ironic (the contract flow, fake-hardware)",
  client: () => client,
  url: () => server.url,
  prefix: "rf-lab",
  tag,
  mac,
  locked,
  // A power change reserves the node (the contract test uses a fake vendor passthru, which the lab does not serve).
  async holdLock(uuid) {
    await client.setPowerState(uuid, "power off");
  },
  poll: { state: POLL, quick: POLL },
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
