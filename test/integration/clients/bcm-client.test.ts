/**
 * BcmClient against a scripted cmdaemon on loopback: what only a scripted server can show — a write is never
 * repeated after a 503 while a read is; a 401 on a call logs in again once and repeats the call; a second 401 is
 * RACKFORM_ERR_BCM_AUTH; an `{"error": …}` reply is RACKFORM_ERR_BCM_CALL_FAILED; a rejected entity carries its
 * validation list; the cookie and the password never reach a message or log line.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BcmClient, type BcmError } from "../../../src/clients/bcm/index.js";
import { isClientError } from "../../../src/clients/errors.js";
import { HttpCore } from "../../../src/clients/http/index.js";

const PASSWORD = "s3cret-bcm-pass";
const TOKEN = "tok-7f3a9c2e1b";
let server: Server;
let url = "";
let seen: { service: string; call: string; cookie: string }[] = [];
let script: ((service: string, call: string) => { status: number; body: unknown } | undefined)[] = [];
const lines: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const b = JSON.parse(text) as { service: string; call?: string; password?: string };
      seen.push({ service: b.service, call: b.call ?? "", cookie: String(req.headers.cookie ?? "") });
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { "content-type": "application/json", ...headers });
        res.end(JSON.stringify(body));
      };
      if (b.service === "login") {
        if (b.password !== PASSWORD) return send(401, { error: `bad password ${b.password}` });
        return send(200, true, { "set-cookie": `cm-login-token=${TOKEN}; Path=/; HttpOnly` });
      }
      const next = script.shift()?.(b.service, b.call ?? "");
      if (next) return send(next.status, next.body);
      return send(200, []);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((r) => server.close(r));
});

beforeEach(() => {
  seen = [];
  script = [];
});

function client(password = PASSWORD) {
  const core = new HttpCore({
    log: (l) => lines.push(l),
    retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
  });
  return { core, c: new BcmClient({ url, username: "root", password, core }) };
}

describe("BcmClient against a scripted cmdaemon", () => {
  it("retries a read after a 503 but never repeats a write", async () => {
    const { core, c } = client();
    script = [() => ({ status: 503, body: { error: "busy" } })];
    expect(await c.listDevices()).toEqual([]);
    expect(seen.filter((s) => s.call === "getDevices")).toHaveLength(2);
    seen = [];
    script = [() => ({ status: 503, body: { error: "busy" } })];
    const e = await c.powerOperation(["u1"], "ON", false).catch((x: unknown) => x);
    expect(isClientError(e)).toBe(true);
    expect(seen.filter((s) => s.call === "powerOperation")).toHaveLength(1);
    await core.close();
  });

  it("logs in again once when a call is refused with 401, then repeats it", async () => {
    const { core, c } = client();
    await c.listDevices();
    seen = [];
    script = [() => ({ status: 401, body: { error: "Not logged in" } })];
    expect(await c.listDevices()).toEqual([]);
    expect(seen.map((s) => (s.service === "login" ? "login" : s.call))).toEqual(["getDevices", "login", "getDevices"]);
    expect(seen[2].cookie).toBe(`cm-login-token=${TOKEN}`);
    seen = [];
    script = [() => ({ status: 401, body: {} }), () => ({ status: 401, body: {} })];
    const e = await c.listDevices().catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_BCM_AUTH")).toBe(true);
    await core.close();
  });

  it("maps an error reply and a rejected entity to typed errors", async () => {
    const { core, c } = client();
    script = [() => ({ status: 200, body: { error: "Unknown call getDevicez", code: 1 } })];
    const e1 = await c.listDevices().catch((x: unknown) => x);
    expect(isClientError(e1, "RACKFORM_ERR_BCM_CALL_FAILED")).toBe(true);
    expect((e1 as Error).message).toContain("Unknown call getDevicez");
    script = [
      () => ({
        status: 200,
        body: {
          success: false,
          validation: [
            {
              field: "hostname",
              message: "Hostname n1 is already used",
              error_code: "DUPLICATE_FIELD",
              severity: "ERROR",
            },
          ],
        },
      }),
    ];
    const e2 = await c
      .addDevice({
        hostname: "n1",
        mac: "52:54:00:00:00:01",
        category: "c",
        bmcIp: "10.0.0.5",
        bmcUsername: "a",
        bmcPassword: "b",
      })
      .catch((x: unknown) => x);
    expect(isClientError(e2, "RACKFORM_ERR_BCM_REJECTED")).toBe(true);
    expect((e2 as BcmError).validation).toEqual([
      { field: "hostname", message: "Hostname n1 is already used", errorCode: "DUPLICATE_FIELD", severity: "ERROR" },
    ]);
    await core.close();
  });

  it("a refused login is RACKFORM_ERR_BCM_AUTH and no message or log line holds the password or the cookie", async () => {
    const { core, c } = client("wrong-pass-xyz");
    const e = await c.listDevices().catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_BCM_AUTH")).toBe(true);
    expect(String((e as Error).message)).not.toContain("wrong-pass-xyz");
    await core.close();
    const all = lines.join("\n");
    for (const secret of [PASSWORD, TOKEN, "wrong-pass-xyz"]) expect(all).not.toContain(secret);
  });
});
