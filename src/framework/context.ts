/** The per-call context every handler receives: cancellation and logging. */
import { createLogger, type Logger } from "./logger.js";

/** Handed to every handler in its request. Pass `signal` to every HTTP call and long wait. */
export interface Context {
  /** Aborted when the engine calls StopProvider (e.g. the user pressed Ctrl-C). */
  readonly signal: AbortSignal;
  /** Writes hclog JSON lines to stderr. */
  readonly log: Logger;
  /** How many RPCs the server is serving right now, this one included; absent outside a server. */
  readonly inFlight?: () => number;
}

/** A context for tests and tools: never aborted unless a signal is given, logs to stderr. */
export function backgroundContext(
  signal: AbortSignal = new AbortController().signal,
  log?: Logger,
  inFlight?: () => number,
): Context {
  return { signal, log: log ?? createLogger(), ...(inFlight ? { inFlight } : {}) };
}
