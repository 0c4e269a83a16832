/**
 * cmdaemon's JSON-RPC over the shared HTTP core: `POST <url>/json` with `{"service", "call", "args"}`, after a login
 * (`{"service":"login","username","password"}`, answered `true` with a `cm-login-token` cookie). A 401 means the call
 * did not run: the client logs in again once and repeats it. Reads may be retried by the core; writes never.
 * The password and every token are registered on the core's redactor.
 */
import type { HttpCore, HttpResponse } from "../http/core.js";
import { BcmError, bcmMessage } from "./errors.js";

/** Options of one call. */
export interface BcmCallOptions {
  readonly signal?: AbortSignal;
  /** The call only reads: the core may repeat it after a dropped connection or a 503. @default false */
  readonly read?: boolean;
}

const COOKIE = "cm-login-token";

/** Sends calls to one head node. */
export class BcmTransport {
  private token: string | undefined;
  private login: Promise<string> | undefined;
  readonly endpoint: string;

  constructor(
    private readonly core: HttpCore,
    url: string,
    private readonly username: string,
    private readonly password: string,
  ) {
    core.redactor.add(password);
    this.endpoint = new URL("json", url.endsWith("/") ? url : `${url}/`).toString();
  }

  /** Calls service.call(args…) and returns the parsed reply. */
  async call<T>(service: string, call: string, args: readonly unknown[], o: BcmCallOptions = {}): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const token = await this.session(o.signal);
      const res = await this.post({ service, call, args }, token, o);
      if (res.status === 401 && attempt === 1) {
        // The token expired (or cmdaemon restarted): log in again, once.
        if (this.token === token) this.token = undefined;
        this.core.log(`bcm ${service}.${call}: session refused; logging in again`);
        continue;
      }
      if (res.status === 401) throw this.refusal(res, "RACKFORM_ERR_BCM_AUTH", `${service}.${call}`);
      if (res.status < 200 || res.status >= 300)
        throw this.refusal(res, "RACKFORM_ERR_BCM_CALL_FAILED", `${service}.${call}`);
      const body = this.core.parseJson<T>(res);
      if (
        body &&
        typeof body === "object" &&
        !Array.isArray(body) &&
        typeof (body as { error?: unknown }).error === "string"
      ) {
        throw this.refusal(res, "RACKFORM_ERR_BCM_CALL_FAILED", `${service}.${call}`);
      }
      return body;
    }
  }

  /** Logs out (best effort); the next call logs in again. */
  async logout(signal?: AbortSignal): Promise<void> {
    const token = this.token;
    this.token = undefined;
    if (!token) return;
    await this.post({ service: "logout" }, token, { signal }).catch(() => undefined);
  }

  private session(signal?: AbortSignal): Promise<string> {
    if (this.token) return Promise.resolve(this.token);
    this.login ??= this.doLogin(signal).finally(() => {
      this.login = undefined;
    });
    return this.login;
  }

  private async doLogin(signal?: AbortSignal): Promise<string> {
    const res = await this.post({ service: "login", username: this.username, password: this.password }, undefined, {
      signal,
      read: true,
    });
    let ok = false;
    try {
      ok = res.status === 200 && JSON.parse(res.body) === true;
    } catch {
      ok = false;
    }
    const token = ok ? cookieValue(res.headers["set-cookie"] ?? "") : undefined;
    if (!token) throw this.refusal(res, "RACKFORM_ERR_BCM_AUTH", "login");
    this.core.redactor.add(token);
    this.token = token;
    return token;
  }

  private post(body: unknown, token: string | undefined, o: BcmCallOptions): Promise<HttpResponse> {
    return this.core.request({
      method: "POST",
      url: this.endpoint,
      json: body,
      headers: token ? { cookie: `${COOKIE}=${token}` } : {},
      idempotent: o.read === true,
      signal: o.signal,
      // cmdaemon's refusals are decoded here, where its error replies are understood.
      okStatus: (s) => s < 500 || s === 500,
    });
  }

  private refusal(
    res: HttpResponse,
    code: "RACKFORM_ERR_BCM_AUTH" | "RACKFORM_ERR_BCM_CALL_FAILED",
    what: string,
  ): BcmError {
    const why = bcmMessage(res.body);
    const hint = code === "RACKFORM_ERR_BCM_AUTH" ? "; check the BCM user name and password (bcm block)" : "";
    const err = new BcmError(code, `BCM ${what}: cmdaemon answered HTTP ${res.status}${why ? `: ${why}` : ""}${hint}`, {
      method: res.method,
      url: res.url,
      status: res.status,
      headers: res.headers,
      serverMessage: why,
      attempts: res.attempts,
    });
    return this.core.redactor.scrub(err);
  }
}

function cookieValue(setCookie: string): string | undefined {
  const m = new RegExp(`(?:^|[,;]\\s*)${COOKIE}=([^;,\\s]+)`).exec(setCookie);
  return m?.[1];
}
