/** Integration: a BMC lives behind its PDU outlet; it answers only after the outlet is on and the BMC has booted. */
import { afterEach, describe, expect, it } from "vitest";
import { ManualClock } from "../../../src/lab/index.js";
import { call, control, startTestLab, type TestLab } from "./lab-client.js";

describe("outlet → BMC reachability", () => {
  let t: TestLab;
  afterEach(async () => t?.stop());

  it("fails to connect while the outlet is off, and after outlet-on only once the BMC boot delay has passed", async () => {
    const clock = new ManualClock();
    t = await startTestLab({ clock, profile: "demo" });
    const node = t.lab.info.nodes[0];
    const bootMs = t.lab.world.time.duration("bmcBootMs");

    await expect(call(t, node.bmc.url, "GET", "/redfish/v1")).rejects.toThrow();

    // GIVEN the outlet is switched on through the PDU's own Redfish service (as the provider does)
    const pdu = t.lab.info.pdus.find((p) => p.id === node.pdu)!;
    const on = await call(
      t,
      pdu.url,
      "POST",
      `/redfish/v1/PowerEquipment/RackPDUs/${node.pdu}/Outlets/${node.outlet}/Outlet.PowerControl`,
      {
        body: { PowerState: "On" },
      },
    );
    expect(on.status).toBe(204);
    // WHEN the BMC is still booting THEN connections still fail
    clock.advance(bootMs - 1);
    await expect(call(t, node.bmc.url, "GET", "/redfish/v1")).rejects.toThrow();
    // WHEN the boot delay has passed THEN the service root answers
    clock.advance(1);
    const root = await call(t, node.bmc.url, "GET", "/redfish/v1");
    expect(root.status).toBe(200);
    expect((await control(t, "GET", `/nodes/${node.name}`)).body.bmc).toBe("up");
  });

  it("a BMC reboot through the control API drops the BMC for bmcResetMs while the host keeps running", async () => {
    const clock = new ManualClock();
    t = await startTestLab({ clock, profile: "demo", nodes: 1 });
    const node = t.lab.info.nodes[0];
    await control(t, "POST", `/nodes/${node.name}/outlet`, { state: "On" });
    clock.advance(t.lab.world.time.duration("bmcBootMs"));
    const n = t.lab.world.node(node.name)!;
    const powerBefore = t.lab.world.powerState(n);
    // WHEN the BMC is rebooted THEN it does not answer until its reset time has passed, and the host power is unchanged
    const r = await control(t, "POST", `/nodes/${node.name}/bmc/reset`);
    expect(r.status).toBe(200);
    expect(r.body.bmc).toBe("booting");
    await expect(call(t, node.bmc.url, "GET", "/redfish/v1")).rejects.toThrow();
    expect(t.lab.world.powerState(n)).toBe(powerBefore);
    clock.advance(t.lab.world.time.duration("bmcResetMs"));
    expect((await call(t, node.bmc.url, "GET", "/redfish/v1")).status).toBe(200);
    expect((await control(t, "POST", "/nodes/nope/bmc/reset")).status).toBe(404);
  });

  it("an outlet switched off behind the engine's back drops the BMC and the host power", async () => {
    t = await startTestLab();
    const node = t.lab.info.nodes[0];
    await control(t, "POST", `/nodes/${node.name}/outlet`, { state: "On" });
    const sys = `/redfish/v1/Systems/${t.lab.world.node(node.name)!.systemId}`;
    expect(
      (await call(t, node.bmc.url, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: "On" } }))
        .status,
    ).toBe(204);
    expect((await call(t, node.bmc.url, "GET", sys)).body.PowerState).toBe("On");

    const off = await control(t, "POST", `/pdus/${node.pdu}/outlets/${node.outlet}`, { state: "Off" });
    expect(off.body.state).toBe("Off");
    await expect(call(t, node.bmc.url, "GET", sys)).rejects.toThrow();

    await control(t, "POST", `/nodes/${node.name}/outlet`, { state: "On" });
    expect((await call(t, node.bmc.url, "GET", sys)).body.PowerState).toBe("Off");
  });

  it("an outlet PowerCycle brings the outlet back after the cycle delay", async () => {
    const clock = new ManualClock();
    t = await startTestLab({ clock, profile: "demo" });
    const node = t.lab.info.nodes[0];
    const pdu = t.lab.info.pdus.find((p) => p.id === node.pdu)!;
    const outlet = `/redfish/v1/PowerEquipment/RackPDUs/${node.pdu}/Outlets/${node.outlet}`;
    await call(t, pdu.url, "POST", `${outlet}/Outlet.PowerControl`, { body: { PowerState: "On" } });
    await call(t, pdu.url, "POST", `${outlet}/Outlet.PowerControl`, { body: { PowerState: "PowerCycle" } });
    expect((await call(t, pdu.url, "GET", outlet)).body.PowerState).toBe("Off");
    clock.advance(t.lab.world.time.duration("outletCycleMs"));
    expect((await call(t, pdu.url, "GET", outlet)).body.PowerState).toBe("On");
  });

  it("rejects an unknown outlet state in the PDU action with a Redfish 400", async () => {
    t = await startTestLab();
    const node = t.lab.info.nodes[0];
    const pdu = t.lab.info.pdus.find((p) => p.id === node.pdu)!;
    const r = await call(
      t,
      pdu.url,
      "POST",
      `/redfish/v1/PowerEquipment/RackPDUs/${node.pdu}/Outlets/${node.outlet}/Outlet.PowerControl`,
      {
        body: { PowerState: "Blink" },
      },
    );
    expect(r.status).toBe(400);
    expect(r.body.error.code).toMatch(/ActionParameterValueNotInList$/);
  });
});
