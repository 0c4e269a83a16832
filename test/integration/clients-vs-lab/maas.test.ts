/**
 * MaasClient against the lab's MAAS region, whose redfish power driver drives the lab's BMCs (trusting the lab CA):
 * enlist with the lab's MACs and BMC, commission → Ready, allocate + deploy → Deployed (PXE boot through the BMC),
 * release → Ready, with status polling; and many machines' reads served by one batched list.
 * The lab runs on real time with short delays (the world `instant`): nothing here waits more than a few hundred ms.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { MaasClient } from "../../../src/clients/maas/index.js";
import { createMaasApi, type MaasApi, redfishPowerDriver } from "../../../src/lab/maas/index.js";
import { type ClientLab, rejection, startClientLab } from "./support.js";

const API_KEY = "labconsumer:labtoken:labsecret";
let t: ClientLab;
let maas: MaasApi;
let server: { url: string; close(): Promise<void> };
let client: MaasClient;
const systemIds = new Map<string, string>();
const POLL = { pollMs: 25, timeoutMs: 20_000 };

beforeAll(async () => {
  t = await startClientLab(6, "instant");
  maas = createMaasApi({
    apiKeys: [API_KEY],
    delays: { commissionMs: 150, deployMs: 250, releaseMs: 100, eraseMs: 100, testMs: 100 },
    power: redfishPowerDriver({ caPem: readFileSync(t.lab.info.ca, "utf8") }),
  });
  server = await maas.listen("127.0.0.1", 0);
  client = new MaasClient({ url: server.url, apiKey: API_KEY });
});

afterAll(async () => {
  await client?.close();
  maas?.stop();
  await server?.close();
  await t?.close();
});

describe("MaasClient against the lab MAAS (redfish power → lab BMCs)", () => {
  it("enlists every lab node with its MACs and BMC; MAAS commissions each to Ready through the BMC", async () => {
    for (const info of t.lab.info.nodes) {
      const node = t.node(info.name);
      const m = await client.createMachine({
        hostname: info.name,
        architecture: "amd64/generic",
        macAddresses: node.ports.map((p) => p.mac),
        power: { powerAddress: info.bmc.url, powerUser: info.bmc.username, powerPass: info.bmc.password },
      });
      expect(m.statusName).toBe("Commissioning");
      systemIds.set(info.name, m.systemId);
    }
    const seen: string[] = [];
    const ready = await Promise.all(
      [...systemIds.values()].map((id) =>
        client.waitForStatus(id, ["Ready"], { ...POLL, onProgress: (m) => seen.push(m.statusName) }),
      ),
    );
    expect(ready.map((m) => m.statusName)).toEqual(Array(6).fill("Ready"));
    // Commissioning powered each host on (PXE) and off again through its own BMC.
    // The power-off after Ready is sent asynchronously, as MAAS's own power actions are.
    for (const info of t.lab.info.nodes) {
      await vi.waitFor(() => {
        const resets = t
          .requestsSince(0, info.name)
          .filter((r) => r.method === "POST" && r.path.endsWith("ComputerSystem.Reset") && r.status < 300);
        expect(resets.length, info.name).toBeGreaterThanOrEqual(2);
        expect(t.lab.world.powerState(t.node(info.name))).toBe("Off");
      }, 10_000);
    }
  });

  it("allocates and deploys one machine to Deployed: the host is on and booted from PXE", async () => {
    const name = t.lab.info.nodes[1].name;
    const id = systemIds.get(name) as string;
    const a = await client.allocate({ systemId: id });
    expect(a.statusName).toBe("Allocated");
    await client.deploy(id, { osystem: "ubuntu", distroSeries: "jammy", userData: "#cloud-config\n{}\n" });
    const seen: string[] = [];
    const d = await client.waitForStatus(id, ["Deployed"], { ...POLL, onProgress: (m) => seen.push(m.statusName) });
    expect(d.statusName).toBe("Deployed");
    expect(seen[0]).toBe("Deploying");
    expect(t.lab.world.powerState(t.node(name))).toBe("On");
    expect(t.node(name).lastBootSource).toBe("Pxe");
    expect(await client.queryPowerState(id)).toBe("on");
  });

  it("refuses to deploy a Deployed machine with a typed conflict, and releases it to Ready (host off)", async () => {
    const name = t.lab.info.nodes[1].name;
    const id = systemIds.get(name) as string;
    const e = await rejection(client.deploy(id));
    expect(isClientError(e, "RACKFORM_ERR_MAAS_CONFLICT")).toBe(true);
    await client.release(id, { comment: "done" });
    const r = await client.waitForStatus(id, ["Ready"], POLL);
    expect(r.statusName).toBe("Ready");
    expect(t.lab.world.powerState(t.node(name))).toBe("Off");
  });

  it("reads all six machines concurrently with one batched list request", async () => {
    const before = maas.requests.length;
    const lists = client.machines.listRequests;
    const got = await Promise.all([...systemIds.values()].map((id) => client.machines.get(id, { fresh: true })));
    expect(got.map((m) => m?.statusName)).toEqual(Array(6).fill("Ready"));
    expect(client.machines.listRequests - lists).toBe(1);
    const sent = maas.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.path} ${r.status}`)).toEqual(["GET /MAAS/api/2.0/machines/ 200"]);
  });

  it("fails a deploy wait with MAAS's message when the lab fails the deployment", async () => {
    const id = systemIds.get(t.lab.info.nodes[2].name) as string;
    await client.allocate({ systemId: id });
    maas.failNext(id, "deploy");
    await client.deploy(id);
    const e = await rejection(client.waitForStatus(id, ["Deployed"], POLL));
    expect(isClientError(e, "RACKFORM_ERR_MAAS_STATUS_FAILED")).toBe(true);
    expect(e.message).toMatch(/Failed deployment/);
  });
});
