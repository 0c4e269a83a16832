/**
 * Polls sized to the work. A wait's next poll comes after a fraction of the time its step has taken so far, clamped
 * between a floor and a ceiling set by the step's expected duration, with jitter so that many waits started together
 * do not poll together. A 10 s power-on is polled about every second; a 15-minute deployment grows to one poll
 * every 30 s, and is noticed at most ~1/8 of its own duration (or the ceiling) after it ends.
 */

/** How a wait spaces its polls. */
export interface PollPace {
  /** The shortest interval (the first polls of a step). */
  readonly minMs: number;
  /** The longest interval: about 1/8 of the step's expected duration, so its end is noticed soon enough. */
  readonly maxMs: number;
  /** Fraction of the elapsed time waited before the next poll. @default 0.125 */
  readonly fraction?: number;
  /** Relative jitter, ± this fraction of the interval. @default 0.2 */
  readonly jitter?: number;
}

/** A fixed interval in milliseconds (tests inject short ones), or a pace. */
export type PollSpec = number | PollPace;

/** The wait before the next poll of a step that started `elapsedMs` ago; a number is used as it is. */
export function nextPollMs(spec: PollSpec, elapsedMs: number, random: () => number = Math.random): number {
  if (typeof spec === "number") return spec;
  const base = Math.min(spec.maxMs, Math.max(spec.minMs, elapsedMs * (spec.fraction ?? 0.125)));
  const jitter = spec.jitter ?? 0.2;
  return Math.max(1, Math.round(base * (1 + jitter * (2 * random() - 1))));
}
