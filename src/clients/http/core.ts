/**
 * The HTTP core every rackform client shares: one undici Pool per origin with keep-alive, a per-host
 * concurrency bound, timeouts, retries that never silently repeat a non-idempotent request, TLS with a
 * custom CA, request coalescing of concurrent GETs, typed errors and redaction of every secret.
 */
import { Readable } from "node:stream";
import type { Pool } from "undici";

import {
  ClientConfigError,
  type ClientErrorContext,
  HttpBodyError,
  type RackformClientError,
  TlsError,
} from "../errors.js";
import { Redactor, safeUrl } from "../redact.js";
import {
  type Attempt,
  type HttpCoreOptions,
  type HttpRequest,
  type HttpResponse,
  type HttpStream,
  originOf,
} from "./core-types.js";
import { abortedError, overallTimeout, statusError, transportError } from "./failures.js";
import {
  abortableSleep,
  backoffMs,
  classifyTransportError,
  IDEMPOTENT_METHODS,
  parseRetryAfter,
  RETRYABLE_STATUSES,
  resolvePolicy,
} from "./retry.js";
import { Semaphore } from "./semaphore.js";
import { type ResolvedTls, resolveTls, type TlsOptions } from "./tls.js";

/**
 * undici, loaded on the first request: most of the engine's provider processes (its schema and validation ones, a
 * plan without refresh) send no HTTP request at all, and loading it is a measurable part of a process's start.
 */
let undici: Promise<{ Pool: typeof Pool }> | undefined;
const loadUndici = () => {
  // The bundled provider sees undici (CommonJS) through a dynamic import as a namespace with only `default`.
  undici ??= import("undici").then((m) => ({ Pool: m.Pool ?? (m as unknown as { default: typeof m }).default.Pool }));
  return undici;
};

export type { Body, HttpCoreOptions, HttpRequest, HttpResponse, HttpStream } from "./core-types.js";

/** Requests a BMC is asked to serve at once: BMCs are small embedded web servers. */
export const BMC_CONCURRENCY = 4;
/** Requests a controller (MAAS, Ironic, Slurm REST, Kubernetes API) is asked to serve at once. */
export const CONTROLLER_CONCURRENCY = 16;

export class HttpCore {
  /** Redactor of this core; clients add their secrets to it. */
  readonly redactor: Redactor;
  private readonly pools = new Map<string, { pool: Pool; gate: Semaphore }>();
  /** GETs in flight, shared by concurrent callers; `writes` is the write count of the origin when each started. */
  private readonly inflight = new Map<string, { p: Promise<HttpResponse>; writes: number }>();
  /** Per origin: writes (any other method) started so far; a GET never joins one that started before a write. */
  private readonly writes = new Map<string, number>();
  private readonly originSettings = new Map<string, { tls: ResolvedTls; limit: number }>();
  private readonly policy: ReturnType<typeof resolvePolicy>;
  private readonly tls: ResolvedTls;
  private readonly limit: number;

  constructor(private readonly opts: HttpCoreOptions = {}) {
    this.redactor = opts.redactor ?? new Redactor();
    this.policy = resolvePolicy(opts.retry);
    this.tls = resolveTls(opts.tls);
    this.limit = opts.maxConcurrentPerHost ?? BMC_CONCURRENCY;
    if (!Number.isInteger(this.limit) || this.limit < 1) {
      throw new ClientConfigError(`maxConcurrentPerHost must be a positive integer, got ${this.limit}`);
    }
  }

  /**
   * Per-origin TLS and concurrency, for a shared core serving BMCs with different CAs. Takes effect for new
   * connections: an existing pool of that origin is closed gracefully and re-created on the next request.
   */
  configureOrigin(
    origin: string | URL,
    settings: { readonly tls?: TlsOptions; readonly maxConcurrent?: number },
  ): void {
    const o = new URL(String(origin)).origin;
    const limit = settings.maxConcurrent ?? this.limit;
    if (!Number.isInteger(limit) || limit < 1) {
      throw new ClientConfigError(`maxConcurrent must be a positive integer, got ${limit}`);
    }
    this.originSettings.set(o, { tls: settings.tls ? resolveTls(settings.tls) : this.tls, limit });
    const old = this.pools.get(o);
    if (old) {
      this.pools.delete(o);
      void old.pool.close().catch(() => undefined);
    }
  }

  /** Sends a request with retries; resolves with a success response or rejects with a RackformClientError. */
  request(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method.toUpperCase();
    const origin = originOf(req.url);
    if (method !== "GET" || req.body !== undefined || req.json !== undefined || req.signPerAttempt) {
      // A write (and its completion) makes every GET in flight to its origin too old to share with later readers.
      if (method !== "GET" && method !== "HEAD") this.wrote(origin);
      const p = this.execute(req);
      if (method !== "GET" && method !== "HEAD")
        void p.then(
          () => this.wrote(origin),
          () => this.wrote(origin),
        );
      return p;
    }
    // Concurrent GETs of one URL with the same credentials share one request; each caller keeps its own signal.
    // A GET never joins one that started before a write to the same origin: it could not see that write.
    const key = `${String(req.url)}\n${JSON.stringify(Object.entries(req.headers ?? {}).sort())}`;
    const writes = this.writes.get(origin) ?? 0;
    let shared = this.inflight.get(key);
    if (!shared || shared.writes !== writes) {
      const entry = { p: this.execute({ ...req, signal: undefined }), writes };
      void entry.p.then(
        () => this.forget(key, entry),
        () => this.forget(key, entry),
      );
      this.inflight.set(key, entry);
      shared = entry;
    }
    return raceSignal(shared.p, req.signal, () =>
      abortedError(this.redactor, { method, url: safeUrl(req.url), attempts: 0 }),
    );
  }

  private wrote(origin: string): void {
    this.writes.set(origin, (this.writes.get(origin) ?? 0) + 1);
  }

  private forget(key: string, entry: { p: Promise<HttpResponse> }): void {
    if (this.inflight.get(key)?.p === entry.p) this.inflight.delete(key);
  }

  /**
   * One GET whose body is handed over unread, for downloads too large to hold (an image streamed into an upload).
   * No retries (a half-read body cannot be repeated); statuses are not judged: the caller reads `status` and must
   * consume or destroy `body`. The origin's TLS and concurrency apply; the slot is held until the body ends.
   */
  async stream(req: Omit<HttpRequest, "method" | "json" | "body" | "okStatus" | "discardBody">): Promise<HttpStream> {
    const url = this.checkUrl(req.url);
    const { pool, gate } = await this.poolFor(url.origin);
    const release = await gate.acquire(req.signal);
    try {
      this.log(`GET ${safeUrl(url)} (streamed)`);
      const res = await pool.request({
        path: url.pathname + url.search,
        method: "GET",
        headers: this.headersFor({ ...req, method: "GET" }),
        signal: req.signal,
        headersTimeout: this.limits.headersTimeoutMs,
        bodyTimeout: this.limits.bodyTimeoutMs,
      });
      res.body.once("close", release);
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k.toLowerCase()] = String(v);
      return { status: res.statusCode, headers: h, body: res.body };
    } catch (e) {
      release();
      const ctx: ClientErrorContext = { method: "GET", url: safeUrl(url), attempts: 1 };
      if (req.signal?.aborted) throw abortedError(this.redactor, ctx, e);
      throw transportError(this.redactor, e, ctx, this.limits);
    }
  }

  /** GET and parse JSON. */
  async getJson<T = unknown>(url: string | URL, init: Omit<HttpRequest, "method" | "url"> = {}): Promise<T> {
    return this.parseJson<T>(await this.request({ ...init, method: "GET", url }));
  }

  /** Parses a response body as JSON, or throws RACKFORM_ERR_HTTP_BAD_BODY. An empty body is `{}`. */
  parseJson<T = unknown>(res: HttpResponse): T {
    if (res.body.trim() === "") return {} as T;
    try {
      return JSON.parse(res.body) as T;
    } catch (e) {
      const err = new HttpBodyError(`${res.method} ${res.url}: response is not valid JSON (${(e as Error).message})`, {
        method: res.method,
        url: res.url,
        status: res.status,
      });
      throw this.redactor.scrub(err);
    }
  }

  /** Writes a redacted line to the log hook, if any. */
  log(line: string): void {
    this.opts.log?.(this.redactor.redact(line));
  }

  /** Closes every pool; in-flight requests finish first. */
  async close(): Promise<void> {
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.pool.close()));
  }

  private async execute(req: HttpRequest): Promise<HttpResponse> {
    const method = req.method.toUpperCase();
    const url = this.checkUrl(req.url);
    const shown = safeUrl(url);
    const now = this.opts.now ?? Date.now;
    const totalMs = req.totalTimeoutMs ?? this.opts.totalTimeoutMs ?? 120_000;
    const deadline = now() + totalMs;
    const overall = new AbortController();
    const timer = setTimeout(() => overall.abort(), totalMs);
    const signal = req.signal ? AbortSignal.any([req.signal, overall.signal]) : overall.signal;
    const repeatable = req.idempotent ?? IDEMPOTENT_METHODS.has(method);
    const { pool, gate } = await this.poolFor(url.origin);
    const headers = this.headersFor(req);
    const body = req.json !== undefined ? JSON.stringify(req.json) : req.body;
    try {
      for (let attempt = 1; ; attempt++) {
        const ctx: ClientErrorContext = { method, url: shown, attempts: attempt };
        let retryIn: number | undefined;
        let failure: RackformClientError;
        try {
          const signed = req.signPerAttempt ? { ...headers, ...lower(req.signPerAttempt()) } : headers;
          const one = { url, method, headers: signed, body, signal, attempt, discardBody: req.discardBody ?? false };
          const res = await this.attempt(pool, gate, one);
          if ((req.okStatus ?? is2xx)(res.status)) return res;
          failure = statusError(this.redactor, res, ctx);
          if (RETRYABLE_STATUSES.has(res.status) && repeatable) {
            retryIn = parseRetryAfter(res.headers["retry-after"], now()) ?? backoffMs(attempt, this.policy, this.rand);
          }
        } catch (e) {
          if (req.signal?.aborted) throw abortedError(this.redactor, ctx, e);
          if (overall.signal.aborted) throw overallTimeout(this.redactor, ctx, totalMs, e);
          failure = transportError(this.redactor, e, ctx, this.limits);
          const kind = classifyTransportError(e);
          if (!(failure instanceof TlsError) && (kind === "before-send" || (kind === "dropped" && repeatable))) {
            retryIn = backoffMs(attempt, this.policy, this.rand);
          }
        }
        if (retryIn === undefined || attempt >= this.policy.maxAttempts || now() + retryIn > deadline) {
          this.log(`${method} ${shown} failed after ${attempt} attempt(s): ${failure.message}`);
          throw failure;
        }
        this.log(
          `${method} ${shown} attempt ${attempt} failed (${failure.status ?? failure.code}); retrying in ${retryIn} ms`,
        );
        try {
          await (this.opts.sleep ?? abortableSleep)(retryIn, signal);
        } catch (e) {
          if (req.signal?.aborted) throw abortedError(this.redactor, ctx, e);
          throw overallTimeout(this.redactor, ctx, totalMs, e);
        }
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** One attempt of a request, within the origin's concurrency bound. */
  private async attempt(pool: Pool, gate: Semaphore, one: Attempt): Promise<HttpResponse> {
    const { url, method, headers, body, signal, attempt, discardBody } = one;
    const release = await gate.acquire(signal);
    try {
      this.log(`${method} ${safeUrl(url)} attempt ${attempt}`);
      const res = await pool.request({
        path: url.pathname + url.search,
        method: method as "GET",
        headers,
        body: typeof body === "function" ? Readable.from(body()) : body,
        signal,
        headersTimeout: this.limits.headersTimeoutMs,
        bodyTimeout: this.limits.bodyTimeoutMs,
      });
      const text = discardBody ? await res.body.dump({ limit: 65_536 }).then(() => "") : await res.body.text();
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) h[k.toLowerCase()] = String(v);
      this.log(`${method} ${safeUrl(url)} -> ${res.statusCode}`);
      return { status: res.statusCode, headers: h, body: text, method, url: safeUrl(url), attempts: attempt };
    } finally {
      release();
    }
  }

  private get limits() {
    return { headersTimeoutMs: this.opts.headersTimeoutMs ?? 30_000, bodyTimeoutMs: this.opts.bodyTimeoutMs ?? 30_000 };
  }

  private readonly rand = (): number => (this.opts.random ?? Math.random)();

  private async poolFor(origin: string): Promise<{ pool: Pool; gate: Semaphore }> {
    let entry = this.pools.get(origin);
    if (!entry) {
      const { Pool } = await loadUndici();
      // Another request to this origin may have made its pool while undici loaded.
      entry = this.pools.get(origin);
      if (entry) return entry;
      const { tls, limit } = this.originSettings.get(origin) ?? { tls: this.tls, limit: this.limit };
      const pool = new Pool(origin, {
        connections: limit,
        keepAliveTimeout: this.opts.keepAliveTimeoutMs ?? 4_000,
        connect: { timeout: this.opts.connectTimeoutMs ?? 10_000, ...tls },
      });
      entry = { pool, gate: new Semaphore(limit) };
      this.pools.set(origin, entry);
    }
    return entry;
  }

  private headersFor(req: HttpRequest): Record<string, string> {
    // (signPerAttempt headers are added per attempt in execute)
    const h: Record<string, string> = { accept: "application/json", "user-agent": this.opts.userAgent ?? "rackform" };
    if (req.json !== undefined) h["content-type"] = "application/json";
    for (const [k, v] of Object.entries(req.headers ?? {})) h[k.toLowerCase()] = v;
    return h;
  }

  private checkUrl(raw: string | URL): URL {
    let url: URL;
    try {
      url = new URL(String(raw));
    } catch {
      throw this.redactor.scrub(new ClientConfigError(`invalid URL ${JSON.stringify(String(raw))}`));
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw this.redactor.scrub(new ClientConfigError(`unsupported URL scheme ${url.protocol} in ${safeUrl(url)}`));
    }
    if (url.username || url.password) {
      throw this.redactor.scrub(
        new ClientConfigError(`credentials in the URL ${safeUrl(url)} are not sent; pass them as client options`),
      );
    }
    return url;
  }
}

function is2xx(status: number): boolean {
  return status >= 200 && status < 300;
}

function raceSignal<T>(p: Promise<T>, signal: AbortSignal | undefined, onAbort: () => Error): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = (): void => reject(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", abort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", abort);
        reject(e);
      },
    );
  });
}

/** Header names in lower case. */
function lower(h: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(h).map(([k, v]) => [k.toLowerCase(), v]));
}
