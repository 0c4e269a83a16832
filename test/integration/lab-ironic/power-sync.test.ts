// The lab conductor's periodic power sync ([conductor]sync_power_state_interval and friends) on a manual clock, with a
// BMC whose answers the test decides: the database follows the hardware; a silent BMC ends in power-failure maintenance
// after the retries; the recovery pass lifts it when the BMC answers again; a hand-set maintenance is left alone.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BmcDriver } from "../../../src/lab/ironic/index.js";
import { call, type Lab, node, startLab } from "./support.js";

let lab: Lab;
let power: "power on" | "power off";
let silent: boolean;

const bmc: BmcDriver = {
  async verify() {
    return { powerState: power, vendor: "lab", bootMode: "uefi" };
  },
  async getPowerState() {
    if (silent) throw new Error("connection failed (ECONNRESET)");
    return power;
  },
  async setPower() {},
  async setBootDevice() {},
  async inspect() {
    return { properties: { cpus: 1, memory_mb: "1024", local_gb: "10" }, macs: [], inventory: {} };
  },
};

beforeEach(async () => {
  power = "power on";
  silent = false;
  lab = await startLab({ bmc, powerSync: { intervalMs: 60_000, recoveryIntervalMs: 300_000, minPassMs: 0 } });
});
afterEach(async () => {
  await lab.close();
});

/** A redfish node taken to manageable (verified through the BMC). */
async function managedNode(): Promise<string> {
  const r = await call(lab.url, "POST", "/v1/nodes", {
    body: {
      driver: "redfish",
      name: "n1",
      driver_info: { redfish_address: "https://bmc.lab", redfish_system_id: "/x" },
    },
  });
  expect(r.status).toBe(201);
  const uuid = r.json.uuid as string;
  await call(lab.url, "PUT", `/v1/nodes/${uuid}/states/provision`, { body: { target: "manage" } });
  await lab.clock.advance(100); // verification
  expect((await node(lab.url, uuid)).provision_state).toBe("manageable");
  return uuid;
}

describe("lab Ironic power sync", () => {
  it("records the power the BMC reports at the next sync, not before", async () => {
    const uuid = await managedNode();
    power = "power off";
    await lab.clock.advance(59_000);
    expect((await node(lab.url, uuid)).power_state).toBe("power on");
    await lab.clock.advance(1_000);
    expect((await node(lab.url, uuid)).power_state).toBe("power off");
  });

  it("a BMC silent for max retries syncs puts the node in power-failure maintenance; recovery lifts it", async () => {
    const uuid = await managedNode();
    silent = true;
    await lab.clock.advance(2 * 60_000);
    expect((await node(lab.url, uuid)).maintenance).toBe(false); // two failed reads: still retrying
    await lab.clock.advance(60_000);
    const down = await node(lab.url, uuid);
    expect([down.maintenance, down.fault, down.power_state]).toEqual([true, "power failure", null]);
    expect(down.maintenance_reason).toContain("During sync_power_state, max retries exceeded");
    silent = false;
    power = "power off";
    await lab.clock.advance(300_000);
    const back = await node(lab.url, uuid);
    expect([back.maintenance, back.fault, back.maintenance_reason, back.power_state]).toEqual([
      false,
      null,
      null,
      "power off",
    ]);
  });

  it("leaves nodes in maintenance set by hand alone: neither synced nor recovered", async () => {
    const uuid = await managedNode();
    await call(lab.url, "PUT", `/v1/nodes/${uuid}/maintenance`, { body: { reason: "by hand" } });
    power = "power off";
    await lab.clock.advance(300_000);
    const n = await node(lab.url, uuid);
    expect([n.maintenance, n.maintenance_reason, n.fault, n.power_state]).toEqual([true, "by hand", null, "power on"]);
  });
});
