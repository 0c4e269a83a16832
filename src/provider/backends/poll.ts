/** The status waits of the backend adapters: one loop that asks, and sleeps the poll pace between asks. */
import { nextPollMs, type PollSpec } from "../../clients/http/poll.js";
import { abortableSleep } from "../../clients/http/retry.js";

/** The pace of a wait and the signal that ends it (the operation's timeout or StopProvider). */
export interface PollOptions {
  readonly pollMs: PollSpec;
  readonly signal?: AbortSignal;
}

/**
 * Calls `step` (with the time since the first call) until it answers something other than undefined, sleeping the
 * poll pace between calls; a step that throws ends the wait with its error.
 */
export async function pollUntil<T>(o: PollOptions, step: (elapsedMs: number) => Promise<T | undefined>): Promise<T> {
  const start = Date.now();
  for (;;) {
    const answer = await step(Date.now() - start);
    if (answer !== undefined) return answer;
    await abortableSleep(nextPollMs(o.pollMs, Date.now() - start), o.signal);
  }
}
