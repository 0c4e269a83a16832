/** Bounding provider operations by the user's `timeouts` block and by StopProvider. */
import type { Context } from "../../framework/index.js";

/** The operation ran past its timeout; the message names the block to raise. */
export class OperationTimeoutError extends Error {
  override readonly name = "OperationTimeoutError";
  constructor(
    readonly what: string,
    readonly ms: number,
    readonly op: string,
  ) {
    super(`${what} did not finish within ${ms / 1000}s; raise timeouts.${op} if the device is just slow`);
  }
}

/** Runs `fn` with an AbortSignal that fires on timeout or on StopProvider; rejects with OperationTimeoutError on timeout. */
export async function bounded<T>(
  ctx: Context,
  ms: number,
  op: string,
  what: string,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const ac = new AbortController();
  const onStop = () => ac.abort(new Error("the run was cancelled (StopProvider)"));
  ctx.signal.addEventListener("abort", onStop, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const e = new OperationTimeoutError(what, ms, op);
      ac.abort(e);
      reject(e);
    }, ms);
  });
  const stopped = new Promise<never>((_, reject) => {
    ac.signal.addEventListener("abort", () => reject(ac.signal.reason), { once: true });
  });
  try {
    return await Promise.race([fn(ac.signal), timeout, stopped]);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener("abort", onStop);
  }
}
