/**
 * The HTTP core and the Redfish client against real node:http(s) servers on 127.0.0.1 port 0 that misbehave:
 * throttling, resets, slowness, expired sessions, foreign CAs. Sleeps are injected, so no test waits on backoff.
 */
import { createServer } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { isClientError, RackformClientError } from "../../../src/clients/errors.js";
import { HttpCore, type HttpCoreOptions } from "../../../src/clients/http/core.js";
import { RedfishClient } from "../../../src/clients/redfish/client.js";
import { type FaultServer, type Hit, type Step, startFaultServer } from "../../support/clients/fault-server.js";
import { type MockupServer, requireFixtures, startMockup } from "../../support/clients/mockup-server.js";
import { makeTestPki, type TestPki } from "../../support/clients/tls.js";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function server(
  script: (hit: Hit, n: number) => Step,
  tls?: { key: string; cert: string },
): Promise<FaultServer> {
  const s = await startFaultServer(script, tls);
  closers.push(() => s.close());
  return s;
}

/** A core whose sleeps are recorded instead of waited. */
function core(opts: HttpCoreOptions = {}): { http: HttpCore; sleeps: number[] } {
  const sleeps: number[] = [];
  const http = new HttpCore({ random: () => 0.5, sleep: async (ms) => void sleeps.push(ms), ...opts });
  closers.push(() => http.close());
  return { http, sleeps };
}

describe("retries", () => {
  it("retries a GET after 503 with Retry-After in seconds, waiting what the server asked", async () => {
    const s = await server((_h, n) =>
      n === 1 ? { status: 503, headers: { "retry-after": "2" } } : { status: 200, body: { ok: true } },
    );
    const { http, sleeps } = core();
    expect(await http.getJson(`${s.url}/x`)).toEqual({ ok: true });
    expect(s.hits).toHaveLength(2);
    expect(sleeps).toEqual([2000]);
  });

  it("honours a Retry-After HTTP-date against the injected clock", async () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    const when = new Date(now + 3000).toUTCString();
    const s = await server((_h, n) =>
      n === 1 ? { status: 503, headers: { "retry-after": when } } : { status: 200, body: {} },
    );
    const { http, sleeps } = core({ now: () => now });
    await http.getJson(`${s.url}/x`);
    expect(sleeps).toEqual([3000]);
  });

  it("retries 429 within bounds, then fails with the status and the server's message", async () => {
    const s = await server(() => ({ status: 429, body: { error: { message: "Too many requests from this client" } } }));
    const { http, sleeps } = core({ retry: { maxAttempts: 3, baseDelayMs: 100 } });
    const err = await http.getJson(`${s.url}/busy`).then(unexpected, asClientError);
    expect(err).toBeInstanceOf(RackformClientError);
    expect(err).toMatchObject({
      code: "RACKFORM_ERR_HTTP_STATUS",
      status: 429,
      attempts: 3,
      serverMessage: "Too many requests from this client",
    });
    expect(err.message).toContain("Too many requests from this client");
    expect(s.hits).toHaveLength(3);
    expect(sleeps).toEqual([75, 150]); // equal jitter with random 0.5: 3/4 of 100, then of 200
  });

  it("gives up at once when Retry-After exceeds the overall budget", async () => {
    const s = await server(() => ({ status: 503, headers: { "retry-after": "3600" } }));
    const { http, sleeps } = core({ totalTimeoutMs: 10_000 });
    expect((await http.getJson(`${s.url}/x`).then(unexpected, asClientError)).status).toBe(503);
    expect(sleeps).toEqual([]);
  });

  it("does not retry a POST on 503 unless the caller marks it idempotent", async () => {
    const s = await server(() => ({ status: 503 }));
    const { http } = core({ retry: { maxAttempts: 3 } });
    await http.request({ method: "POST", url: `${s.url}/a`, json: {} }).catch(() => undefined);
    expect(s.hits).toHaveLength(1);
    await http.request({ method: "POST", url: `${s.url}/b`, json: {}, idempotent: true }).catch(() => undefined);
    expect(s.hits.filter((h) => h.path === "/b")).toHaveLength(3);
  });
});

describe("connection faults", () => {
  it("retries a GET after a connection reset", async () => {
    const s = await server((_h, n) => (n === 1 ? { reset: true } : { status: 200, body: { ok: 1 } }));
    const { http } = core();
    expect(await http.getJson(`${s.url}/x`)).toEqual({ ok: 1 });
    expect(s.hits).toHaveLength(2);
  });

  it("never repeats a POST whose connection was reset: the server sees it exactly once", async () => {
    const s = await server(() => ({ reset: true }));
    const { http } = core();
    const err = await http
      .request({ method: "POST", url: `${s.url}/Actions/Reset`, json: { ResetType: "On" } })
      .then(unexpected, asClientError);
    expect(err.code).toBe("RACKFORM_ERR_HTTP_CONNECT");
    expect(s.hits.filter((h) => h.method === "POST")).toHaveLength(1);
  });

  it("retries even a POST when the connection was refused (nothing was sent)", async () => {
    const port = await closedPort();
    const { http, sleeps } = core({ retry: { maxAttempts: 3 } });
    const err = await http
      .request({ method: "POST", url: `http://127.0.0.1:${port}/x`, json: {} })
      .then(unexpected, asClientError);
    expect(err).toMatchObject({ code: "RACKFORM_ERR_HTTP_CONNECT", attempts: 3 });
    expect(err.message).toContain("ECONNREFUSED");
    expect(sleeps).toHaveLength(2);
  });

  it("times out a slow response with RACKFORM_ERR_HTTP_TIMEOUT and does not hammer the server", async () => {
    const s = await server(() => ({ status: 200, body: {}, delayMs: 5_000 }));
    const { http } = core({ headersTimeoutMs: 200 });
    const err = await http.getJson(`${s.url}/slow`).then(unexpected, asClientError);
    expect(err).toMatchObject({ code: "RACKFORM_ERR_HTTP_TIMEOUT", phase: "headers" });
    expect(s.hits).toHaveLength(1);
  });

  it("enforces the overall timeout", async () => {
    const s = await server(() => ({ status: 200, body: {}, delayMs: 5_000 }));
    const { http } = core({ totalTimeoutMs: 200 });
    expect(await http.getJson(`${s.url}/slow`).then(unexpected, asClientError)).toMatchObject({
      code: "RACKFORM_ERR_HTTP_TIMEOUT",
      phase: "overall",
    });
  });

  it("stops when the caller aborts", async () => {
    const s = await server(() => ({ status: 200, body: {}, delayMs: 5_000 }));
    const { http } = core();
    const ac = new AbortController();
    const p = http.request({ method: "DELETE", url: `${s.url}/x`, signal: ac.signal }).then(unexpected, asClientError);
    setTimeout(() => ac.abort(), 50);
    expect((await p).code).toBe("RACKFORM_ERR_HTTP_ABORTED");
  });
});

describe("concurrency", () => {
  it("keeps at most maxConcurrentPerHost requests in flight (default 4 for a BMC)", async () => {
    const s = await server(() => ({ status: 200, body: {}, delayMs: 30 }));
    const { http } = core();
    await Promise.all(Array.from({ length: 20 }, (_, i) => http.getJson(`${s.url}/r${i}`)));
    expect(s.maxInFlight()).toBeLessThanOrEqual(4);
    expect(s.maxInFlight()).toBeGreaterThan(1);
  });

  it("honours a larger bound for a controller", async () => {
    const s = await server(() => ({ status: 200, body: {}, delayMs: 30 }));
    const { http } = core({ maxConcurrentPerHost: 16 });
    await Promise.all(Array.from({ length: 40 }, (_, i) => http.getJson(`${s.url}/r${i}`)));
    expect(s.maxInFlight()).toBeLessThanOrEqual(16);
    expect(s.maxInFlight()).toBeGreaterThan(4);
  });

  it("coalesces concurrent GETs of one URL into one request", async () => {
    const s = await server(() => ({ status: 200, body: { n: 1 }, delayMs: 30 }));
    const { http } = core();
    const all = await Promise.all(Array.from({ length: 5 }, () => http.getJson(`${s.url}/same`)));
    expect(all).toEqual(Array(5).fill({ n: 1 }));
    expect(s.hits).toHaveLength(1);
  });

  it("never lets a GET that follows a write join a GET that started before it (read after write)", async () => {
    // A slow list read is in flight; a write to the same origin completes; a read issued after the write must not
    // be answered by the older list, which cannot show the write.
    let state = "before";
    const s = await server((hit) => {
      if (hit.method === "POST") {
        state = "after";
        return { status: 204 };
      }
      return { status: 200, body: { state }, delayMs: hit.path === "/list" && state === "before" ? 80 : 0 };
    });
    const { http } = core();
    const old = http.getJson(`${s.url}/list`);
    await new Promise((r) => setTimeout(r, 10));
    await http.request({ method: "POST", url: `${s.url}/write`, json: {} });
    const fresh = await http.getJson(`${s.url}/list`);
    expect(await old).toEqual({ state: "before" });
    expect(fresh).toEqual({ state: "after" });
    expect(s.hits.filter((h) => h.path === "/list")).toHaveLength(2);
  });
});

describe("TLS", () => {
  let pki: TestPki;
  beforeAll(() => {
    pki = makeTestPki();
  });
  afterAll(() => pki.cleanup());
  const tlsServer = () =>
    server(() => ({ status: 200, body: { tls: true } }), { key: pki.serverKey, cert: pki.serverCert });

  it("verifies the server with a custom CA given as PEM text or as a file path", async () => {
    const s = await tlsServer();
    expect(await core({ tls: { ca: pki.caPem } }).http.getJson(`${s.url}/x`)).toEqual({ tls: true });
    expect(await core({ tls: { ca: pki.caFile } }).http.getJson(`${s.url}/y`)).toEqual({ tls: true });
  });

  it("fails with RACKFORM_ERR_TLS under the wrong CA, and under the default store", async () => {
    const s = await tlsServer();
    const wrong = await core({ tls: { ca: pki.otherCaPem } })
      .http.getJson(`${s.url}/x`)
      .then(unexpected, asClientError);
    expect(wrong.code).toBe("RACKFORM_ERR_TLS");
    expect((await core().http.getJson(`${s.url}/x`).then(unexpected, asClientError)).code).toBe("RACKFORM_ERR_TLS");
  });

  it("skips verification only when insecure is asked for", async () => {
    const s = await tlsServer();
    expect(await core({ tls: { insecure: true } }).http.getJson(`${s.url}/x`)).toEqual({ tls: true });
  });

  it("refuses a CA bundle that is neither PEM nor a readable file", () => {
    expect(() => new HttpCore({ tls: { ca: "/nonexistent/ca.pem" } })).toThrow(/cannot read CA bundle/);
  });
});

describe("Redfish sessions", () => {
  let bmc: MockupServer;
  beforeAll(async () => {
    bmc = await startMockup(join(requireFixtures(), "dmtf/mockups/public-rackmount1"), { password: "pw-1" });
  });
  afterAll(() => bmc.close());

  it("logs in again once when the session expired (401 after login), then succeeds", async () => {
    const c = new RedfishClient({ baseUrl: bmc.url, username: "admin", password: "pw-1" });
    closers.push(() => c.close());
    const logins = () => bmc.seen.filter((s) => s.method === "POST" && s.path.endsWith("/Sessions")).length;
    const before = logins();
    await c.getSystem();
    bmc.expireSessions();
    expect((await c.getSystem()).powerState).toBeDefined();
    expect(logins() - before).toBe(2);
  });

  it("fails with RACKFORM_ERR_REDFISH_AUTH on wrong credentials, with the BMC's message", async () => {
    const c = new RedfishClient({ baseUrl: bmc.url, username: "admin", password: "wrong" });
    closers.push(() => c.close());
    const err = await c.getSystem().then(unexpected, asClientError);
    expect(isClientError(err, "RACKFORM_ERR_REDFISH_AUTH")).toBe(true);
    expect(err.message).toContain("Invalid credentials for admin");
  });

  it("works with basic auth and creates no session", async () => {
    const c = new RedfishClient({ baseUrl: bmc.url, username: "admin", password: "pw-1", auth: "basic" });
    closers.push(() => c.close());
    const before = bmc.seen.filter((s) => s.method === "POST").length;
    expect((await c.getSystem()).id).toBe("437XR1138R2");
    expect(bmc.seen.filter((s) => s.method === "POST").length).toBe(before);
  });
});

/** Fulfilment of a call that must fail. */
function unexpected(): never {
  throw new Error("expected the call to fail");
}

/** The rejection of a call that must fail, typed for assertions. */
function asClientError(e: unknown): RackformClientError & { readonly phase?: string } {
  if (!(e instanceof RackformClientError)) throw new Error(`expected a RackformClientError, got ${String(e)}`);
  return e;
}

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}
