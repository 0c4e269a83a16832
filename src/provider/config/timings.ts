/**
 * How often the provider polls while it waits: a booting BMC, a backend's status (commissioning, deploying, testing,
 * releasing, a host powering on), a node registering with its scheduler or draining. The defaults are paces sized to
 * the work (clients/http/poll.ts): a poll after 1/8 of the time the step has taken so far, between a floor and a
 * ceiling, with ±20 % jitter — about every second for a power-on or a step of seconds, growing to every 30 s (MAAS,
 * Ironic) or 10 s (a BMC) during a 15-minute deployment or a long boot. Tests shorten them (see `timingsFromEnv`).
 */
import type { PollSpec } from "../../clients/http/poll.js";

/** Poll intervals of every wait: a fixed number of milliseconds (tests) or a pace. */
export interface ProviderTimings {
  /** Between two attempts to reach a BMC that is still booting (the client also retries each request). */
  readonly readyPollMs: PollSpec;
  /**
   * Between two reads of a host's power or firmware through its BMC while a reset the provider made takes effect
   * (firmware activation, a DPU's host cycle). Its floor is lower than a booting BMC's: a reset's power change is
   * over in seconds, one System read each time, and the next nodes of a roll poll densely around what the first took.
   */
  readonly hostPollMs?: PollSpec;
  /** Between two status reads of a machine in MAAS or Ironic during a long operation or a host power-on. */
  readonly backendPollMs: PollSpec;
  /** Between two reads of a cluster node while it registers or drains (scheduler reads share one list). */
  readonly memberPollMs: number;
  /**
   * How long a plain read (a refresh) may take a machine from a MAAS or Ironic list its process already holds; the
   * process's first write drops every list, and waits never use it. @default 30_000: a provider process lives for one
   * plan or apply, so every machine of a refresh comes from the same few lists (at most one list per node).
   */
  readonly refreshListMaxAgeMs?: number;
  /**
   * How long a deploy whose image its backend lacks waits for this process to begin putting it in place (a
   * rackform_image of the same apply: image-work.ts) before it goes ahead and lets the backend report what is missing.
   * @default 60_000: long enough for an engine to start an image's create it walks at the same time.
   */
  readonly imageUploadGraceMs?: number;
  /**
   * How long after the reset that activates staged firmware the inventory may take to report the new versions
   * (BMCs apply some images during POST and reboot again) before an update counts as not reached.
   * @default 1_200_000 (20 min)
   */
  readonly firmwareSettleMs?: number;
}

/** A host's reset: read every 250 ms at first, then every 1/8 of the time it has taken, at most every 10 s. */
export const DEFAULT_HOST_POLL: PollSpec = { minMs: 250, maxMs: 10_000 };

/**
 * Real hardware: a BMC boots in 1–3 min, so its polls grow to 10 s; commissioning, deployment and release take
 * 5–20 min, so backend polls grow to 30 s (a step is noticed at most ~1/8 of its duration, or 30 s, after it ends).
 */
export const DEFAULT_TIMINGS: ProviderTimings = {
  readyPollMs: { minMs: 1_000, maxMs: 10_000 },
  hostPollMs: DEFAULT_HOST_POLL,
  backendPollMs: { minMs: 1_000, maxMs: 30_000 },
  memberPollMs: 2_000,
};

/**
 * Test-only: `RACKFORM_TEST_POLL_MS=N` (1 ≤ N ≤ 5000) makes every poll interval N ms, so a test against the lab's fast
 * time profiles does not wait out intervals meant for real hardware. Read by the provider executable (src/main.ts);
 * unset, or not a number in range, it changes nothing. Not a user setting: it is not in the schema or the docs.
 */
export function timingsFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderTimings {
  const n = Number(env.RACKFORM_TEST_POLL_MS);
  if (!env.RACKFORM_TEST_POLL_MS || !Number.isInteger(n) || n < 1 || n > 5_000) return DEFAULT_TIMINGS;
  return {
    readyPollMs: n,
    hostPollMs: n,
    backendPollMs: n,
    memberPollMs: n,
    imageUploadGraceMs: 25 * n,
    firmwareSettleMs: 40 * n,
  };
}
