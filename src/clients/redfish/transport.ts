/**
 * Authenticated Redfish requests over the shared HTTP core: session login (X-Auth-Token + Location) or basic
 * auth, token reuse, one re-login on 401, logout. Links are resolved against the BMC's own origin only.
 */
import { extractMessageInfo, extractServerMessage, HttpStatusError, isClientError, RedfishError } from "../errors.js";
import type { Body, HttpCore, HttpResponse } from "../http/core.js";
import { statusError } from "../http/failures.js";
import { busyError } from "./busy.js";
import { isObj, link } from "./parse.js";
import type { RedfishJson } from "./types.js";

/** How the client authenticates. */
export type RedfishAuthMode = "session" | "basic";

/** Options of one authenticated request. */
export interface SendOptions {
  readonly json?: unknown;
  /** A raw body (a firmware image's multipart stream, opened afresh per attempt) instead of `json`. */
  readonly body?: Body;
  /** Overrides the core's total timeout (a large upload). */
  readonly totalTimeoutMs?: number;
  readonly headers?: Readonly<Record<string, string>>;
  /** Lets the core retry a POST/PATCH; only for requests that are safe to repeat. */
  readonly idempotent?: boolean;
  readonly okStatus?: (status: number) => boolean;
  readonly signal?: AbortSignal;
}

/** The spec-mandated session collection, used only when the service root names none (DSP0266 §13.3.4). */
const SPEC_SESSIONS_PATH = "/redfish/v1/SessionService/Sessions";

/** Sends authenticated requests to one BMC. */
export class RedfishTransport {
  /** Service root URL. */
  readonly rootUrl: string;
  private token: string | undefined;
  private sessionUrl: string | undefined;
  private loggingIn: Promise<string | undefined> | undefined;
  private rootCache: Promise<RedfishJson> | undefined;
  private publicRootCache: Promise<RedfishJson | undefined> | undefined;
  /** Set when session login hit the BMC's session limit: basic auth is used from then on. */
  private basicFallback = false;

  constructor(
    private readonly core: HttpCore,
    readonly origin: string,
    private readonly auth: { readonly mode: RedfishAuthMode; readonly username: string; readonly password: string },
  ) {
    this.rootUrl = `${origin}/redfish/v1/`;
    core.redactor.add(auth.password);
    core.redactor.addBasicAuth(auth.username, auth.password);
  }

  /** An absolute URL for an @odata.id; refuses links to other hosts, which would receive our credentials. */
  resolve(ref: string): string {
    const u = new URL(ref, this.origin);
    if (u.origin !== this.origin) {
      throw new RedfishError(
        "RACKFORM_ERR_REDFISH_BAD_PAYLOAD",
        `the BMC at ${this.origin} links to another host (${u.origin}); rackform does not send credentials there`,
      );
    }
    return u.toString();
  }

  /** The service root, read once: without credentials as the spec allows, else (if refused) with them. */
  root(): Promise<RedfishJson> {
    this.rootCache ??= this.publicRoot()
      .then((r) => r ?? this.getJson(this.rootUrl))
      .catch((e) => {
        this.rootCache = undefined;
        throw e;
      });
    return this.rootCache;
  }

  /** Takes `root` (a service root an earlier read recorded) as this BMC's, without reading it; `forgetRoot` undoes it. */
  assumeRoot(root: RedfishJson): void {
    if (this.rootCache) return;
    const known = Promise.resolve(root);
    this.rootCache = known;
    this.publicRootCache = known;
  }

  /** Forgets the service root read or assumed: the next use reads it again. */
  forgetRoot(): void {
    this.rootCache = undefined;
    this.publicRootCache = undefined;
  }

  /** The service root read without credentials; undefined when the BMC wants them (some vendors do). */
  private publicRoot(): Promise<RedfishJson | undefined> {
    this.publicRootCache ??= this.core.getJson<RedfishJson>(this.rootUrl).catch((e) => {
      this.publicRootCache = undefined;
      if (isClientError(e, "RACKFORM_ERR_HTTP_STATUS") && (e.status === 401 || e.status === 403)) return undefined;
      throw e;
    });
    return this.publicRootCache;
  }

  /** GET a resource as JSON, with its ETag (header, else @odata.etag). */
  async get(ref: string, signal?: AbortSignal): Promise<{ json: RedfishJson; etag?: string }> {
    return this.parsed(await this.send("GET", ref, { signal }));
  }

  /** GET with If-None-Match when an ETag is given: "not-modified" on 304, else the resource as `get` returns it. */
  async getIfNoneMatch(
    ref: string,
    etag: string | undefined,
  ): Promise<"not-modified" | { json: RedfishJson; etag?: string }> {
    if (etag === undefined) return this.get(ref);
    const res = await this.send("GET", ref, {
      headers: { "if-none-match": etag },
      okStatus: (s) => (s >= 200 && s < 300) || s === 304,
    });
    return res.status === 304 ? "not-modified" : this.parsed(res);
  }

  private parsed(res: HttpResponse): { json: RedfishJson; etag?: string } {
    const json = this.core.parseJson<unknown>(res);
    if (!isObj(json)) {
      throw new RedfishError("RACKFORM_ERR_REDFISH_BAD_PAYLOAD", `GET ${res.url}: expected a JSON object`, {
        method: "GET",
        url: res.url,
      });
    }
    const etag = res.headers.etag ?? (typeof json["@odata.etag"] === "string" ? json["@odata.etag"] : undefined);
    return { json, etag };
  }

  /** GET a resource as JSON. */
  async getJson(ref: string, signal?: AbortSignal): Promise<RedfishJson> {
    return (await this.get(ref, signal)).json;
  }

  /**
   * An authenticated request; in session mode a 401 triggers one re-login and one resend. A refusal whose
   * registry MessageId means "busy" becomes RACKFORM_ERR_REDFISH_BMC_BUSY (see busy.ts).
   */
  async send(method: string, ref: string, opts: SendOptions = {}): Promise<HttpResponse> {
    try {
      return await this.sendOnce(method, ref, opts);
    } catch (e) {
      const busy = e instanceof HttpStatusError ? busyError(e) : undefined;
      throw busy ? this.core.redactor.scrub(busy) : e;
    }
  }

  private async sendOnce(method: string, ref: string, opts: SendOptions): Promise<HttpResponse> {
    const url = this.resolve(ref);
    const used = await this.credentials();
    try {
      return await this.core.request({ ...opts, method, url, headers: { ...opts.headers, ...used } });
    } catch (e) {
      if (!(e instanceof HttpStatusError) || e.status !== 401) throw e;
      if (this.auth.mode === "basic" || this.basicFallback) throw this.authError(e);
      // Another request may have re-logged in already; only drop the token we actually used.
      if (this.token === used["x-auth-token"]) this.token = undefined;
      this.core.log(`redfish ${this.origin}: session rejected (401); logging in again`);
      const again = await this.credentials();
      try {
        return await this.core.request({ ...opts, method, url, headers: { ...opts.headers, ...again } });
      } catch (e2) {
        if (e2 instanceof HttpStatusError && e2.status === 401) throw this.authError(e2);
        throw e2;
      }
    }
  }

  /** True while a session is open (the lab and tests check that logout really happens). */
  get hasSession(): boolean {
    return this.token !== undefined;
  }

  /** Creates a session now (session mode); a no-op in basic mode. */
  async login(): Promise<void> {
    await this.credentials();
  }

  /** Deletes the session, if any. Errors are logged, not thrown: the session times out on its own. */
  async logout(): Promise<void> {
    const token = this.token;
    const url = this.sessionUrl;
    this.token = undefined;
    this.sessionUrl = undefined;
    if (!token || !url) return;
    try {
      await this.core.request({
        method: "DELETE",
        url,
        headers: { "x-auth-token": token },
        okStatus: (s) => s < 300 || s === 404,
      });
    } catch (e) {
      this.core.log(`redfish ${this.origin}: logout failed (${(e as Error).message}); the session will time out`);
    }
  }

  private async credentials(): Promise<Record<string, string>> {
    const basic = () => {
      const b64 = Buffer.from(`${this.auth.username}:${this.auth.password}`).toString("base64");
      return { authorization: `Basic ${b64}` };
    };
    if (this.auth.mode === "basic" || this.basicFallback) return basic();
    if (this.token) return { "x-auth-token": this.token };
    this.loggingIn ??= this.createSession().finally(() => {
      this.loggingIn = undefined;
    });
    const token = await this.loggingIn;
    return token === undefined ? basic() : { "x-auth-token": token };
  }

  /**
   * A new session's token; undefined when basic auth is used instead: the BMC's session limit is reached, or its
   * service root names no SessionService (a BMC without sessions, e.g. sushy-tools' emulator, which answers the
   * unauthenticated login POST with 401 as it answers everything but the root).
   */
  private async createSession(): Promise<string | undefined> {
    const ref = await this.sessionsRef();
    if (ref === undefined) {
      this.basicFallback = true;
      this.core.log(`redfish ${this.origin}: the service root names no SessionService; using basic auth`);
      return undefined;
    }
    const url = this.resolve(ref);
    let res: HttpResponse;
    try {
      // A duplicate session from a retried login is harmless (it expires), so login may be repeated on 429/502.
      // A 503 is taken as it comes: it is how BMCs say "too many sessions", and waiting would not help.
      res = await this.core.request({
        method: "POST",
        url,
        json: { UserName: this.auth.username, Password: this.auth.password },
        idempotent: true,
        okStatus: (s) => s < 300 || s === 503,
      });
    } catch (e) {
      if (e instanceof HttpStatusError && (e.status === 401 || e.status === 403)) throw this.authError(e);
      throw e;
    }
    if (res.status === 503) {
      const text = `${extractMessageInfo(res.body).messageId ?? ""} ${extractServerMessage(res.body) ?? ""}`;
      if (!/session/i.test(text)) throw statusError(this.core.redactor, res, { method: "POST", url: res.url });
      this.basicFallback = true;
      this.core.log(`redfish ${this.origin}: session limit reached (503); using basic auth instead`);
      return undefined;
    }
    const token = res.headers["x-auth-token"];
    if (!token) {
      throw this.core.redactor.scrub(
        new RedfishError(
          "RACKFORM_ERR_REDFISH_SESSION",
          `POST ${res.url}: the BMC created no X-Auth-Token; try auth mode "basic"`,
          {
            method: "POST",
            url: res.url,
            status: res.status,
          },
        ),
      );
    }
    this.core.redactor.add(token);
    const body = safeJson(res.body);
    const location =
      res.headers.location ?? (isObj(body) && typeof body["@odata.id"] === "string" ? body["@odata.id"] : undefined);
    this.sessionUrl = location ? this.resolve(location) : undefined;
    this.token = token;
    this.core.log(`redfish ${this.origin}: session created${this.sessionUrl ? ` at ${this.sessionUrl}` : ""}`);
    return token;
  }

  /**
   * Where to POST a login; undefined when the service root, read without credentials, names no SessionService at all:
   * DSP0266 expects one, but emulators and some small BMCs leave sessions out, and a root without it offers none to
   * log in to. A root that wants credentials says nothing, so the spec's path is tried then.
   */
  private async sessionsRef(): Promise<string | undefined> {
    // Login cannot depend on an authenticated read of the root: that read would itself need the login.
    const root = await this.publicRoot().catch(() => undefined);
    if (!root) return SPEC_SESSIONS_PATH;
    const fromLinks = isObj(root.Links) ? link(root.Links, "Sessions") : undefined;
    if (fromLinks) return fromLinks;
    const svc = link(root, "SessionService");
    if (!svc) return undefined;
    const sessions = link(await this.core.getJson<RedfishJson>(this.resolve(svc)).catch(() => ({})), "Sessions");
    return sessions ?? SPEC_SESSIONS_PATH;
  }

  private authError(e: HttpStatusError): RedfishError {
    const why = e.serverMessage ? `: ${e.serverMessage}` : "";
    const err = new RedfishError(
      "RACKFORM_ERR_REDFISH_AUTH",
      `the Redfish service at ${this.origin} refused the credentials of user ${JSON.stringify(this.auth.username)} (HTTP ${e.status})${why}`,
      { method: e.method, url: e.url, status: e.status, headers: e.headers, serverMessage: e.serverMessage, cause: e },
    );
    return this.core.redactor.scrub(err);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
