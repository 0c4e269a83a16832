/** The conductor's waits on the injected clock: each can be cancelled all at once (stop) or by key (abort). */
import type { LabClock } from "../maas/clock.js";

class Aborted extends Error {}

/** Pending waits of one conductor. */
export class ConductorTimers {
  private readonly timers = new Set<() => void>();
  private readonly aborts = new Map<string, () => void>();

  constructor(private readonly clock: LabClock) {}

  /** Cancels every pending timer. */
  stop(): void {
    for (const cancel of this.timers) cancel();
    this.timers.clear();
  }

  /** Stops the wait registered under `abortKey`, which then rejects with "aborted"; nothing when none waits. */
  abort(abortKey: string): void {
    this.aborts.get(abortKey)?.();
  }

  /** Resolves after `ms` on the clock; with `abortKey`, `abort(abortKey)` can end it early. */
  sleep(ms: number, abortKey?: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const cancel = this.clock.setTimer(() => {
        this.timers.delete(cancel);
        if (abortKey) this.aborts.delete(abortKey);
        resolve();
      }, ms);
      this.timers.add(cancel);
      if (abortKey) {
        this.aborts.set(abortKey, () => {
          cancel();
          this.timers.delete(cancel);
          this.aborts.delete(abortKey);
          reject(new Aborted("aborted"));
        });
      }
    });
  }
}
