/** Integration: Redfish sessions and authentication on a lab BMC. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, control, powerOutlet, startTestLab, type TestLab } from "./lab-client.js";

describe("SessionService", () => {
  let t: TestLab;
  let bmc: string;
  beforeAll(async () => {
    t = await startTestLab({ nodes: 1 });
    bmc = t.lab.info.nodes[0].bmc.url;
    await powerOutlet(t, t.lab.info.nodes[0].name);
  });
  afterAll(async () => t?.stop());

  it("creates a session with X-Auth-Token and Location, accepts the token, and logs out on DELETE", async () => {
    const login = await call(t, bmc, "POST", "/redfish/v1/SessionService/Sessions", {
      auth: "none",
      body: { UserName: "admin", Password: t.lab.spec.credentials.password },
    });
    expect(login.status).toBe(201);
    const token = login.headers["x-auth-token"];
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    expect(login.headers.location).toBe(login.body["@odata.id"]);

    expect((await call(t, bmc, "GET", "/redfish/v1/Systems", { auth: { token } })).status).toBe(200);
    expect((await call(t, bmc, "DELETE", login.headers.location, { auth: { token } })).status).toBe(204);
    const after = await call(t, bmc, "GET", "/redfish/v1/Systems", { auth: { token } });
    expect(after.status).toBe(401);
    expect(after.body.error.code).toMatch(/NoValidSession$/);
  });

  it("refuses a wrong password with 401 and a Redfish error body that does not echo the password", async () => {
    const r = await call(t, bmc, "POST", "/redfish/v1/SessionService/Sessions", {
      auth: "none",
      body: { UserName: "admin", Password: "not-the-password" },
    });
    expect(r.status).toBe(401);
    expect(r.body.error["@Message.ExtendedInfo"][0].MessageId).toMatch(/^Base\.1\.\d+\.NoValidSession$/);
    expect(JSON.stringify(r.body)).not.toContain("not-the-password");
  });

  it("accepts HTTP basic auth and answers 401 with WWW-Authenticate without credentials", async () => {
    expect((await call(t, bmc, "GET", "/redfish/v1/Managers")).status).toBe(200);
    const anon = await call(t, bmc, "GET", "/redfish/v1/Managers", { auth: "none" });
    expect(anon.status).toBe(401);
    expect(anon.headers["www-authenticate"]).toMatch(/^Basic/);
  });

  it("serves the service root without credentials, as clients need it to find the session service", async () => {
    const root = await call(t, bmc, "GET", "/redfish/v1/", { auth: "none" });
    expect(root.status).toBe(200);
    expect(root.body.Links.Sessions["@odata.id"]).toBe("/redfish/v1/SessionService/Sessions");
  });

  it("fails session creation without UserName with 400 PropertyMissing", async () => {
    const r = await call(t, bmc, "POST", "/redfish/v1/SessionService/Sessions", {
      auth: "none",
      body: { Password: "x" },
    });
    expect(r.status).toBe(400);
    expect(r.body.error.code).toMatch(/PropertyMissing$/);
  });

  it("GIVEN a password rotated through the control API THEN the BMC's sessions end, the old password gets 401 and the new one works (PDUs too)", async () => {
    const old = t.lab.spec.credentials.password;
    const rotated = "Rotated-Passw0rd-9";
    const login = await call(t, bmc, "POST", "/redfish/v1/SessionService/Sessions", {
      auth: "none",
      body: { UserName: "admin", Password: old },
    });
    const token = login.headers["x-auth-token"];
    const short = await control(t, "POST", `/nodes/${t.lab.info.nodes[0].name}/bmc/password`, { password: "short" });
    expect(short.body.error.code).toBe("RACKFORM_ERR_LAB_BAD_PASSWORD");
    const pdu = t.lab.info.pdus[0];
    try {
      expect(
        (await control(t, "POST", `/nodes/${t.lab.info.nodes[0].name}/bmc/password`, { password: rotated })).status,
      ).toBe(204);
      expect((await control(t, "POST", `/pdus/${pdu.id}/password`, { password: rotated })).status).toBe(204);
      expect((await call(t, bmc, "GET", "/redfish/v1/Systems", { auth: { token } })).status).toBe(401);
      expect((await call(t, bmc, "GET", "/redfish/v1/Systems")).status).toBe(401);
      expect((await call(t, pdu.url, "GET", "/redfish/v1/PowerEquipment")).status).toBe(401);
      const again = await call(t, bmc, "POST", "/redfish/v1/SessionService/Sessions", {
        auth: "none",
        body: { UserName: "admin", Password: rotated },
      });
      expect(again.status).toBe(201);
    } finally {
      await control(t, "POST", `/nodes/${t.lab.info.nodes[0].name}/bmc/password`, { password: old });
      await control(t, "POST", `/pdus/${pdu.id}/password`, { password: old });
    }
    expect((await call(t, pdu.url, "GET", "/redfish/v1/PowerEquipment")).status).toBe(200);
  });
});
