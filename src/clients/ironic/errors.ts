/** IronicError: an Ironic-level failure with a stable code; facts such as last_error ride in `details`. */
import { type ClientErrorContext, type ErrorCode, RackformClientError } from "../errors.js";

/** An Ironic failure; `code` says which (an Ironic code of ERROR_CODES). */
export class IronicError extends RackformClientError {
  readonly details: Readonly<Record<string, unknown>>;
  constructor(code: ErrorCode, message: string, ctx: ClientErrorContext = {}, details: Record<string, unknown> = {}) {
    super(code, message, ctx);
    this.name = "IronicError";
    this.details = details;
  }
}

/**
 * Ironic's explanation from an error body. Ironic wraps a JSON document in a string: `{"error_message":
 * "{\"faultstring\": \"…\"}"}` (WSME faults) or `{"error_message": "{\"code\": 406, \"description\": \"…\"}"}` (webob).
 */
export function ironicMessage(body: string): string | undefined {
  let j: unknown;
  try {
    j = JSON.parse(body);
  } catch {
    const t = body.trim();
    return t && !t.startsWith("<") ? t.slice(0, 1000) : undefined;
  }
  let inner: unknown = typeof j === "object" && j !== null ? (j as Record<string, unknown>).error_message : undefined;
  if (typeof inner === "string") {
    const text = inner;
    try {
      inner = JSON.parse(text);
    } catch {
      return text.slice(0, 1000);
    }
  }
  if (typeof inner === "object" && inner !== null) {
    const o = inner as Record<string, unknown>;
    for (const k of ["faultstring", "description", "title"])
      if (typeof o[k] === "string" && o[k]) return (o[k] as string).slice(0, 1000);
  }
  return undefined;
}
