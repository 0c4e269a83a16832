/**
 * The one poll helper of the test tree: call `probe` until it hands back a value, or fail naming what was awaited.
 * Used by unit, integration and e2e tests alike (no vitest import: a timeout is a thrown Error).
 */

/** How long to poll and how often. */
export interface UntilOptions {
  /** Give up after this long. @default 10_000 */
  readonly timeoutMs?: number;
  /** Pause between probes. @default 20 */
  readonly everyMs?: number;
}

/** What a probe hands back while the awaited thing has not happened yet. */
type NotYet = undefined | null | false;

/**
 * Polls `probe` until it returns something other than `undefined`, `null` or `false`, and returns that. A probe that
 * throws fails at once (a "failed early" check). After `timeoutMs` throws `timed out waiting for <what>`; `what` may
 * be a function, read only then, to name what was last seen.
 */
export async function until<T>(
  what: string | (() => string),
  probe: () => T | NotYet | Promise<T | NotYet>,
  opts: UntilOptions = {},
): Promise<T> {
  const { timeoutMs = 10_000, everyMs = 20 } = opts;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== null && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === "string" ? what : what()}`);
    await sleep(everyMs);
  }
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** The pace of e2e waits on what a lab's backend has noticed: every 50 ms for up to 45 s. */
export const POLL_E2E: UntilOptions = { timeoutMs: 45_000, everyMs: 50 };
