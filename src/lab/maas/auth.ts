/** OAuth 1.0 PLAINTEXT checking as MAAS's API does it (consumer key, token key, signature "&<token secret>"). */
import { timingSafeEqual } from "node:crypto";
import { MaasHttpError } from "./http-io.js";

/** One API credential: `consumer_key:token_key:token_secret`, owned by a user. */
export interface ApiCredential {
  consumerKey: string;
  tokenKey: string;
  tokenSecret: string;
  username: string;
}

/** Parses "consumer:token:secret" API keys; throws on a malformed key without echoing it. */
export function parseApiKeys(keys: readonly string[], username = "admin"): ApiCredential[] {
  return keys.map((key, i) => {
    const parts = key.split(":");
    if (parts.length !== 3 || parts.some((p) => p === "")) {
      throw new Error(`apiKeys[${i}] must have the form consumer_key:token_key:token_secret`);
    }
    return { consumerKey: parts[0], tokenKey: parts[1], tokenSecret: parts[2], username };
  });
}

const NECESSARY = [
  "oauth_consumer_key",
  "oauth_token",
  "oauth_signature",
  "oauth_signature_method",
  "oauth_timestamp",
  "oauth_nonce",
];

/** Parses an `Authorization: OAuth k="v", …` header; undefined when it is not OAuth. */
export function parseOAuthHeader(header: string | undefined): Record<string, string> | undefined {
  const h = (header ?? "").trim();
  if (!h.startsWith("OAuth")) return undefined;
  const out: Record<string, string> = {};
  for (const piece of h.slice(5).split(",")) {
    const i = piece.indexOf("=");
    if (i < 0) continue;
    const key = piece.slice(0, i).trim();
    const raw = piece
      .slice(i + 1)
      .trim()
      .replace(/^"|"$/g, "");
    try {
      out[key] = decodeURIComponent(raw);
    } catch {
      out[key] = raw;
    }
  }
  return out;
}

// RFC 5849 percent-encoding (what oauthlib applies to each secret before joining them with "&").
function oauthEscape(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Seen nonces per token, so a replayed request is refused as MAAS's OAuth store refuses it. */
export class NonceStore {
  private readonly seen = new Map<string, number>();
  constructor(private readonly windowMs = 300_000) {}
  /** Records a nonce; false when it was already used within the window. */
  use(tokenKey: string, nonce: string, timestamp: string, nowMs: number): boolean {
    if (this.seen.size > 10_000) {
      for (const [k, at] of this.seen) if (nowMs - at > 2 * this.windowMs) this.seen.delete(k);
    }
    const key = `${tokenKey}\n${timestamp}\n${nonce}`;
    if (this.seen.has(key)) return false;
    this.seen.set(key, nowMs);
    return true;
  }
  /** Seconds of allowed clock difference between client and region. */
  get thresholdSeconds(): number {
    return this.windowMs / 1000;
  }
}

/**
 * Authenticates a request; returns the credential, undefined for an anonymous request, or throws a 401/400 MaasHttpError
 * with MAAS's text. Deliberate deviation: MAAS echoes the token key and, for a bad PLAINTEXT signature, the expected
 * signature base string (which is the secret); the lab never puts either in a response.
 */
export function authenticate(
  header: string | undefined,
  creds: readonly ApiCredential[],
  nonces?: NonceStore,
  wallNowMs: number = Date.now(),
): ApiCredential | undefined {
  const params = parseOAuthHeader(header);
  if (params === undefined) return undefined;
  const missing = NECESSARY.filter((p) => params[p] === undefined);
  if (params.oauth_timestamp !== undefined && !/^-?\d+$/.test(params.oauth_timestamp)) {
    const problems = [...missing.map((p) => `${p} is missing`), "oauth_timestamp has an unexpected type"];
    throw new MaasHttpError(
      400,
      `Bad Request: the following problems were found among the auth params: ${problems.join(", ")}`,
    );
  }
  // MAAS does not report incomplete OAuth parameters; the request just stays unauthenticated (→ 401 challenge).
  if (missing.length > 0) throw unauthorizedChallenge();
  const consumer = creds.find((c) => c.consumerKey === params.oauth_consumer_key);
  if (!consumer) throw oauthError("Authorization Error: Invalid API key.");
  const cred = creds.find((c) => c.consumerKey === params.oauth_consumer_key && c.tokenKey === params.oauth_token);
  if (!cred) throw oauthError("Authorization Error: 'Invalid access token: …'");
  if (params.oauth_signature_method !== "PLAINTEXT") {
    throw oauthError(
      `Authorization Error: 'Signature method ${params.oauth_signature_method} not supported try one of the following: PLAINTEXT'`,
    );
  }
  const sig = params.oauth_signature;
  const expected = `&${oauthEscape(cred.tokenSecret)}`;
  if (!sameText(sig, expected) && !sameText(sig, `&${cred.tokenSecret}`)) {
    throw oauthError("Authorization Error: 'Invalid signature.'");
  }
  if (nonces) {
    // Timestamps are compared with the wall clock: clients sign with it, whatever the lab's simulated clock says.
    const now = Math.floor(wallNowMs / 1000);
    const ts = Number(params.oauth_timestamp);
    if (Math.abs(now - ts) > nonces.thresholdSeconds) {
      throw oauthError(
        `Authorization Error: 'Expired timestamp: given ${ts} and now ${now} has a greater difference than threshold ${nonces.thresholdSeconds}'`,
      );
    }
    if (!nonces.use(cred.tokenKey, params.oauth_nonce, params.oauth_timestamp, wallNowMs)) {
      throw oauthError("Authorization Error: 'Nonce already used.'");
    }
  }
  return cred;
}

function oauthError(message: string): MaasHttpError {
  return new MaasHttpError(401, message, { "WWW-Authenticate": 'OAuth realm=""' });
}

/** The 401 MAAS sends when a request needing a user carries no valid OAuth (piston's FORBIDDEN challenge). */
export function unauthorizedChallenge(): MaasHttpError {
  return new MaasHttpError(401, "Forbidden", { "WWW-Authenticate": 'OAuth realm="MAAS API"' });
}
