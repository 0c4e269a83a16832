/** Polling a node until it settles in a wanted provision state, failing fast with Ironic's last_error. */
import { abortedError } from "../http/failures.js";
import { nextPollMs, PollFailures, type PollSpec, type StepDurations } from "../http/poll.js";
import { abortableSleep } from "../http/retry.js";
import type { Redactor } from "../redact.js";
import { IronicError } from "./errors.js";
import type { IronicNode } from "./types.js";

/** Provision states that mean the last transition failed. */
export const IRONIC_FAILED_STATES: readonly string[] = [
  "error",
  "deploy failed",
  "clean failed",
  "inspect failed",
  "rescue failed",
  "unrescue failed",
  "adopt failed",
  "service failed",
];

/** Options of waitForProvisionState. */
export interface WaitForProvisionOptions {
  /** States that end the wait with an error. @default IRONIC_FAILED_STATES */
  readonly failed?: readonly string[];
  /** @default 3_600_000 (deploy and cleaning of real servers take long) */
  readonly timeoutMs?: number;
  /** A fixed interval, or a pace sized to the step (http/poll.ts). @default { minMs: 2_000, maxMs: 30_000 } */
  readonly pollMs?: PollSpec;
  readonly signal?: AbortSignal;
  /** Called when provision_state or target_provision_state changes. */
  readonly onProgress?: (n: IronicNode) => void;
}

/** What the wait needs from the client. */
export interface ProvisionWaitDeps {
  readonly read: (id: string, signal?: AbortSignal) => Promise<IronicNode>;
  readonly redactor: Redactor;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** How long the same step took for other nodes of this client: its polls are dense around that (http/poll.ts). */
  readonly steps?: StepDurations;
}

/** Resolves once `provision_state` is `target` with no transition pending; rejects with a typed IronicError otherwise. */
export async function waitForProvisionState(
  deps: ProvisionWaitDeps,
  id: string,
  target: string,
  opts: WaitForProvisionOptions = {},
): Promise<IronicNode> {
  const failed = new Set(opts.failed ?? IRONIC_FAILED_STATES);
  const now = deps.now ?? Date.now;
  const timeoutMs = opts.timeoutMs ?? 3_600_000;
  const start = now();
  const deadline = start + timeoutMs;
  const pace = opts.pollMs ?? { minMs: 2_000, maxMs: 30_000 };
  let seen = "";
  let settledElsewhere = 0;
  // The step's kind: the state the node was first seen in, and the target.
  let kind: string | undefined;
  const failures = new PollFailures(now);
  const pause = async () => {
    try {
      const expected = kind === undefined ? undefined : deps.steps?.expectedMs(kind);
      const ms = Math.min(nextPollMs(pace, now() - start, Math.random, expected), Math.max(0, deadline - now()));
      await (deps.sleep ?? abortableSleep)(ms, opts.signal);
    } catch (e) {
      throw abortedError(deps.redactor, { method: "GET", url: `node ${id}` }, e);
    }
  };
  for (;;) {
    if (opts.signal?.aborted) throw abortedError(deps.redactor, { method: "GET", url: `node ${id}` });
    let n: IronicNode;
    try {
      n = await deps.read(id, opts.signal);
      failures.ok();
    } catch (e) {
      // An API busy with a fleet's waits may not answer one poll: the wait goes on (PollFailures says how long).
      failures.failed(e, deadline);
      await pause();
      continue;
    }
    const key = `${n.provisionState}>${n.targetProvisionState}`;
    if (key !== seen) {
      seen = key;
      opts.onProgress?.(n);
    }
    const settled = !n.targetProvisionState;
    if (n.provisionState === target && settled) {
      if (kind !== undefined) deps.steps?.record(kind, now() - start);
      return n;
    }
    kind ??= `${n.provisionState}>${target}`;
    if (n.provisionState && failed.has(n.provisionState)) throw fail(deps, n, target, `entered ${n.provisionState}`);
    // A failed verify/manage or an aborted transition settles back in a stable state (e.g. enroll) with last_error.
    settledElsewhere = settled ? settledElsewhere + 1 : 0;
    if (settledElsewhere >= 2) throw fail(deps, n, target, `settled in ${n.provisionState}`);
    if (now() >= deadline) {
      throw deps.redactor.scrub(
        new IronicError(
          "RACKFORM_ERR_IRONIC_PROVISION_TIMEOUT",
          `node ${label(n)} is still ${n.provisionState}${n.targetProvisionState ? ` → ${n.targetProvisionState}` : ""} after ` +
            `${timeoutMs} ms waiting for ${target}; raise the timeout or inspect the node in Ironic`,
          {},
          details(n),
        ),
      );
    }
    await pause();
  }
}

function label(n: IronicNode): string {
  return n.name ? `${n.name} (${n.uuid})` : n.uuid;
}

function details(n: IronicNode): Record<string, unknown> {
  return {
    uuid: n.uuid,
    provisionState: n.provisionState,
    targetProvisionState: n.targetProvisionState ?? null,
    lastError: n.lastError ?? null,
  };
}

function fail(deps: ProvisionWaitDeps, n: IronicNode, target: string, what: string): IronicError {
  const why = n.lastError ? `: ${n.lastError}` : " (Ironic recorded no last_error)";
  return deps.redactor.scrub(
    new IronicError(
      "RACKFORM_ERR_IRONIC_PROVISION_FAILED",
      `node ${label(n)} ${what} while waiting for ${target}${why}`,
      {},
      details(n),
    ),
  );
}
