/**
 * A refresh that fails for a reason that passes — the service did not answer, timed out, or answered 5xx/429 after
 * the client's retries — keeps the recorded state, with a warning naming the object and the evidence. Drift is never
 * destruction, and one node's unreachable BMC or a backend's 503 storm during a plan must not fail the plan of every
 * other node of the rack: the engine stops a whole plan at the first read error. What does not pass (credentials
 * refused, a malformed answer, a configuration error) stays an error: it needs a fix, and a plan must say so.
 */
import { isTransient } from "../../clients/classify.js";
import { isClientError } from "../../clients/errors.js";
import type { Diagnostics, ObjectValue, Value } from "../../framework/index.js";
import { OperationTimeoutError } from "./timeouts.js";

/** Whether a read's failure may pass by itself (the next plan reads again). */
export function isTransientReadError(e: unknown): boolean {
  return e instanceof OperationTimeoutError || isTransient(e);
}

/**
 * When `e` is transient: sets `resp.state` to the recorded state, adds the warning and returns true. `what` names the
 * object (e.g. `MAAS machine 4y3h7n`); `node`, when known, goes in the summary (the engines fold warnings that share
 * a summary into the first, so a per-node summary keeps each node's warning visible).
 */
export function holdOnTransientRead(
  resp: { state: Value; diagnostics: Diagnostics },
  recorded: ObjectValue,
  e: unknown,
  what: string,
  node?: string,
): boolean {
  if (!warnTransientRead(resp.diagnostics, e, what, node)) return false;
  resp.state = recorded;
  return true;
}

/** For typed handlers, which return the recorded state themselves: the warning of holdOnTransientRead, when `e` is transient. */
export function warnTransientRead(diags: Diagnostics, e: unknown, what: string, node?: string): boolean {
  if (!isTransientReadError(e)) return false;
  const code = isClientError(e) ? ` (${e.code})` : "";
  diags.warning(
    `Could not read; the recorded state stands: ${node || what}`,
    `${what}: ${(e as Error)?.message ?? String(e)}${code}\nNothing was changed, and this plan holds the values ` +
      "recorded by the last apply for it, so the rest of the rack is planned as usual. The next plan reads it again; " +
      "if this persists, check that the service answers.",
  );
  return true;
}
