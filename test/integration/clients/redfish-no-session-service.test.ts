/**
 * Regression (issue 32, found by sushy-tools' emulator): a Redfish service whose root names no SessionService has no
 * sessions. Like the emulator, this one answers everything but the root with 401 unless HTTP Basic credentials come
 * along, the login POST included. The client in its default session mode must use basic auth there, not fail with
 * "refused the credentials" (before the fix it POSTed to /redfish/v1/SessionService/Sessions and stopped at the 401).
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RedfishClient } from "../../../src/clients/redfish/index.js";

const USER = "admin";
const PASSWORD = "no-session-service-pw";
const seen: { method: string; path: string; auth: string }[] = [];
let srv: Server;
let base: string;

const ROOT = {
  "@odata.id": "/redfish/v1/",
  "@odata.type": "#ServiceRoot.v1_5_0.ServiceRoot",
  Id: "RootService",
  Systems: { "@odata.id": "/redfish/v1/Systems" },
};
const BODIES: Record<string, object> = {
  "/redfish/v1/Systems": { Members: [{ "@odata.id": "/redfish/v1/Systems/1" }] },
  "/redfish/v1/Systems/1": { "@odata.id": "/redfish/v1/Systems/1", Id: "1", PowerState: "Off" },
};

function authKind(req: IncomingMessage): string {
  const h = req.headers.authorization ?? "";
  if (h === `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString("base64")}`) return "basic";
  return h ? "wrong" : req.headers["x-auth-token"] ? "token" : "none";
}

beforeAll(async () => {
  srv = createServer((req, res) => {
    const path = (req.url ?? "").replace(/\?.*$/, "").replace(/\/$/, "") || "/";
    const auth = authKind(req);
    seen.push({ method: req.method ?? "", path, auth });
    const send = (status: number, body: object) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (path === "/redfish/v1") return send(200, ROOT);
    if (auth !== "basic")
      return send(401, { error: { code: "Base.1.0.GeneralError", message: "Authorization required" } });
    const body = req.method === "GET" ? BODIES[path] : undefined;
    return body ? send(200, body) : send(404, { error: { message: "404 Not Found" } });
  });
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => srv.close(r));
});

it("GIVEN a service root without SessionService WHEN the session-mode client logs in and reads THEN it uses basic auth and never POSTs a login", async () => {
  seen.length = 0;
  const c = new RedfishClient({ baseUrl: base, username: USER, password: PASSWORD });
  await c.login();
  const sys = await c.getSystem();
  await c.close();
  expect(sys.powerState).toBe("Off");
  expect(seen.filter((s) => s.method === "POST" || s.method === "DELETE")).toEqual([]);
  expect(seen.filter((s) => s.path !== "/redfish/v1").every((s) => s.auth === "basic")).toBe(true);
});

it("fails with RACKFORM_ERR_REDFISH_AUTH on a wrong password at such a service, without the password in the message", async () => {
  const c = new RedfishClient({ baseUrl: base, username: USER, password: "wrong-password-1" });
  const e = await c.getSystem().then(
    () => undefined,
    (x: unknown) => x as Error & { code?: string },
  );
  await c.close();
  expect(e?.code).toBe("RACKFORM_ERR_REDFISH_AUTH");
  expect(e?.message).not.toContain("wrong-password-1");
});
