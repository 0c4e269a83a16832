/**
 * Polls sized to the work. A wait's next poll comes after a fraction of the time its step has taken so far, clamped
 * between a floor and a ceiling set by the step's expected duration, with jitter so that many waits started together
 * do not poll together. A 10 s power-on is polled about every second; a 15-minute deployment grows to one poll
 * every 30 s, and is noticed at most ~1/8 of its own duration (or the ceiling) after it ends. Once peers in the same
 * process (the other machines of a stack, which run the same steps side by side) have finished a step of the same
 * kind, a wait knows about how long it takes: it keeps its pace until just before that, then polls four times as
 * often (down to a quarter of the floor) until a little after, so the end is noticed a small fraction of the step after
 * it happens, not up to 1/8 of it or a whole floor.
 */

import { isTransient } from "../classify.js";

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

/** Where, around the duration peers took, a wait polls densely: from 85 % to 150 % of it. */
export const EXPECTED_WINDOW = { from: 0.85, to: 1.5 } as const;

/**
 * The wait before the next poll of a step that started `elapsedMs` ago; a number is used as it is. `expectedMs`, the
 * duration peers took for the same step (StepDurations), makes the polls dense around it.
 */
export function nextPollMs(
  spec: PollSpec,
  elapsedMs: number,
  random: () => number = Math.random,
  expectedMs?: number,
): number {
  if (typeof spec === "number") return spec;
  const fraction = spec.fraction ?? 0.125;
  let base = Math.min(spec.maxMs, Math.max(spec.minMs, elapsedMs * fraction));
  if (expectedMs !== undefined && expectedMs > 0) {
    // Around the expected end the floor drops to a quarter too: a step of seconds, whose end the floor alone would
    // notice up to a whole floor late, is polled a few more times; a step of minutes never reaches that floor.
    const dense = spec.minMs / 4;
    const from = expectedMs * EXPECTED_WINDOW.from;
    if (elapsedMs < from) base = Math.max(dense, Math.min(base, from - elapsedMs));
    else if (elapsedMs < expectedMs * EXPECTED_WINDOW.to)
      base = Math.max(dense, Math.min(base, (elapsedMs * fraction) / 4));
  }
  const jitter = spec.jitter ?? 0.2;
  return Math.max(1, Math.round(base * (1 + jitter * (2 * random() - 1))));
}

/**
 * How long steps of each kind took in this process, by a kind the wait names (e.g. "Deploying→Deployed"): the median
 * of the last 32. One per client, so the machines of one stack teach each other and nothing is kept across runs.
 */
export class StepDurations {
  private readonly seen = new Map<string, number[]>();

  /** A step of `kind` ended `ms` after its wait began. */
  record(kind: string, ms: number): void {
    const list = this.seen.get(kind) ?? [];
    list.push(ms);
    if (list.length > 32) list.shift();
    this.seen.set(kind, list);
  }

  /** The median duration of the last steps of `kind`; undefined before one has ended. */
  expectedMs(kind: string): number | undefined {
    const list = this.seen.get(kind);
    if (!list?.length) return undefined;
    const sorted = [...list].sort((a, b) => a - b);
    return sorted[Math.floor((sorted.length - 1) / 2)];
  }
}

/**
 * Whether a failed request may pass by itself (clients/classify.ts's isTransient, under the name the waits use): a
 * region or API busy with a fleet's waits answers late; a refused credential or a malformed answer does not pass.
 */
export const isPassingFailure: (e: unknown) => boolean = isTransient;

/** How long a wait polls through passing failures in a row before it gives up with the last one. */
export const PASSING_FAILURES_LIMIT_MS = 300_000;

/**
 * A wait's record of failed polls: a passing failure is survived (the wait polls again at its pace) until failures in
 * a row have lasted `limitMs` or the wait's deadline is reached; any other failure ends the wait at once.
 */
export class PollFailures {
  private since: number | undefined;
  constructor(
    private readonly now: () => number,
    private readonly limitMs = PASSING_FAILURES_LIMIT_MS,
  ) {}

  /** A poll answered. */
  ok(): void {
    this.since = undefined;
  }

  /** A poll failed with `e`: returns when the wait may poll again, throws `e` otherwise. */
  failed(e: unknown, deadline: number): void {
    const t = this.now();
    this.since ??= t;
    if (!isPassingFailure(e) || t - this.since >= this.limitMs || t >= deadline) throw e;
  }
}
