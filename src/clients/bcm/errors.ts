/** BcmError: a cmdaemon-level failure with a stable code; its validation list rides in `validation`. */
import { type ClientErrorContext, type ErrorCode, RackformClientError } from "../errors.js";

/** One finding of cmdaemon's validation (addDevice/updateDevice/validateDevice). */
export interface BcmValidation {
  readonly field: string;
  readonly message: string;
  readonly errorCode: string;
  readonly severity: string;
}

/** A BCM failure; `code` says which (a BCM code of ERROR_CODES). */
export class BcmError extends RackformClientError {
  readonly validation: readonly BcmValidation[];
  constructor(
    code: ErrorCode,
    message: string,
    ctx: ClientErrorContext = {},
    validation: readonly BcmValidation[] = [],
  ) {
    super(code, message, ctx);
    this.name = "BcmError";
    this.validation = validation;
  }
}

/** The validation list of a reply (`[{field, message, error_code, severity}]`), tolerant of missing fields. */
export function parseValidation(v: unknown): BcmValidation[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter((x): x is Record<string, unknown> => x !== null && typeof x === "object")
    .map((x) => ({
      field: typeof x.field === "string" ? x.field : "",
      message: typeof x.message === "string" ? x.message : "",
      errorCode: typeof x.error_code === "string" ? x.error_code : "",
      severity: typeof x.severity === "string" ? x.severity : "ERROR",
    }));
}

/** "hostname: Hostname x is already used; mac: …" — the findings that are errors (warnings do not block). */
export function validationText(v: readonly BcmValidation[]): string {
  return v
    .filter((x) => x.severity !== "WARNING")
    .map((x) => (x.field ? `${x.field}: ${x.message}` : x.message))
    .join("; ");
}

/** cmdaemon's explanation in an error reply (`{"error": "…"}`), or the text itself. */
export function bcmMessage(body: string): string | undefined {
  try {
    const j: unknown = JSON.parse(body);
    if (j && typeof j === "object" && typeof (j as { error?: unknown }).error === "string") {
      return (j as { error: string }).error.slice(0, 1000);
    }
  } catch {
    const t = body.trim();
    return t && !t.startsWith("<") ? t.slice(0, 1000) : undefined;
  }
  return undefined;
}

/** cmdaemon reported a power operation FAILED for a node (it could not reach or log in to the node's BMC). */
export function powerFailed(op: string, uuid: string, message: string): BcmError {
  return new BcmError("RACKFORM_ERR_BCM_POWER_FAILED", `BCM power ${op} of ${uuid} failed: ${message}`);
}

/** A node did not report power on within the time allowed. */
export function powerTimeout(uuid: string): BcmError {
  return new BcmError("RACKFORM_ERR_BCM_POWER_TIMEOUT", `BCM device ${uuid} did not come up`);
}
