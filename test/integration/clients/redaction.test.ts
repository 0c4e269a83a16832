/**
 * No secret ever reaches an error or a log line. A hostile BMC echoes the password, the session token and the
 * basic-auth header back in bodies and headers under every failure; every rendering of the resulting error
 * (message, String(err), stack, util.inspect with its cause, extra fields) and every log line must be clean.
 */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RackformClientError } from "../../../src/clients/errors.js";
import { HttpCore } from "../../../src/clients/http/core.js";
import { RedfishClient, type RedfishClientOptions } from "../../../src/clients/redfish/client.js";
import { type Hit, type Step, startFaultServer } from "../../support/clients/fault-server.js";
import { makeTestPki, type TestPki } from "../../support/clients/tls.js";

const USER = "admin";
const PASSWORD = 'pa$$ "w0rd"/ü-7f3k';
const TOKEN = "tok-9b1e7c3d5a2f4e6d8c0b";
const BASIC = Buffer.from(`${USER}:${PASSWORD}`).toString("base64");
const SECRETS = [PASSWORD, TOKEN, BASIC, encodeURIComponent(PASSWORD), JSON.stringify(PASSWORD).slice(1, -1)];
const WITHOUT_TOKEN = SECRETS.filter((s) => s !== TOKEN);
const echo = `password=${PASSWORD} token=${TOKEN} basic=${BASIC}`;

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

/** A BMC that logs in normally (handing out TOKEN) and answers everything else with `fault`. */
async function hostileBmc(fault: (hit: Hit, n: number) => Step, tls?: { key: string; cert: string }) {
  let n = 0;
  const s = await startFaultServer((hit) => {
    if (hit.method === "GET" && /^\/redfish\/v1\/?$/.test(hit.path)) {
      return {
        status: 200,
        body: {
          Systems: { "@odata.id": "/redfish/v1/Systems" },
          Links: { Sessions: { "@odata.id": "/redfish/v1/SessionService/Sessions" } },
        },
      };
    }
    if (hit.method === "POST" && hit.path.endsWith("/Sessions")) {
      return {
        status: 201,
        headers: { "x-auth-token": TOKEN, location: "/redfish/v1/SessionService/Sessions/1" },
        body: {},
      };
    }
    return fault(hit, ++n);
  }, tls);
  closers.push(() => s.close());
  return s;
}

/** Runs `op` against a client and returns the error and every log line. */
async function failureOf(
  url: string,
  op: (c: RedfishClient) => Promise<unknown>,
  extra: Partial<RedfishClientOptions> = {},
) {
  const logs: string[] = [];
  const core = new HttpCore({
    log: (l) => logs.push(l),
    sleep: async () => undefined,
    headersTimeoutMs: 300,
    ...extra.http,
    tls: { ca: extra.ca, insecure: extra.insecure },
  });
  const c = new RedfishClient({ baseUrl: url, username: USER, password: PASSWORD, core, ...extra });
  closers.push(async () => {
    await c.close();
    await core.close();
  });
  const err = await op(c).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, "the operation should have failed").toBeInstanceOf(RackformClientError);
  return { err: err as RackformClientError, logs };
}

/** `secrets`: what the client knew; a token it was never given cannot be recognised (and is not its secret). */
function expectClean(err: RackformClientError, logs: string[], secrets: readonly string[] = SECRETS): void {
  const renderings = [
    err.message,
    String(err),
    err.stack ?? "",
    inspect(err, { depth: 6 }),
    JSON.stringify({ s: err.serverMessage, h: err.headers, d: (err as { details?: unknown }).details }),
    ...logs,
  ];
  for (const text of renderings) for (const secret of secrets) expect(text).not.toContain(secret);
  expect(logs.length).toBeGreaterThan(0);
}

const echoError = (status: number, headers: Record<string, string> = {}): Step => ({
  status,
  headers: { "x-debug": echo, "www-authenticate": `Basic ${BASIC}`, ...headers },
  body: {
    error: {
      code: "Base.1.8.GeneralError",
      message: `denied: ${echo}`,
      "@Message.ExtendedInfo": [{ Message: `you sent ${echo}` }],
    },
  },
});

describe("no secret in errors or logs", () => {
  it("login refused, the BMC echoing the password", async () => {
    const s = await startFaultServer((hit) =>
      hit.method === "POST"
        ? echoError(401)
        : {
            status: 200,
            // A SessionService named: a root without one has no sessions, and the client would not log in at all.
            body: {
              Systems: { "@odata.id": "/redfish/v1/Systems" },
              SessionService: { "@odata.id": "/redfish/v1/SessionService" },
            },
          },
    );
    closers.push(() => s.close());
    const { err, logs } = await failureOf(s.url, (c) => c.getSystem());
    expect(err.code).toBe("RACKFORM_ERR_REDFISH_AUTH");
    expect(err.message).toContain("[REDACTED]");
    expectClean(err, logs, WITHOUT_TOKEN);
  });

  it("429 until the attempts run out", async () => {
    const s = await hostileBmc(() => echoError(429, { "retry-after": "1" }));
    const { err, logs } = await failureOf(s.url, (c) => c.getSystem());
    expect(err).toMatchObject({ code: "RACKFORM_ERR_HTTP_STATUS", status: 429 });
    expectClean(err, logs);
  });

  it("expired session: 401 after login, then 401 after the re-login", async () => {
    const s = await hostileBmc(() => echoError(401));
    const { err, logs } = await failureOf(s.url, (c) => c.getSystem());
    expect(err.code).toBe("RACKFORM_ERR_REDFISH_AUTH");
    expect(s.hits.filter((h) => h.path.endsWith("/Sessions"))).toHaveLength(2);
    expectClean(err, logs);
  });

  it("basic auth refused with the Authorization header echoed back", async () => {
    const s = await hostileBmc(() => echoError(401));
    const { err, logs } = await failureOf(s.url, (c) => c.getSystem(), { auth: "basic" });
    expect(err.code).toBe("RACKFORM_ERR_REDFISH_AUTH");
    expectClean(err, logs, WITHOUT_TOKEN);
  });

  it("server error with an HTML or plain-text body", async () => {
    const s = await hostileBmc(() => ({
      status: 500,
      headers: { "content-type": "text/plain" },
      body: `internal error: ${echo}`,
    }));
    const { err, logs } = await failureOf(s.url, (c) => c.getSystem());
    expect(err.status).toBe(500);
    expectClean(err, logs);
  });

  it("connection reset (retried, then given up)", async () => {
    const s = await hostileBmc(() => ({ reset: true }));
    const get = await failureOf(s.url, (c) => c.getSystem());
    expect(get.err.code).toBe("RACKFORM_ERR_HTTP_CONNECT");
    expectClean(get.err, get.logs);
  });

  it("slow response timing out", async () => {
    const s = await hostileBmc(() => ({ status: 200, body: {}, delayMs: 3_000 }));
    const { err, logs } = await failureOf(s.url, (c) => c.getSystem());
    expect(err.code).toBe("RACKFORM_ERR_HTTP_TIMEOUT");
    expectClean(err, logs);
  });

  it("credentials in the base URL are refused without being shown", () => {
    let caught: unknown;
    try {
      new RedfishClient({
        baseUrl: `https://${USER}:${encodeURIComponent(PASSWORD)}@127.0.0.1:1`,
        username: USER,
        password: PASSWORD,
      });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(RackformClientError);
    expectClean(caught as RackformClientError, ["(no log)"]);
  });

  describe("TLS", () => {
    let pki: TestPki;
    beforeAll(() => {
      pki = makeTestPki();
    });
    afterAll(() => pki.cleanup());

    it("server certificate signed by another CA", async () => {
      const s = await hostileBmc(() => ({ status: 200, body: {} }), { key: pki.serverKey, cert: pki.serverCert });
      const { err, logs } = await failureOf(s.url, (c) => c.getSystem(), { ca: pki.otherCaPem });
      expect(err.code).toBe("RACKFORM_ERR_TLS");
      expectClean(err, logs);
    });
  });
});
