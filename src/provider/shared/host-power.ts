/** A host's power as its own BMC reports it, for the resources that reset or power-cycle a host themselves. */
import { nextPollMs, type PollSpec, type StepDurations } from "../../clients/http/poll.js";
import { abortableSleep } from "../../clients/http/retry.js";
import type { RedfishClient } from "../../clients/redfish/index.js";

/** Whether a ComputerSystem PowerState means the host runs (or is starting). */
export const isHostOn = (p: string | null | undefined): boolean => p === "On" || p === "PoweringOn";

/**
 * How a wait on a host polls: its pace and what the hosts of this process took for the same step, so that after the
 * first node of a roll the others are polled densely around the time it took (clients/http/poll.ts).
 */
export interface HostPace {
  readonly pace: PollSpec;
  readonly steps: StepDurations;
}

/**
 * Polls until `done` answers true, paced by `p` for a step of `kind`; the signal ends the wait. Returns the last
 * answer's value. The step's duration is recorded for the next waits unless the answer says it ended without being
 * reached (`reached: false`: a deadline, a refusal), which would teach them a wrong duration.
 */
export async function pollHost<T>(
  p: HostPace,
  kind: string,
  signal: AbortSignal,
  look: () => Promise<{ done: boolean; value: T; reached?: boolean }>,
): Promise<T> {
  const start = performance.now();
  for (;;) {
    const r = await look();
    const elapsed = performance.now() - start;
    if (r.done) {
      if (r.reached !== false) p.steps.record(kind, elapsed);
      return r.value;
    }
    await abortableSleep(nextPollMs(p.pace, elapsed, Math.random, p.steps.expectedMs(kind)), signal);
  }
}

/** Polls the system's PowerState through its BMC until it reads `state`; the signal ends the wait. */
export async function waitHostPower(
  bmc: Pick<RedfishClient, "getSystem">,
  state: "On" | "Off",
  p: HostPace,
  signal: AbortSignal,
): Promise<void> {
  await pollHost(p, `host power ${state}`, signal, async () => ({
    done: (await bmc.getSystem()).powerState === state,
    value: undefined,
  }));
}
