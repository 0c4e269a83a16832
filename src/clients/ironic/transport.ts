/**
 * Ironic requests over the shared HTTP core: authentication, the negotiated X-OpenStack-Ironic-API-Version header,
 * Ironic's error bodies mapped to typed errors, and bounded retries of 409 NodeLocked (the conductor refused the
 * request before doing anything, so repeating it is safe for any method).
 */
import type { ErrorCode, RackformClientError } from "../errors.js";
import type { HttpCore, HttpResponse } from "../http/core.js";
import { abortableSleep, backoffMs } from "../http/retry.js";
import { IronicError, ironicMessage } from "./errors.js";
import { type MicroversionRange, negotiate } from "./microversion.js";

/** How the client authenticates. */
export type IronicAuth =
  | { readonly type: "noauth" }
  | { readonly type: "basic"; readonly username: string; readonly password: string }
  | { readonly type: "token"; readonly token: string };

/** Bounds of the NodeLocked retry. */
export interface LockRetryPolicy {
  /** Attempts in total. @default 10 */
  readonly maxAttempts?: number;
  /** @default 500 */
  readonly baseDelayMs?: number;
  /** @default 5_000 */
  readonly maxDelayMs?: number;
}

/** Options of one request. */
export interface IronicSendOptions {
  readonly json?: unknown;
  readonly signal?: AbortSignal;
  /** Statuses that are success besides 2xx (e.g. 404 for a delete). */
  readonly alsoOk?: readonly number[];
}

const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: "RACKFORM_ERR_IRONIC_BAD_REQUEST",
  401: "RACKFORM_ERR_IRONIC_AUTH",
  403: "RACKFORM_ERR_IRONIC_AUTH",
  404: "RACKFORM_ERR_IRONIC_NOT_FOUND",
  406: "RACKFORM_ERR_IRONIC_MICROVERSION",
  409: "RACKFORM_ERR_IRONIC_CONFLICT",
};

const LOCKED = /is locked by host|NodeLocked/i;

/** Sends requests to one Ironic API. */
export class IronicTransport {
  private version: Promise<string> | undefined;
  private range: MicroversionRange | undefined;

  constructor(
    private readonly core: HttpCore,
    readonly origin: string,
    private readonly auth: IronicAuth,
    private readonly opts: {
      readonly microversion?: string;
      readonly lockRetry?: LockRetryPolicy;
      readonly random?: () => number;
      readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
      /** Called before and after every request that is not a GET or HEAD (shared lists forget what they hold). */
      readonly onWrite?: () => void;
      /** Told about each NodeLocked retry (tests and logs). */
      readonly onLocked?: (info: {
        readonly attempt: number;
        readonly delayMs: number;
        readonly message: string;
      }) => void;
    } = {},
  ) {
    if (auth.type === "basic") core.redactor.addBasicAuth(auth.username, auth.password);
    if (auth.type === "token") core.redactor.add(auth.token);
  }

  /** The server's range, once negotiated. */
  get serverRange(): MicroversionRange | undefined {
    return this.range;
  }

  /** Reads GET / once and picks the microversion (pinned, or the highest both sides know). */
  microversion(signal?: AbortSignal): Promise<string> {
    this.version ??= this.discover(signal).catch((e) => {
      this.version = undefined;
      throw e;
    });
    return this.version;
  }

  /** Sends a request at the negotiated microversion; JSON bodies in and out. */
  async send(method: string, path: string, o: IronicSendOptions = {}): Promise<HttpResponse> {
    const version = await this.microversion(o.signal);
    return this.raw(method, path, { ...o, version });
  }

  /** Sends at an explicit microversion (no negotiation); used for discovery and to test a version. */
  async raw(method: string, path: string, o: IronicSendOptions & { readonly version?: string }): Promise<HttpResponse> {
    if (method === "GET" || method === "HEAD" || !this.opts.onWrite) return this.attempts(method, path, o);
    this.opts.onWrite();
    try {
      return await this.attempts(method, path, o);
    } finally {
      this.opts.onWrite();
    }
  }

  private async attempts(
    method: string,
    path: string,
    o: IronicSendOptions & { readonly version?: string },
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = { ...this.authHeaders() };
    if (o.version) headers["x-openstack-ironic-api-version"] = o.version;
    const policy = { maxAttempts: 10, baseDelayMs: 500, maxDelayMs: 5_000, ...this.opts.lockRetry };
    for (let attempt = 1; ; attempt++) {
      const res = await this.core.request({
        method,
        url: new URL(path, this.origin).toString(),
        headers,
        json: o.json,
        signal: o.signal,
        // Ironic's refusals are decoded here, where error_message is understood.
        okStatus: (s) => s < 400 || STATUS_CODES[s] !== undefined,
      });
      if ((res.status >= 200 && res.status < 300) || o.alsoOk?.includes(res.status)) return res;
      const err = this.refusal(res);
      if (res.status !== 409 || !LOCKED.test(err.serverMessage ?? "") || attempt >= policy.maxAttempts) throw err;
      const delayMs = backoffMs(attempt, policy, this.opts.random ?? Math.random);
      this.opts.onLocked?.({ attempt, delayMs, message: err.message });
      this.core.log(`ironic ${method} ${res.url}: node locked (attempt ${attempt}); retrying in ${delayMs} ms`);
      await (this.opts.sleep ?? abortableSleep)(delayMs, o.signal);
    }
  }

  /** Parses a JSON response body. */
  json<T>(res: HttpResponse): T {
    return this.core.parseJson<T>(res);
  }

  private async discover(signal?: AbortSignal): Promise<string> {
    const res = await this.raw("GET", "/", { signal });
    const root = this.core.parseJson<{ versions?: unknown; default_version?: unknown }>(res);
    const v1 = [...(Array.isArray(root.versions) ? root.versions : []), root.default_version].find(
      (v): v is { version: string; min_version: string } =>
        typeof v === "object" && v !== null && typeof (v as { version?: unknown }).version === "string",
    );
    const max = v1?.version ?? res.headers["x-openstack-ironic-api-maximum-version"];
    const min = v1?.min_version ?? res.headers["x-openstack-ironic-api-minimum-version"] ?? "1.1";
    if (!max) {
      throw new IronicError(
        "RACKFORM_ERR_IRONIC_BAD_PAYLOAD",
        `GET ${res.url}: the API root names no version; is this Ironic?`,
        {
          method: "GET",
          url: res.url,
          status: res.status,
        },
      );
    }
    this.range = { min, max };
    const chosen = negotiate(this.range, this.opts.microversion);
    this.core.log(`ironic ${this.origin}: server microversions [${min}, ${max}], using ${chosen}`);
    return chosen;
  }

  private authHeaders(): Record<string, string> {
    if (this.auth.type === "basic") {
      return {
        authorization: `Basic ${Buffer.from(`${this.auth.username}:${this.auth.password}`).toString("base64")}`,
      };
    }
    if (this.auth.type === "token") return { "x-auth-token": this.auth.token };
    return {};
  }

  private refusal(res: HttpResponse): RackformClientError {
    const why = ironicMessage(res.body);
    const code = STATUS_CODES[res.status];
    const min = res.headers["x-openstack-ironic-api-minimum-version"];
    const max = res.headers["x-openstack-ironic-api-maximum-version"];
    const range = res.status === 406 && min && max ? `; the supported range is [${min}, ${max}]` : "";
    const hint = code === "RACKFORM_ERR_IRONIC_AUTH" ? "; check the Ironic credentials (auth)" : "";
    const err = new IronicError(
      code,
      `${res.method} ${res.url}: Ironic answered HTTP ${res.status}${why ? `: ${why}` : ""}${range}${hint}`,
      {
        method: res.method,
        url: res.url,
        status: res.status,
        headers: res.headers,
        serverMessage: why,
        attempts: res.attempts,
      },
      res.status === 406 ? { min, max } : {},
    );
    return this.core.redactor.scrub(err);
  }
}
