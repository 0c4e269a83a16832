/** Builds the typed, redacted errors of the HTTP core from a response or a low-level failure. */
import {
  type ClientErrorContext,
  extractMessageInfo,
  extractServerMessage,
  HttpAbortedError,
  HttpConnectError,
  HttpStatusError,
  HttpTimeoutError,
  type RackformClientError,
  TlsError,
} from "../errors.js";
import type { Redactor } from "../redact.js";
import type { HttpResponse } from "./core.js";
import { errorCode } from "./retry.js";
import { isTlsError } from "./tls.js";

/** A non-success status, with the server's own message from the body. */
export function statusError(r: Redactor, res: HttpResponse, ctx: ClientErrorContext): HttpStatusError {
  const serverMessage = extractServerMessage(res.body, res.headers["content-type"]);
  const tries = ctx.attempts && ctx.attempts > 1 ? ` after ${ctx.attempts} attempts` : "";
  const msg = `${res.method} ${res.url} failed with HTTP ${res.status}${tries}${serverMessage ? `: ${serverMessage}` : ""}`;
  const info = extractMessageInfo(res.body);
  return r.scrub(
    new HttpStatusError(msg, { ...ctx, status: res.status, headers: res.headers, serverMessage, ...info }),
  );
}

/** A TLS, timeout or connection error from undici/node:net. */
export function transportError(
  r: Redactor,
  e: unknown,
  ctx: ClientErrorContext,
  limits: { readonly headersTimeoutMs: number; readonly bodyTimeoutMs: number },
): RackformClientError {
  const code = errorCode(e) ?? "unknown";
  const detail = e instanceof Error ? e.message : String(e);
  const where = `${ctx.method} ${ctx.url}`;
  const full: ClientErrorContext = { ...ctx, cause: r.cause(e) };
  let err: RackformClientError;
  if (isTlsError(e)) {
    err = new TlsError(
      `${where}: TLS verification failed (${code}: ${detail}); check the CA bundle (ca) or the host name`,
      full,
    );
  } else if (code === "UND_ERR_CONNECT_TIMEOUT") {
    err = new HttpTimeoutError(`${where}: connect timed out (${detail})`, "connect", full);
  } else if (code === "UND_ERR_HEADERS_TIMEOUT") {
    err = new HttpTimeoutError(`${where}: no response headers within ${limits.headersTimeoutMs} ms`, "headers", full);
  } else if (code === "UND_ERR_BODY_TIMEOUT") {
    err = new HttpTimeoutError(`${where}: response body stalled for ${limits.bodyTimeoutMs} ms`, "body", full);
  } else {
    err = new HttpConnectError(`${where}: connection failed (${code}: ${detail})`, full);
  }
  return r.scrub(err);
}

/** The overall budget of a call ran out; `cause` is the interrupted failure, if any. */
export function overallTimeout(r: Redactor, ctx: ClientErrorContext, ms: number, cause?: unknown): HttpTimeoutError {
  const err = new HttpTimeoutError(
    `${ctx.method} ${ctx.url}: no success within the overall timeout of ${ms} ms`,
    "overall",
    {
      ...ctx,
      cause: cause instanceof Error ? r.cause(cause) : undefined,
    },
  );
  return r.scrub(err);
}

/** The caller aborted. */
export function abortedError(r: Redactor, ctx: ClientErrorContext, cause?: unknown): HttpAbortedError {
  const err = new HttpAbortedError(`${ctx.method} ${ctx.url}: aborted by the caller`, {
    ...ctx,
    cause: cause instanceof Error ? r.cause(cause) : undefined,
  });
  return r.scrub(err);
}
