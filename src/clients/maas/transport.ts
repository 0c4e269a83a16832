/**
 * Signed MAAS requests over the shared HTTP core. GETs (reads, including `op=` reads) may be retried by the core;
 * POST operations never are once sent: a dropped connection becomes RACKFORM_ERR_MAAS_OUTCOME_UNKNOWN.
 */
import { type ErrorCode, extractServerMessage, isClientError, type RackformClientError } from "../errors.js";
import type { HttpCore, HttpResponse } from "../http/core.js";
import { classifyTransportError } from "../http/retry.js";
import { MaasError } from "./errors.js";
import { encodeForm, type Form } from "./form.js";
import { authorizationHeader, type MaasCredentials, type OAuthSource } from "./oauth.js";

const STATUS_CODES: Readonly<Record<number, ErrorCode>> = {
  400: "RACKFORM_ERR_MAAS_BAD_REQUEST",
  401: "RACKFORM_ERR_MAAS_AUTH",
  403: "RACKFORM_ERR_MAAS_FORBIDDEN",
  404: "RACKFORM_ERR_MAAS_NOT_FOUND",
  409: "RACKFORM_ERR_MAAS_CONFLICT",
};

/** Sends OAuth-signed requests to one MAAS region API (`…/MAAS/api/2.0/`). */
export class MaasTransport {
  constructor(
    private readonly core: HttpCore,
    /** The API root, ending in /api/2.0/. */
    readonly apiRoot: string,
    private readonly creds: MaasCredentials,
    private readonly oauth: OAuthSource = {},
  ) {}

  /** The absolute URL of an API path (relative to /api/2.0/) with a query. */
  url(path: string, query: Form = {}): string {
    const u = new URL(path.replace(/^\//, ""), this.apiRoot);
    const q = encodeForm(query);
    return q ? `${u.toString()}?${q}` : u.toString();
  }

  /** GET and parse JSON; `op` reads (e.g. query_power_state) pass it in `query`. */
  async get(path: string, query: Form = {}, signal?: AbortSignal): Promise<unknown> {
    const res = await this.send("GET", this.url(path, query), undefined, signal);
    return this.core.parseJson(res);
  }

  /** POST an operation (`?op=`) or a create (no op) with a form body; never repeated once sent. */
  async post(path: string, op: string | undefined, form: Form = {}, signal?: AbortSignal): Promise<unknown> {
    const res = await this.send("POST", this.url(path, op ? { op } : {}), form, signal);
    return this.core.parseJson(res);
  }

  /** POST an operation whose answer is plain text (e.g. boot-resources import); returns the text. */
  async postForText(path: string, op: string, form: Form = {}, signal?: AbortSignal): Promise<string> {
    return (await this.send("POST", this.url(path, { op }), form, signal)).body;
  }

  /** PUT (update) with a form body. */
  async put(path: string, form: Form, signal?: AbortSignal): Promise<unknown> {
    return this.core.parseJson(await this.send("PUT", this.url(path), form, signal));
  }

  /**
   * PUT raw bytes (application/octet-stream) to a path MAAS gave, e.g. a boot-resource file's upload_uri
   * (`/MAAS/api/2.0/boot-resources/{id}/upload/{file_id}/`); answers MAAS's text ("OK"). Never repeated once sent:
   * a repeated chunk would be appended twice.
   */
  async putBytes(uriPath: string, bytes: Uint8Array, signal?: AbortSignal): Promise<string> {
    const url = new URL(uriPath, this.apiRoot).toString();
    return (await this.send("PUT", url, undefined, signal, is2xx, bytes)).body;
  }

  /** DELETE; a 404 is success (already gone), so the call is safe to repeat. */
  async delete(path: string, signal?: AbortSignal): Promise<void> {
    await this.send("DELETE", this.url(path), undefined, signal, (s) => (s >= 200 && s < 300) || s === 404);
  }

  private async send(
    method: string,
    url: string,
    form: Form | undefined,
    signal?: AbortSignal,
    okStatus: (s: number) => boolean = is2xx,
    bytes?: Uint8Array,
  ): Promise<HttpResponse> {
    const headers: Record<string, string> = {};
    if (form) headers["content-type"] = "application/x-www-form-urlencoded";
    if (bytes) headers["content-type"] = "application/octet-stream";
    // A fresh OAuth nonce and timestamp for every attempt: MAAS refuses a repeated nonce ("Nonce already used.").
    const signPerAttempt = () => ({ authorization: authorizationHeader(this.creds, this.oauth) });
    let res: HttpResponse;
    try {
      res = await this.core.request({
        method,
        url,
        headers,
        signPerAttempt,
        body: bytes ?? (form ? encodeForm(form) : undefined),
        // POST ops change state (deploy, allocate, release…): the core must not repeat them after a drop or 503;
        // nor an upload chunk, which MAAS appends.
        idempotent: method !== "POST" && !bytes,
        signal,
        // MAAS's own refusals are read here, body included (field errors live in the body).
        okStatus: (s) => okStatus(s) || STATUS_CODES[s] !== undefined,
      });
    } catch (e) {
      if ((method === "POST" || bytes) && isClientError(e) && sentThenLost(e))
        throw this.core.redactor.scrub(outcomeUnknown(e));
      throw e;
    }
    if (okStatus(res.status)) return res;
    throw this.core.redactor.scrub(refusal(res));
  }
}

function is2xx(s: number): boolean {
  return s >= 200 && s < 300;
}

/**
 * MAAS checks an uploaded file's sha256 when its last byte arrives and refuses it with 400 "Saved content does not
 * match given SHA256 value.": the one place that wording is read, so callers branch on RACKFORM_ERR_MAAS_CHECKSUM.
 */
const CHECKSUM_REFUSAL = /does not match given SHA256/i;

function refusal(res: HttpResponse): MaasError {
  const detail = maasMessage(res.body, res.headers["content-type"]);
  const code =
    res.status === 400 && CHECKSUM_REFUSAL.test(detail ?? "") ? "RACKFORM_ERR_MAAS_CHECKSUM" : STATUS_CODES[res.status];
  const hint =
    code === "RACKFORM_ERR_MAAS_AUTH"
      ? "; check the API key (consumer_key:token_key:token_secret) and that its token is not revoked"
      : "";
  return new MaasError(
    code,
    `${res.method} ${res.url}: MAAS answered HTTP ${res.status}${detail ? `: ${detail}` : ""}${hint}`,
    {
      method: res.method,
      url: res.url,
      status: res.status,
      headers: res.headers,
      serverMessage: detail,
      attempts: res.attempts,
    },
  );
}

function outcomeUnknown(e: RackformClientError): MaasError {
  return new MaasError(
    "RACKFORM_ERR_MAAS_OUTCOME_UNKNOWN",
    `${e.method} ${e.url}: the connection was lost after the request was sent; rackform did not repeat it ` +
      "because MAAS may already have acted — read the machine's status before trying again",
    { method: e.method, url: e.url, attempts: e.attempts, cause: e },
  );
}

/** True when the request may have reached the server: dropped mid-flight, or no answer in time. */
function sentThenLost(e: RackformClientError): boolean {
  if (e.code === "RACKFORM_ERR_HTTP_TIMEOUT") return (e as { phase?: string }).phase !== "connect";
  if (e.code !== "RACKFORM_ERR_HTTP_CONNECT") return false;
  return classifyTransportError(e.cause) !== "before-send";
}

/** MAAS's explanation: per-field validation arrays (`{"hostname": ["…"]}`) or plain text. */
function maasMessage(body: string, contentType = ""): string | undefined {
  try {
    const j = JSON.parse(body) as unknown;
    if (typeof j === "object" && j !== null && !Array.isArray(j)) {
      const parts = Object.entries(j).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(" ") : String(v)}`);
      if (parts.length) return clip(parts.join("; "));
    }
  } catch {
    // Not JSON: MAAS answers most errors in plain text.
  }
  return extractServerMessage(body, contentType);
}

function clip(s: string): string {
  return s.length > 1000 ? `${s.slice(0, 1000)}…` : s;
}
