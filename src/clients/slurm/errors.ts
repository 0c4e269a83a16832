/** SlurmError: a slurmrestd-level failure with a stable code; Slurm's own `errors[]` ride in `slurmErrors`. */
import { type ClientErrorContext, type ErrorCode, RackformClientError } from "../errors.js";

/** One entry of slurmrestd's `errors[]` envelope (v0.0.41_openapi_error). */
export interface SlurmRestError {
  readonly error?: string;
  readonly error_number?: number;
  readonly description?: string;
  readonly source?: string;
}

/** A Slurm failure; `code` says which (the Slurm entries of ERROR_CODES). */
export class SlurmError extends RackformClientError {
  readonly slurmErrors: readonly SlurmRestError[];
  readonly details: Readonly<Record<string, unknown>>;
  constructor(
    code: ErrorCode,
    message: string,
    ctx: ClientErrorContext = {},
    slurmErrors: readonly SlurmRestError[] = [],
    details: Record<string, unknown> = {},
  ) {
    super(code, message, ctx);
    this.name = "SlurmError";
    this.slurmErrors = slurmErrors;
    this.details = details;
  }
}
