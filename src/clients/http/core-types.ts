/** The HTTP core's request, response and option types (core.ts implements them). */
import type { Redactor } from "../redact.js";
import type { RetryPolicy } from "./retry.js";
import type { TlsOptions } from "./tls.js";

/** Options of an HttpCore; every field has a default. */
export interface HttpCoreOptions {
  /** Requests in flight per origin (also the pool's connection count). @default BMC_CONCURRENCY (4) */
  readonly maxConcurrentPerHost?: number;
  /** TCP+TLS connect timeout of one attempt. @default 10_000 */
  readonly connectTimeoutMs?: number;
  /** Time to the response headers of one attempt. @default 30_000 */
  readonly headersTimeoutMs?: number;
  /** Longest silence while the body streams. @default 30_000 */
  readonly bodyTimeoutMs?: number;
  /** Budget of one call, retries and backoff included. @default 120_000 */
  readonly totalTimeoutMs?: number;
  /** Idle keep-alive sockets are closed after this. @default 4_000 */
  readonly keepAliveTimeoutMs?: number;
  /** Retry bounds. @default { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 10_000 } */
  readonly retry?: RetryPolicy;
  /** CA bundle and the explicit `insecure` switch. @default the Node.js root store, verification on */
  readonly tls?: TlsOptions;
  /** Redactor every message and log line passes through; clients register their secrets on it. @default a new one */
  readonly redactor?: Redactor;
  /** Receives one line per attempt, retry and failure (already redacted). @default no logging */
  readonly log?: (line: string) => void;
  /** Source of jitter in [0, 1). @default Math.random */
  readonly random?: () => number;
  /** Waits between attempts. @default a timer that the request's signal interrupts */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock for deadlines and Retry-After dates. @default Date.now */
  readonly now?: () => number;
  /** User-Agent header. @default "rackform" */
  readonly userAgent?: string;
}

/** One request. */
export interface HttpRequest {
  readonly method: string;
  /** Absolute URL, without credentials. */
  readonly url: string | URL;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Headers made afresh for every attempt, e.g. an OAuth signature whose nonce a server accepts only once (MAAS
   * answers a repeated nonce with 401). Requests with them are not shared between concurrent callers.
   */
  readonly signPerAttempt?: () => Readonly<Record<string, string>>;
  /** Sent as JSON with Content-Type application/json. */
  readonly json?: unknown;
  /**
   * Raw body, when `json` is not used: bytes (an upload chunk), or a stream opened afresh for each attempt (an upload
   * too large to hold, e.g. a firmware image); give its length in a content-length header.
   */
  readonly body?: Body;
  /** Marks a non-idempotent method (POST, PATCH) as safe to repeat. @default true only for GET/HEAD/PUT/DELETE/OPTIONS */
  readonly idempotent?: boolean;
  readonly signal?: AbortSignal;
  /** Overrides the core's totalTimeoutMs for this call. */
  readonly totalTimeoutMs?: number;
  /** Statuses that are success. @default 200–299 */
  readonly okStatus?: (status: number) => boolean;
  /**
   * Drop the response body unread (at most 64 KiB is drained, then the connection is closed): for a probe such as a
   * ranged GET of an image, whose server may ignore the range and send gigabytes. The response's body is "".
   */
  readonly discardBody?: boolean;
}

/** A response whose body is still to be read (HttpCore.stream). */
export interface HttpStream {
  readonly status: number;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string>>;
  /** The body as it arrives; destroy it when not read to the end. */
  readonly body: AsyncIterable<Uint8Array> & { destroy(err?: Error): unknown };
}

/** A fully read response. */
export interface HttpResponse {
  readonly status: number;
  /** Header names in lower case; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  readonly method: string;
  /** The request URL (no credentials). */
  readonly url: string;
  /** Attempts it took. */
  readonly attempts: number;
}

/** The shared HTTP engine of all clients; create one per provider process and close it at the end. */
/** The origin of a URL, or the text itself when it does not parse (checkUrl reports that). */
export function originOf(url: string | URL): string {
  try {
    return new URL(String(url)).origin;
  } catch {
    return String(url);
  }
}

/** A request body: text, bytes, or a stream opened for each attempt. */
export type Body = string | Uint8Array | (() => AsyncIterable<Uint8Array>);

/** What one attempt of a request sends. */
export interface Attempt {
  readonly url: URL;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body: Body | undefined;
  readonly signal: AbortSignal;
  /** 1 for the first try. */
  readonly attempt: number;
  /** Read the body into nothing (a probe whose server may send gigabytes): the response body is "". */
  readonly discardBody: boolean;
}
