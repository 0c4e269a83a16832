/** Polling a machine until it reaches a wanted status, failing fast on a failure status with MAAS's own words. */
import { abortedError } from "../http/failures.js";
import { nextPollMs, PollFailures, type PollSpec, type StepDurations } from "../http/poll.js";
import { abortableSleep } from "../http/retry.js";
import type { Redactor } from "../redact.js";
import { MaasError } from "./errors.js";
import { MAAS_FAILED_STATUSES, statusId, statusLabel } from "./status.js";
import type { MaasEvent, MaasMachine } from "./types.js";

/** Options of waitForStatus. */
export interface WaitForStatusOptions {
  /** Statuses (ids, enum names or labels) that end the wait with an error. @default every FAILED_* status not wanted */
  readonly failed?: readonly (number | string)[];
  /** @default 1_800_000 (30 min: commissioning and deployment of GPU servers are slow) */
  readonly timeoutMs?: number;
  /** A fixed interval, or a pace sized to the step (http/poll.ts). @default { minMs: 2_000, maxMs: 30_000 } */
  readonly pollMs?: PollSpec;
  readonly signal?: AbortSignal;
  /** Called when the status or status message changes. */
  readonly onProgress?: (m: MaasMachine) => void;
}

/** What the wait needs from the client. */
export interface WaitDeps {
  readonly read: (systemId: string) => Promise<MaasMachine>;
  readonly events: (systemId: string) => Promise<readonly MaasEvent[]>;
  readonly redactor: Redactor;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How long the same step took for other machines of this client: its polls are dense around that (http/poll.ts). */
  readonly steps?: StepDurations;
  /**
   * Resolves when the client learns, without a request of the wait's own, that the machine no longer reads as `seen`
   * (progressKey): a list another wait started showed it. The pause between polls ends then, so a step's end is
   * noticed when any list sees it, not at this wait's next poll (up to 1/8 of the step later). Dropped on `signal`.
   */
  readonly changed?: (systemId: string, seen: string, signal: AbortSignal) => Promise<void>;
}

/** What a wait reports progress on and wakes for: a machine's status and its status message. */
export function progressKey(m: MaasMachine): string {
  return `${m.status}\n${m.statusMessage}`;
}

function ids(list: readonly (number | string)[], what: string): Set<number> {
  return new Set(
    list.map((s) => {
      const id = statusId(s);
      if (id === undefined)
        throw new MaasError("RACKFORM_ERR_MAAS_BAD_REQUEST", `${what}: unknown MAAS status ${JSON.stringify(s)}`);
      return id;
    }),
  );
}

/** Resolves with the machine once its status is one of `wanted`; rejects with a typed MaasError otherwise. */
export async function waitForStatus(
  deps: WaitDeps,
  systemId: string,
  wanted: readonly (number | string)[],
  opts: WaitForStatusOptions = {},
): Promise<MaasMachine> {
  const want = ids(wanted, "wanted");
  const failed = opts.failed ? ids(opts.failed, "failed") : new Set(MAAS_FAILED_STATUSES.filter((s) => !want.has(s)));
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? abortableSleep;
  const timeoutMs = opts.timeoutMs ?? 1_800_000;
  const start = now();
  const deadline = start + timeoutMs;
  const pace = opts.pollMs ?? { minMs: 2_000, maxMs: 30_000 };
  const wantText = [...want].map(statusLabel).join(" or ");
  let seen = "";
  // The step's kind: the status the machine was first seen in, and what is waited for.
  let kind: string | undefined;
  const failures = new PollFailures(now);
  const pause = async () => {
    const expected = kind === undefined ? undefined : deps.steps?.expectedMs(kind);
    const ms = nextPollMs(pace, now() - start, Math.random, expected);
    // The pause ends early when the caller's signal aborts (an error) or when the machine is seen to change (a poll).
    const wake = new AbortController();
    const stop = () => wake.abort();
    opts.signal?.addEventListener("abort", stop, { once: true });
    if (opts.signal?.aborted) stop();
    deps.changed?.(systemId, seen, wake.signal).then(stop, () => {});
    try {
      await sleep(Math.min(ms, Math.max(0, deadline - now())), wake.signal);
    } catch (e) {
      if (opts.signal?.aborted || !wake.signal.aborted)
        throw abortedError(deps.redactor, { method: "GET", url: `machine ${systemId}` }, e);
    } finally {
      opts.signal?.removeEventListener("abort", stop);
      wake.abort();
    }
  };
  for (;;) {
    if (opts.signal?.aborted) throw abortedError(deps.redactor, { method: "GET", url: `machine ${systemId}` });
    let m: MaasMachine;
    try {
      m = await deps.read(systemId);
      failures.ok();
    } catch (e) {
      // A region busy with a fleet's waits may not answer one poll: the wait goes on (PollFailures says how long).
      failures.failed(e, deadline);
      await pause();
      continue;
    }
    const key = progressKey(m);
    if (key !== seen) {
      seen = key;
      opts.onProgress?.(m);
    }
    if (want.has(m.status)) {
      if (kind !== undefined) deps.steps?.record(kind, now() - start);
      return m;
    }
    kind ??= `${m.status}→${wantText}`;
    if (failed.has(m.status)) throw await failure(deps, m, wantText);
    if (now() >= deadline) {
      throw deps.redactor.scrub(
        new MaasError(
          "RACKFORM_ERR_MAAS_STATUS_TIMEOUT",
          `machine ${systemId} (${m.hostname}) is still ${m.statusName}${m.statusMessage ? ` (${m.statusMessage})` : ""} ` +
            `after ${timeoutMs} ms waiting for ${wantText}; raise the timeout or check the machine in MAAS`,
          {},
          { systemId, status: m.status, statusName: m.statusName, statusMessage: m.statusMessage },
        ),
      );
    }
    await pause();
  }
}

async function failure(deps: WaitDeps, m: MaasMachine, wantText: string): Promise<MaasError> {
  // The last events say why (e.g. "Failed to power on node — Node could not be powered on"); best effort only.
  const events = await deps.events(m.systemId).catch(() => [] as MaasEvent[]);
  const recent = events.slice(0, 5).map((e) => `${e.type}${e.description ? `: ${e.description}` : ""}`);
  const msg =
    `machine ${m.systemId} (${m.hostname}) reached ${m.statusName} while waiting for ${wantText}` +
    `${m.statusMessage ? `: ${m.statusMessage}` : ""}${recent.length ? `; last events: ${recent.join(" | ")}` : ""}`;
  return deps.redactor.scrub(
    new MaasError(
      "RACKFORM_ERR_MAAS_STATUS_FAILED",
      msg,
      {},
      {
        systemId: m.systemId,
        status: m.status,
        statusName: m.statusName,
        statusMessage: m.statusMessage,
        events: recent,
      },
    ),
  );
}
