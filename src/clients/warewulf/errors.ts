/** WarewulfError: a warewulfd-level failure with a stable code. */
import { type ClientErrorContext, type ErrorCode, RackformClientError } from "../errors.js";

/** A Warewulf failure; `code` says which (a Warewulf code of ERROR_CODES). */
export class WarewulfError extends RackformClientError {
  readonly details: Readonly<Record<string, unknown>>;
  constructor(code: ErrorCode, message: string, ctx: ClientErrorContext = {}, details: Record<string, unknown> = {}) {
    super(code, message, ctx);
    this.name = "WarewulfError";
    this.details = details;
  }
}

/**
 * warewulfd's explanation from an error body: the API (swaggest/rest) answers `{"status": "INVALID_ARGUMENT",
 * "error": "node 'n1' already exists"}`; the auth middleware and net/http answer plain text ("Unauthorized").
 */
export function warewulfMessage(body: string): string | undefined {
  try {
    const j = JSON.parse(body) as unknown;
    if (j !== null && typeof j === "object") {
      const o = j as Record<string, unknown>;
      if (typeof o.error === "string" && o.error) return o.error.slice(0, 1000);
      if (typeof o.status === "string" && o.status) return o.status;
    }
  } catch {
    // plain text
  }
  const t = body.trim();
  return t && !t.startsWith("<") ? t.slice(0, 1000) : undefined;
}
