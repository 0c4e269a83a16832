/**
 * Request rates per endpoint kind, from the lab's own request logs: how many requests each service received and the
 * most it received in any one second (a sliding window over arrival times, wall clock). Benches print them; the
 * control API serves them at GET /requests/rates.
 */

/** Requests one kind of endpoint received, and its peak rate. */
export interface RequestRate {
  readonly requests: number;
  /** The most requests that arrived within any 1,000 ms window. */
  readonly peakPerSecond: number;
}

/** The most arrivals within any `windowMs` (times in ms, any order). */
export function peakInWindow(times: readonly number[], windowMs = 1_000): number {
  const t = [...times].sort((a, b) => a - b);
  let peak = 0;
  for (let lo = 0, hi = 0; hi < t.length; hi++) {
    while (t[hi] - t[lo] >= windowMs) lo++;
    peak = Math.max(peak, hi - lo + 1);
  }
  return peak;
}

/** The rate of one log (entries with an arrival time), optionally only entries that arrived at or after `sinceMs`. */
export function rateOf(entries: readonly { readonly at: number }[], sinceMs = 0): RequestRate {
  const times = entries.filter((e) => e.at >= sinceMs).map((e) => e.at);
  return { requests: times.length, peakPerSecond: peakInWindow(times) };
}
