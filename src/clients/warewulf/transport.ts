/**
 * warewulfd API requests over the shared HTTP core: HTTP Basic (the password registered with the core's redactor,
 * raw and as the base64 header), JSON in and out, and warewulfd's refusals mapped to typed errors. The core retries
 * only idempotent methods; the create-only PUT (If-None-Match: *) is sent as non-idempotent, because a repeat after a
 * lost answer would be refused as "already exists".
 */
import type { ErrorCode } from "../errors.js";
import type { HttpCore, HttpResponse } from "../http/core.js";
import { WarewulfError, warewulfMessage } from "./errors.js";

/** Options of one request. */
export interface WarewulfSendOptions {
  readonly json?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Override the core's idempotency rule (false for a create-only PUT). */
  readonly idempotent?: boolean;
}

const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: "RACKFORM_ERR_WAREWULF_BAD_REQUEST",
  401: "RACKFORM_ERR_WAREWULF_AUTH",
  403: "RACKFORM_ERR_WAREWULF_FORBIDDEN",
  404: "RACKFORM_ERR_WAREWULF_NOT_FOUND",
  409: "RACKFORM_ERR_WAREWULF_BAD_REQUEST",
  422: "RACKFORM_ERR_WAREWULF_BAD_REQUEST",
};

/**
 * warewulfd refuses a create-only PUT of a node or profile that exists with 400 INVALID_ARGUMENT and the text
 * "node 'n1' already exists": the one place its wording is read, so callers branch on RACKFORM_ERR_WAREWULF_CONFLICT.
 */
function exists(status: number, serverMessage: string | undefined): boolean {
  return status === 400 && /already exists/i.test(serverMessage ?? "");
}

/** Sends requests to one warewulfd. */
export class WarewulfTransport {
  private readonly authorization: string;

  constructor(
    private readonly core: HttpCore,
    readonly origin: string,
    username: string,
    password: string,
  ) {
    core.redactor.addBasicAuth(username, password);
    this.authorization = `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`;
  }

  /** Sends an authenticated API request; 2xx is returned, a refusal thrown as a WarewulfError. */
  async send(method: string, path: string, o: WarewulfSendOptions = {}): Promise<HttpResponse> {
    const res = await this.core.request({
      method,
      url: new URL(path, this.origin).toString(),
      headers: { authorization: this.authorization, accept: "application/json", ...o.headers },
      json: o.json,
      signal: o.signal,
      idempotent: o.idempotent,
      // warewulfd's refusals are decoded here; 5xx other than its plain errors go to the core's retry and errors.
      okStatus: (s) => s < 400 || STATUS_CODES[s] !== undefined || s === 500,
    });
    if (res.status >= 200 && res.status < 300) return res;
    throw this.refusal(res);
  }

  /** An unauthenticated GET (warewulfd's /status is served outside the API). */
  plainGet(path: string, signal?: AbortSignal): Promise<HttpResponse> {
    return this.core.request({ method: "GET", url: new URL(path, this.origin).toString(), signal });
  }

  /** Parses a JSON response body (RACKFORM_ERR_HTTP_BAD_BODY when it is not JSON). */
  json<T>(res: HttpResponse): T {
    return this.core.parseJson<T>(res);
  }

  /** The typed error of a refusal, redacted. */
  refusal(res: HttpResponse): WarewulfError {
    const serverMessage = warewulfMessage(res.body);
    const code: ErrorCode = exists(res.status, serverMessage)
      ? "RACKFORM_ERR_WAREWULF_CONFLICT"
      : (STATUS_CODES[res.status] ?? "RACKFORM_ERR_HTTP_STATUS");
    const text = `warewulfd ${res.method} ${res.url}: HTTP ${res.status}${serverMessage ? `: ${serverMessage}` : ""}`;
    const r = (s: string) => this.core.redactor.redact(s);
    return new WarewulfError(code, r(text), {
      method: res.method,
      url: res.url,
      status: res.status,
      serverMessage: serverMessage === undefined ? undefined : r(serverMessage),
    });
  }
}
