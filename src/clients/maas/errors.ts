/** MaasError: a MAAS-level failure with a stable code; facts such as the machine's status ride in `details`. */
import { type ClientErrorContext, type ErrorCode, isClientError, RackformClientError } from "../errors.js";

/** A MAAS failure; `code` says which (a MAAS code of ERROR_CODES). */
export class MaasError extends RackformClientError {
  readonly details: Readonly<Record<string, unknown>>;
  constructor(code: ErrorCode, message: string, ctx: ClientErrorContext = {}, details: Record<string, unknown> = {}) {
    super(code, message, ctx);
    this.name = "MaasError";
    this.details = details;
  }
}

/**
 * MAAS answers op=query_power_state with HTTP 503 when the power driver failed, relaying the driver's error; when that
 * error is the BMC's HTTP 401 the credentials MAAS holds were refused: RACKFORM_ERR_MAAS_POWER_DENIED. Any other
 * failure is returned as it was.
 */
export function powerQueryRefusal(e: unknown): unknown {
  if (!isClientError(e, "RACKFORM_ERR_HTTP_STATUS") || e.status !== 503) return e;
  if (!/\b401\b/.test(e.serverMessage ?? "")) return e;
  return new MaasError("RACKFORM_ERR_MAAS_POWER_DENIED", e.message, {
    method: e.method,
    url: e.url,
    status: e.status,
    headers: e.headers,
    serverMessage: e.serverMessage,
    attempts: e.attempts,
    cause: e,
  });
}
