/** MaasError: a MAAS-level failure with a stable code; facts such as the machine's status ride in `details`. */
import { type ClientErrorContext, type ErrorCode, RackformClientError } from "../errors.js";

/** A MAAS failure; `code` says which (a MAAS code of ERROR_CODES). */
export class MaasError extends RackformClientError {
  readonly details: Readonly<Record<string, unknown>>;
  constructor(code: ErrorCode, message: string, ctx: ClientErrorContext = {}, details: Record<string, unknown> = {}) {
    super(code, message, ctx);
    this.name = "MaasError";
    this.details = details;
  }
}
