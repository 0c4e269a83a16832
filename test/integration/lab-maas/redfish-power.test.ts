// The lab's MAAS drives power through Redfish over HTTPS, as MAAS's redfish driver does.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { redfishPowerDriver } from "../../../src/lab/maas/index.js";
import { makeTls, type RedfishStandIn, startRedfish, type TlsMaterial } from "./redfish-standin.js";
import { call, DELAYS, startLab, statusOf } from "./support.js";

let tls: TlsMaterial;
let bmc: RedfishStandIn;
beforeAll(async () => {
  tls = makeTls();
  bmc = await startRedfish(tls, "root", "calvin-pass");
});
afterAll(async () => bmc.close());

const params = () => ({ power_address: bmc.address, power_user: "root", power_pass: "calvin-pass" });

describe("redfishPowerDriver", () => {
  it("powers on with a one-time PXE override, restarts when already on, and powers off", async () => {
    const driver = redfishPowerDriver({ caPem: tls.caPem });
    bmc.resets.length = 0;
    bmc.power = "Off";
    await driver.powerOn(params());
    expect(bmc.patches.at(-1)).toEqual({
      Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideTarget: "Pxe" },
    });
    expect(await driver.queryPowerState(params())).toBe("on");
    await driver.powerOn(params());
    await driver.powerOff(params());
    expect(bmc.resets).toEqual(["On", "ForceRestart", "ForceOff"]);
    expect(await driver.queryPowerState(params())).toBe("off");
  });

  it("goes straight to the system named by node_id", async () => {
    const driver = redfishPowerDriver({ caPem: tls.caPem });
    expect(await driver.queryPowerState({ ...params(), node_id: "System.Embedded.1" })).toBe("off");
    await expect(driver.queryPowerState({ ...params(), node_id: "Nope" })).rejects.toThrow(/HTTP 404/);
  });

  it("fails on wrong credentials without echoing the password", async () => {
    const driver = redfishPowerDriver({ caPem: tls.caPem });
    const err = await driver.powerOn({ ...params(), power_pass: "wrong-pass" }).catch((e: Error) => e);
    expect(String(err)).toContain("HTTP 401");
    expect(String(err)).not.toContain("wrong-pass");
  });

  it("retries a failed power change on MAAS's waiting policy, but not a refused credential", async () => {
    const driver = redfishPowerDriver({ caPem: tls.caPem, retryWaitsMs: [0, 0, 0] });
    bmc.power = "Off";
    bmc.resets.length = 0;
    // Two busy answers: the third attempt powers on.
    bmc.failNext = 2;
    await driver.powerOn(params());
    expect(bmc.resets).toEqual(["On"]);
    // Busy beyond the policy: the last failure is reported.
    bmc.failNext = 10;
    await expect(driver.powerOff(params())).rejects.toThrow(/HTTP 503/);
    expect(bmc.failNext).toBe(7);
    bmc.failNext = 0;
    // A refused credential is not retried.
    const started = bmc.patches.length;
    await expect(driver.powerOn({ ...params(), power_pass: "wrong-pass" })).rejects.toThrow(/HTTP 401/);
    expect(bmc.patches.length).toBe(started);
    bmc.power = "Off";
    bmc.resets.length = 0;
  });

  it("retries a power change whose connection was reset (a BMC under load, #31), but not a forbidden one", async () => {
    const driver = redfishPowerDriver({ caPem: tls.caPem, retryWaitsMs: [0, 0, 0] });
    bmc.power = "Off";
    bmc.resets.length = 0;
    // The first two requests are reset before any answer: the third attempt powers on.
    bmc.resetNext = 2;
    await driver.powerOn(params());
    expect(bmc.resets).toEqual(["On"]);
    expect(bmc.resetNext).toBe(0);
    // 403 is MAAS's PowerAuthError as much as 401 (redfish.py): fatal at the first answer.
    bmc.forbid = true;
    bmc.failNext = 0;
    const before = bmc.requests;
    await expect(driver.powerOn(params())).rejects.toThrow(/HTTP 403/);
    expect(bmc.requests - before).toBe(1);
    bmc.forbid = false;
    bmc.power = "Off";
    bmc.resets.length = 0;
  });

  it("fails when the BMC certificate does not chain to the given CA", async () => {
    const driver = redfishPowerDriver({ caPem: makeTls().caPem });
    await expect(driver.queryPowerState(params())).rejects.toThrow(/Redfish request/);
  });
});

describe("MAAS lab with the Redfish driver", () => {
  it("commissions through the BMC: powers on, then off when Ready", async () => {
    const lab = await startLab({ power: redfishPowerDriver({ caPem: tls.caPem }) });
    try {
      bmc.resets.length = 0;
      const r = await call(lab, "machines/", {
        method: "POST",
        form: {
          architecture: "amd64/generic",
          mac_addresses: "52:54:00:40:00:01",
          power_type: "redfish",
          power_parameters_power_address: bmc.address,
          power_parameters_power_user: "root",
          power_parameters_power_pass: "calvin-pass",
        },
      });
      // Power actions are real HTTPS calls: wait for the BMC to see them (the bound only stops a hung test).
      await vi.waitFor(() => expect(bmc.power).toBe("On"));
      await lab.clock.advance(DELAYS.commissionMs + DELAYS.testMs);
      expect(await statusOf(lab, r.json.system_id)).toBe("Ready");
      await vi.waitFor(() => expect(bmc.resets).toEqual(["On", "ForceOff"]));
      const q = await call(lab, `machines/${r.json.system_id}/`, { op: "query_power_state" });
      expect(q.json).toEqual({ state: "off" });
    } finally {
      await lab.close();
    }
  });

  it("fails commissioning with the power error when the BMC rejects the credentials", async () => {
    const lab = await startLab({ power: redfishPowerDriver({ caPem: tls.caPem }) });
    try {
      const r = await call(lab, "machines/", {
        method: "POST",
        form: {
          architecture: "amd64/generic",
          mac_addresses: "52:54:00:40:00:02",
          power_type: "redfish",
          power_parameters: JSON.stringify({ power_address: bmc.address, power_user: "root", power_pass: "bad-pass" }),
        },
      });
      await vi.waitFor(async () => expect(await statusOf(lab, r.json.system_id)).toBe("Failed commissioning"));
      const m = (await call(lab, `machines/${r.json.system_id}/`)).json;
      expect(m.status_message).toContain("Power on for the node failed");
      expect(m.status_message).not.toContain("bad-pass");
      expect(m.power_state).toBe("error");
    } finally {
      await lab.close();
    }
  });
});
