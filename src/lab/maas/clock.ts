/** Injectable time for the MAAS lab: long operations are timers, so tests can drive them without waiting. */

/** A source of time and one-shot timers; `setTimer` returns a function that cancels the timer. */
export interface LabClock {
  now(): number;
  setTimer(fn: () => void | Promise<void>, ms: number): () => void;
}

/** The wall clock (Date.now and setTimeout); timers are unref'd so a forgotten lab never holds the process open. */
export const systemClock: LabClock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(() => void fn(), ms);
    t.unref?.();
    return () => clearTimeout(t);
  },
};

/** A clock that only moves when told to; `advance` fires due timers in order and awaits what they start. */
export interface ManualClock extends LabClock {
  advance(ms: number): Promise<void>;
  /** Number of timers still waiting. */
  pending(): number;
}

interface Pending {
  at: number;
  seq: number;
  fn: () => void | Promise<void>;
}

/** Creates a ManualClock starting at `startMs` (default 2026-01-01T00:00:00Z). */
export function manualClock(startMs = Date.UTC(2026, 0, 1)): ManualClock {
  let current = startMs;
  let seq = 0;
  const timers: Pending[] = [];
  return {
    now: () => current,
    setTimer(fn, ms) {
      const entry = { at: current + Math.max(0, ms), seq: seq++, fn };
      timers.push(entry);
      return () => {
        const i = timers.indexOf(entry);
        if (i >= 0) timers.splice(i, 1);
      };
    },
    pending: () => timers.length,
    async advance(ms) {
      const target = current + ms;
      for (;;) {
        // Let work started by previous timers (power calls are promises) settle and schedule follow-ups.
        for (let i = 0; i < 20; i++) await new Promise<void>((r) => setImmediate(r));
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (!next || next.at > target) break;
        timers.shift();
        current = next.at;
        await next.fn();
      }
      current = target;
    },
  };
}
