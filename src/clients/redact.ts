/**
 * Secret redaction. Every error message and log line of a client passes through a Redactor that knows every
 * secret the client holds (passwords, tokens, API keys, basic-auth headers), in the encodings a server might echo.
 */
import { RackformClientError } from "./errors.js";

const MASK = "[REDACTED]";

/** Headers whose values are credentials; dropped from error headers and never logged. */
export const SENSITIVE_HEADERS: ReadonlySet<string> = new Set([
  "authorization",
  "proxy-authorization",
  "x-auth-token",
  "cookie",
  "set-cookie",
  "x-api-key",
]);

/** Replaces every registered secret (and its URL-, JSON- and base64-encoded forms) with a mask. */
export class Redactor {
  private readonly secrets = new Set<string>();
  private sorted: string[] = [];

  /** Registers secrets; empty or undefined values are ignored. Returns this for chaining. */
  add(...secrets: (string | undefined | null)[]): this {
    for (const s of secrets) {
      if (!s) continue;
      for (const v of variants(s)) this.secrets.add(v);
    }
    // Longest first, so a secret that contains another is masked whole.
    this.sorted = [...this.secrets].sort((a, b) => b.length - a.length);
    return this;
  }

  /** Registers the credentials of HTTP basic auth: the password and the base64 `user:password` token. */
  addBasicAuth(username: string, password: string): this {
    return this.add(password, Buffer.from(`${username}:${password}`).toString("base64"));
  }

  /** Text with every known secret masked. */
  redact(text: string): string {
    let out = text;
    for (const s of this.sorted) if (out.includes(s)) out = out.split(s).join(MASK);
    return out;
  }

  /** True when the text contains no known secret. */
  isClean(text: string): boolean {
    return this.sorted.every((s) => !text.includes(s));
  }

  /** Headers safe to keep on an error or in a log: credentials dropped, values redacted. */
  headers(h: Readonly<Record<string, string>>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) if (!SENSITIVE_HEADERS.has(k.toLowerCase())) out[k] = this.redact(v);
    return out;
  }

  /** Makes an error safe to throw, in place: message, stack, server message, headers and causes redacted. */
  scrub<E extends Error>(err: E): E {
    const msg = this.redact(err.message);
    const stack = err.stack ? this.redact(err.stack) : undefined;
    Object.defineProperty(err, "message", { value: msg, writable: true, configurable: true, enumerable: false });
    if (stack !== undefined) {
      Object.defineProperty(err, "stack", { value: stack, writable: true, configurable: true, enumerable: false });
    }
    if (err instanceof RackformClientError) {
      const e = err as RackformClientError & {
        serverMessage?: string;
        resolution?: string;
        headers?: Record<string, string>;
      };
      if (e.serverMessage) Object.defineProperty(e, "serverMessage", { value: this.redact(e.serverMessage) });
      if (e.resolution) Object.defineProperty(e, "resolution", { value: this.redact(e.resolution) });
      if (e.headers) Object.defineProperty(e, "headers", { value: this.headers(e.headers) });
    }
    if (err.cause instanceof Error) this.scrub(err.cause);
    return err;
  }

  /** A redacted copy of a foreign error to use as a `cause`: keeps `code`, drops everything else. */
  cause(err: unknown): Error {
    const src = err instanceof Error ? err : new Error(String(err));
    const copy = new Error(this.redact(src.message));
    copy.name = src.name;
    const code = (src as { code?: unknown }).code;
    if (typeof code === "string") Object.assign(copy, { code });
    copy.stack = this.redact(`${copy.name}: ${copy.message}`);
    return copy;
  }
}

function variants(s: string): string[] {
  const out = new Set([s, encodeURIComponent(s), JSON.stringify(s).slice(1, -1)]);
  try {
    out.add(encodeURI(s));
  } catch {
    // Lone surrogates cannot be URI-encoded; the raw form is still registered.
  }
  return [...out].filter((v) => v.length > 0);
}

/** A URL as text without user-info, safe for messages. */
export function safeUrl(url: string | URL): string {
  try {
    const u = new URL(String(url));
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return "<invalid URL>";
  }
}
