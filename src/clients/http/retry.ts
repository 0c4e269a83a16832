/** Retry policy of the HTTP core: what may be repeated, and how long to wait before the next attempt. */

/** Retry bounds. Every field has a default, so `{}` is a valid policy. */
export interface RetryPolicy {
  /** Attempts in total, the first included. @default 4 */
  readonly maxAttempts?: number;
  /** Delay before the first retry, doubled after each. @default 250 */
  readonly baseDelayMs?: number;
  /** Ceiling of one backoff delay (a server's Retry-After may ask for more, within the total budget). @default 10_000 */
  readonly maxDelayMs?: number;
}

/** Methods that are safe to repeat by definition (RFC 9110 §9.2.2). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(["GET", "HEAD", "PUT", "DELETE", "OPTIONS"]);

/** Statuses that say "not now, try later": retried for idempotent requests. */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** Error codes raised before any byte of the request left this host, so even a POST may be repeated. */
const NOTHING_SENT_CODES: ReadonlySet<string> = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
]);

/** Error codes of a dropped connection: the request may or may not have reached the server. */
const DROPPED_CODES: ReadonlySet<string> = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED", "UND_ERR_SOCKET"]);

/** How a transport failure relates to the request: `before-send` is safe to repeat for any method. */
export type TransportFailure = "before-send" | "dropped" | "other";

/** Classifies a low-level error from undici or node:net by its code (and the classic "socket hang up"). */
export function classifyTransportError(err: unknown): TransportFailure {
  const code = errorCode(err);
  if (code && NOTHING_SENT_CODES.has(code)) return "before-send";
  if (code && DROPPED_CODES.has(code)) return "dropped";
  if (err instanceof Error && /socket hang up|other side closed/i.test(err.message)) return "dropped";
  return "other";
}

/** The `code` of an error or of its `cause`, if any. */
export function errorCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/**
 * Milliseconds a Retry-After header asks for: delta-seconds or an HTTP-date (RFC 9110 §10.2.3).
 * Undefined when absent or unparseable; never negative.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}

/**
 * Backoff before retry number `retry` (1 for the first retry): exponential with "equal jitter" — half fixed,
 * half random — so concurrent clients spread out yet never retry instantly.
 */
export function backoffMs(retry: number, policy: Required<RetryPolicy>, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** The policy with defaults filled in, validated. */
export function resolvePolicy(p: RetryPolicy = {}): Required<RetryPolicy> {
  const r = { maxAttempts: p.maxAttempts ?? 4, baseDelayMs: p.baseDelayMs ?? 250, maxDelayMs: p.maxDelayMs ?? 10_000 };
  if (!Number.isInteger(r.maxAttempts) || r.maxAttempts < 1) {
    throw new RangeError(`retry.maxAttempts must be a positive integer, got ${p.maxAttempts}`);
  }
  return r;
}

/** A sleep that an AbortSignal interrupts (rejecting with the signal's reason). */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = (): void => {
      clearTimeout(t);
      reject(signal?.reason);
    };
    const t = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
