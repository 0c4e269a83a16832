/**
 * Integration: Boot.BootOrder as DMTF defines it (issue #14, item E). DSP0268 ComputerSystem `Boot.BootOrder` is an
 * array of `BootOptionReference` strings ("Boot0001") naming members of the `Boot.BootOptions` collection
 * (BootOption v1: BootOptionReference, DisplayName, Alias, UefiDevicePath); a PATCH of BootOrder takes references, and
 * the host then boots what the first option's Alias names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, type Json, startPoweredNode, type TestLab } from "./lab-client.js";

describe("BootOrder and BootOptions", () => {
  let t: TestLab;
  let bmc: string;
  let sys: string;
  beforeAll(async () => ({ t, bmc, sys } = await startPoweredNode()));
  afterAll(async () => t?.stop());

  it("lists BootOrder as references to BootOptions members, each naming what it boots", async () => {
    const boot = (await call(t, bmc, "GET", sys)).body.Boot;
    expect(boot.BootOrder).toEqual(["Boot0000", "Boot0001"]);
    const options = await call(t, bmc, "GET", boot.BootOptions["@odata.id"]);
    expect(options.status).toBe(200);
    expect(options.body["@odata.type"]).toBe("#BootOptionCollection.BootOptionCollection");
    const members: Json[] = [];
    for (const m of options.body.Members) members.push((await call(t, bmc, "GET", m["@odata.id"])).body);
    for (const ref of boot.BootOrder) {
      const o = members.find((x) => x.BootOptionReference === ref);
      expect(o, ref).toBeDefined();
      expect(o["@odata.type"]).toMatch(/^#BootOption\.v1_\d+_\d+\.BootOption$/);
      expect(o.UefiDevicePath).toEqual(expect.any(String));
    }
    const byRef = Object.fromEntries(members.map((o) => [o.BootOptionReference, o.Alias]));
    expect(byRef).toMatchObject({ Boot0000: "Pxe", Boot0001: "Hdd" });
    const mac = t.lab.world.node(t.lab.info.nodes[0].name)!.ports[0].mac.replace(/:/g, "").toUpperCase();
    expect(members[0].DisplayName).toContain(mac);
  });

  it("takes a BootOrder PATCH of references, and the next power-on boots the first option's Alias", async () => {
    const r = await call(t, bmc, "PATCH", sys, { body: { Boot: { BootOrder: ["Boot0001", "Boot0000"] } } });
    expect(r.status).toBe(200);
    expect(r.body.Boot.BootOrder).toEqual(["Boot0001", "Boot0000"]);
    const on = await call(t, bmc, "POST", `${sys}/Actions/ComputerSystem.Reset`, { body: { ResetType: "On" } });
    expect(on.status).toBe(204);
    expect(t.lab.world.node(t.lab.info.nodes[0].name)!.lastBootSource).toBe("Hdd");
  });

  it("fails a BootOrder of boot source names or unknown references with 400 PropertyValueNotInList", async () => {
    for (const order of [["Pxe", "Hdd"], ["Boot00FF"]]) {
      const r = await call(t, bmc, "PATCH", sys, { body: { Boot: { BootOrder: order } } });
      expect(r.status).toBe(400);
      expect(r.body.error["@Message.ExtendedInfo"][0].MessageId).toMatch(/PropertyValueNotInList$/);
    }
    expect((await call(t, bmc, "GET", sys)).body.Boot.BootOrder).toEqual(["Boot0001", "Boot0000"]);
    expect((await call(t, bmc, "GET", `${sys}/BootOptions/Boot00FF`)).status).toBe(404);
  });
});
