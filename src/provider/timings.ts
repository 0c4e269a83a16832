/**
 * How often the provider polls while it waits: a booting BMC, a backend's status (commissioning, deploying, testing,
 * releasing), a node registering with its scheduler or draining. The defaults suit real hardware, where each of
 * these takes minutes and a poll costs the device a request. Tests shorten them (see `timingsFromEnv`).
 */
export interface ProviderTimings {
  /** Between two attempts to reach a BMC that is still booting (the client also retries each request). */
  readonly readyPollMs: number;
  /** Between two status reads of a machine in MAAS or Ironic during a long operation. */
  readonly backendPollMs: number;
  /** Between two reads of a cluster node while it registers or drains. */
  readonly memberPollMs: number;
}

export const DEFAULT_TIMINGS: ProviderTimings = { readyPollMs: 1_000, backendPollMs: 1_000, memberPollMs: 5_000 };

/**
 * Test-only: `RACKFORM_TEST_POLL_MS=N` (1 ≤ N ≤ 5000) makes every poll interval N ms, so a test against the lab's fast
 * time profiles does not wait out intervals meant for real hardware. Read by the provider executable (src/main.ts);
 * unset, or not a number in range, it changes nothing. Not a user setting: it is not in the schema or the docs.
 */
export function timingsFromEnv(env: NodeJS.ProcessEnv = process.env): ProviderTimings {
  const n = Number(env.RACKFORM_TEST_POLL_MS);
  if (!env.RACKFORM_TEST_POLL_MS || !Number.isInteger(n) || n < 1 || n > 5_000) return DEFAULT_TIMINGS;
  return { readyPollMs: n, backendPollMs: n, memberPollMs: n };
}
