/**
 * BcmClient against the lab's BCM head node (cmdaemon JSON-RPC): login with the cm-login-token cookie and a fresh
 * login after expiry, devices with cmdaemon's validation, power through the lab's Redfish BMC, device status from
 * the host (DOWN → INSTALLING → UP; INSTALLER_FAILED on the deploy-failure fault), close/open, a burn run carrying
 * the acceptance document, and no secret in an error or log line.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BcmClient } from "../../../src/clients/bcm/index.js";
import { isClientError } from "../../../src/clients/errors.js";
import { HttpCore } from "../../../src/clients/http/index.js";
import type { Lab } from "../../../src/lab/index.js";
import { until } from "../../support/until.js";
import { startComposedLab } from "../lab-composed/support.js";

let lab: Lab;
let stop: () => Promise<void>;
let core: HttpCore;
let client: BcmClient;
const logLines: string[] = [];

function bcmInfo(l: Lab) {
  const b = l.info.bcm;
  if (!b) throw new Error("the lab file has no bcm");
  return b;
}

async function waitStatus(uuid: string, want: string): Promise<string> {
  let last = "";
  return until(
    () => `${uuid} to be ${want} (now ${last})`,
    async () => {
      last = (await client.statuses([uuid]))[0]?.status ?? "";
      return last === want ? last : undefined;
    },
    { everyMs: 10 },
  );
}

beforeAll(async () => {
  ({ lab, stop } = await startComposedLab({ nodes: 2 }));
  // The lab's racks start with every outlet off: the BMCs need standby power.
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  core = new HttpCore({ log: (l) => logLines.push(l) });
  const b = bcmInfo(lab);
  client = new BcmClient({ url: b.url, username: b.username, password: b.password, core });
});

afterAll(async () => {
  await core?.close();
  await stop?.();
});

function enrollSpec(i: number) {
  const n = lab.info.nodes[i];
  const node = lab.world.node(n.name);
  if (!node) throw new Error("no node");
  return {
    hostname: n.name,
    mac: node.ports[0].mac.toLowerCase(),
    category: "",
    bmcIp: new URL(n.bmc.url).hostname,
    bmcUsername: n.bmc.username,
    bmcPassword: n.bmc.password,
  };
}

describe("BcmClient against the lab BCM", () => {
  let uuid = "";

  it("logs in, lists the default category and software image", async () => {
    const cats = await client.categories();
    expect(cats.map((c) => c.name)).toContain("default");
    expect((await client.softwareImages()).map((i) => i.name)).toContain("default-image");
  });

  it("adds a PhysicalNode and reads it back; a duplicate hostname is rejected with cmdaemon's validation", async () => {
    const cat = (await client.categories()).find((c) => c.name === "default")?.uuid ?? "";
    const d = await client.addDevice({ ...enrollSpec(0), category: cat });
    uuid = d.uuid;
    expect(d.hostname).toBe(lab.info.nodes[0].name);
    expect(d.bmcIp).toBe(new URL(lab.info.nodes[0].bmc.url).hostname);
    expect((await client.getDevice(uuid))?.macs).toEqual([enrollSpec(0).mac]);
    const e = await client.addDevice({ ...enrollSpec(0), category: cat }).catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_BCM_REJECTED")).toBe(true);
    expect((e as Error).message).toMatch(/hostname: .*already used/);
  });

  it("powers the host on through its BMC; the node installs its image and comes UP", async () => {
    expect((await client.statuses([uuid]))[0].status).toBe("DOWN");
    const r = await client.powerOperation([uuid], "ON", false);
    expect(r[0]).toMatchObject({ uuid, state: "ON" });
    expect(lab.world.powerState(lab.world.node(lab.info.nodes[0].name) as never)).toBe("On");
    expect(await waitStatus(uuid, "UP")).toBe("UP");
  });

  it("logs in again when the session expired", async () => {
    lab.backends?.bcm.expireSessions();
    expect((await client.statuses([uuid]))[0].status).toBe("UP");
  });

  it("closes and opens a device; a closed device is skipped by power unless forced", async () => {
    await client.close([uuid], "rackform acceptance failed: test");
    const s = (await client.statuses([uuid]))[0];
    expect(s).toMatchObject({ status: "CLOSED", closed: true, userMessage: "rackform acceptance failed: test" });
    expect(await client.powerOperation([uuid], "OFF", false)).toEqual([]);
    await client.open([uuid]);
    expect((await client.statuses([uuid]))[0]).toMatchObject({ status: "UP", closed: false, userMessage: "" });
  });

  it("runs a burn whose log is the acceptance document", async () => {
    await client.startBurn([uuid], "rackform-acceptance dcgm_level=1 burn_in=1h");
    const b = await until(
      "the burn to end",
      async () => {
        const now = (await client.burnStatus([uuid]))[0];
        return now.status === "running" ? undefined : now;
      },
      { everyMs: 10 },
    );
    expect(b.status).toBe("passed");
    expect(JSON.parse(b.log)).toMatchObject({ format: "rackform-acceptance/v1", passed: true });
  });

  it("reports INSTALLER_FAILED when the install fails (deploy-failure fault)", async () => {
    const cat = (await client.categories())[0].uuid;
    const d = await client.addDevice({ ...enrollSpec(1), category: cat });
    lab.world.faults.add({ kind: "deploy-failure", node: lab.info.nodes[1].name, count: 1 });
    await client.powerOperation([d.uuid], "ON", false);
    expect(await waitStatus(d.uuid, "INSTALLER_FAILED")).toBe("INSTALLER_FAILED");
    expect(await client.removeDevice(d.uuid)).toBe(true);
    expect(await client.getDevice(d.uuid)).toBeUndefined();
  });

  it("refuses a wrong password with a typed error that holds no secret", async () => {
    const b = bcmInfo(lab);
    const bad = new BcmClient({ url: b.url, username: b.username, password: "wrong-secret-123", core });
    const e = await bad.listDevices().catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_BCM_AUTH")).toBe(true);
    expect(String((e as Error).message)).not.toContain("wrong-secret-123");
    const all = logLines.join("\n");
    expect(all).not.toContain(b.password);
    expect(all).not.toContain(lab.info.nodes[0].bmc.password);
  });
});
