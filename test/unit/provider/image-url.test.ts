/**
 * The apply-time check of rackform_deployment's image.url: a HEAD, a ranged GET when the server refuses HEAD, the
 * status named in words, credentials in the URL sent as basic auth but never shown, and the provider's CA trusted.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpCore } from "../../../src/clients/http/index.js";
import { backgroundContext, createLogger, Diagnostics, formatPath } from "../../../src/framework/index.js";
import { issueLabTls } from "../../../src/lab/redfish/tls.js";
import { imageUrlAnswersFor, probeImageUrl } from "../../../src/provider/resources/image-url.js";

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
}

let server: Server;
let base: string;
const seen: Seen[] = [];
const fast = { retry: { maxAttempts: 1 } };
const cores: HttpCore[] = [];
const core = (opts: ConstructorParameters<typeof HttpCore>[0] = fast) => {
  const c = new HttpCore(opts);
  cores.push(c);
  return c;
};
const probe = (c: HttpCore, url: string) => probeImageUrl(c, url, new AbortController().signal);

beforeAll(async () => {
  // /ok answers HEAD; /nohead refuses HEAD but serves ranges; /gone is 404; /nohead-gone refuses HEAD and 404s a GET.
  server = createServer((req, res) => {
    seen.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers });
    const p = req.url ?? "";
    if (p === "/ok.qcow2") return void res.writeHead(200, { "content-length": "10" }).end();
    if (p.startsWith("/nohead") && req.method === "HEAD") return void res.writeHead(405, { allow: "GET" }).end();
    if (p === "/nohead.qcow2") return void res.writeHead(206, { "content-range": "bytes 0-0/10" }).end("x");
    res.writeHead(404).end("not here");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(cores.map((c) => c.close()));
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("probeImageUrl", () => {
  it("accepts a URL that answers HEAD with 200, asking nothing else", async () => {
    seen.length = 0;
    expect(await probe(core(), `${base}/ok.qcow2`)).toBeUndefined();
    expect(seen.map((s) => s.method)).toEqual(["HEAD"]);
  });

  it("falls back to a one-byte ranged GET when the server refuses HEAD with 405", async () => {
    seen.length = 0;
    expect(await probe(core(), `${base}/nohead.qcow2`)).toBeUndefined();
    expect(seen.map((s) => `${s.method} ${s.headers.range ?? ""}`.trim())).toEqual(["HEAD", "GET bytes=0-0"]);
  });

  it("names the status of a missing image, and of both requests when HEAD was refused", async () => {
    expect(await probe(core(), `${base}/gone.qcow2`)).toBe(`HEAD ${base}/gone.qcow2 answered HTTP 404 (Not Found)`);
    expect(await probe(core(), `${base}/nohead-gone.qcow2`)).toBe(
      `HEAD ${base}/nohead-gone.qcow2 answered HTTP 405 (Method Not Allowed) and a ranged GET (Range: bytes=0-0) ` +
        "answered HTTP 404 (Not Found)",
    );
  });

  it("sends credentials in the URL as basic auth and never shows them", async () => {
    seen.length = 0;
    const c = core();
    const got = await probe(c, `http://mirror:s3cr%2Ft@127.0.0.1:${new URL(base).port}/gone.qcow2`);
    expect(seen[0].headers.authorization).toBe(`Basic ${Buffer.from("mirror:s3cr/t").toString("base64")}`);
    expect(got).toBe(`HEAD ${base}/gone.qcow2 answered HTTP 404 (Not Found)`);
    expect(c.redactor.redact("s3cr/t s3cr%2Ft")).not.toMatch(/s3cr/);
  });

  it("reports a refused connection in words, credentials redacted", async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, "127.0.0.1", r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const got = await probe(core(), `http://u:hunter2@127.0.0.1:${port}/x.qcow2`);
    expect(got).toContain(`HEAD http://127.0.0.1:${port}/x.qcow2: connection failed (ECONNREFUSED`);
    expect(got).not.toContain("hunter2");
  });

  it("verifies https against the provider's CA bundle: untrusted without it, answering with it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "rf-image-url-"));
    try {
      const tls = await issueLabTls(dir, ["127.0.0.1"]);
      const https = createHttpsServer({ key: tls.keyPem, cert: tls.certFor.get("127.0.0.1") }, (_req, res) =>
        res.writeHead(200).end(),
      );
      await new Promise<void>((r) => https.listen(0, "127.0.0.1", r));
      const url = `https://127.0.0.1:${(https.address() as AddressInfo).port}/ok.qcow2`;
      try {
        expect(await probe(core(), url)).toMatch(/TLS verification failed/);
        expect(await probe(core({ ...fast, tls: { ca: tls.caPem } }), url)).toBeUndefined();
      } finally {
        https.closeAllConnections();
        await new Promise((r) => https.close(r));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("imageUrlAnswersFor", () => {
  const check = (c: HttpCore, image: { url: string | null; check_url: boolean | null } | null) => {
    const diagnostics = new Diagnostics();
    const context = backgroundContext(undefined, createLogger({ level: "off" }));
    return imageUrlAnswersFor({ context, core: c, image, backendLabel: "Ironic", diagnostics }).then((ok) => ({
      ok,
      lines: diagnostics.items.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`),
    }));
  };

  it("asks nothing without a url, or with check_url = false", async () => {
    seen.length = 0;
    expect(await check(core(), null)).toEqual({ ok: true, lines: [] });
    expect(await check(core(), { url: `${base}/gone.qcow2`, check_url: false })).toEqual({ ok: true, lines: [] });
    expect(seen).toEqual([]);
  });

  it("passes a URL that answers, and fails one that does not on image.url", async () => {
    expect(await check(core(), { url: `${base}/ok.qcow2`, check_url: null })).toEqual({ ok: true, lines: [] });
    expect(await check(core(), { url: `${base}/gone.qcow2`, check_url: true })).toEqual({
      ok: false,
      lines: ["error Image URL does not answer @ image.url"],
    });
  });
});
