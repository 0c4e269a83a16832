/**
 * The one error constructs throw: a props problem found at synth, before any engine runs, naming the construct path,
 * the bad value (never a secret) and the fix.
 */

import { inspect } from "node:util";

let printerInstalled = false;

/**
 * Under `cdktf synth` (which sets CDKTF_OUTDIR for the app), prints an uncaught RackformValidationError as its message
 * alone — `path: problem — fix`, one line per problem — and exits 1: node's default would add the throwing source
 * line, the library's stack frames and a dump of `problems`, all of which cdktf then echoes. RACKFORM_DEBUG=1 keeps
 * node's default. Installs one process-wide `uncaughtException` listener, once; outside synth (no CDKTF_OUTDIR, e.g.
 * tests) it does nothing. The library calls it where it throws (throwInvalid), so apps that never throw one are
 * untouched; an app may call it first thing instead. Any other uncaught error is printed whole, stack included.
 */
export function printValidationErrorsAtSynth(): void {
  if (printerInstalled || !process.env.CDKTF_OUTDIR || process.env.RACKFORM_DEBUG) return;
  printerInstalled = true;
  process.once("uncaughtException", (e: unknown) => {
    const text =
      e instanceof RackformValidationError ? `${e.name} (${e.code}):\n${e.message}` : inspect(e, { depth: 4 });
    process.stderr.write(`${text}\n`, () => process.exit(1));
  });
}

/** One problem with a construct's props: where, what is wrong, and how to fix it. */
export interface ValidationProblem {
  /** The construct path plus the field, e.g. `r12/nodes[3].bmc`. */
  readonly path: string;
  /** What is wrong, quoting the bad value unless it is a secret, e.g. `"10.0.0.300" is not an IPv4 address or URL`. */
  readonly problem: string;
  /** What to write instead, e.g. `use https://host[:port]`. */
  readonly fix: string;
}

/** Thrown at synth when a construct's props are invalid; `problems` lists every problem found, not only the first. */
export class RackformValidationError extends Error {
  /** Stable code, as the provider's RACKFORM_ERR_* codes. */
  readonly code = "RACKFORM_ERR_CONSTRUCT_INVALID";
  /** The path of the construct whose props are invalid. */
  readonly constructPath: string;
  /** Every problem found in the construct's props. */
  readonly problems: readonly ValidationProblem[];

  /** Builds the error; the message has one line per problem: `path: problem — fix`. */
  constructor(constructPath: string, problems: readonly ValidationProblem[]) {
    super(problems.map((p) => `${p.path}: ${p.problem} — ${p.fix}`).join("\n"));
    this.name = "RackformValidationError";
    this.constructPath = constructPath;
    this.problems = problems;
  }
}
