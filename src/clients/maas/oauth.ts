/**
 * MAAS API authentication: OAuth 1.0a with the PLAINTEXT method. The API key is `consumer_key:token_key:token_secret`;
 * the consumer secret is empty, so the signature is `&` followed by the token secret (RFC 5849 §3.4.4).
 */
import { randomBytes } from "node:crypto";
import { ClientConfigError } from "../errors.js";

/** The three parts of a MAAS API key. */
export interface MaasCredentials {
  readonly consumerKey: string;
  readonly tokenKey: string;
  readonly tokenSecret: string;
}

/** Splits `consumer:token:secret`; the error never repeats the key. */
export function parseApiKey(apiKey: string): MaasCredentials {
  const parts = apiKey.split(":");
  if (parts.length !== 3 || parts.some((p) => p.trim() === "")) {
    throw new ClientConfigError(
      `apiKey: expected three non-empty parts "consumer_key:token_key:token_secret" (got ${parts.length} part(s)); ` +
        "copy it from the MAAS UI (user preferences → API keys) or `maas apikey --username USER`",
    );
  }
  const [consumerKey, tokenKey, tokenSecret] = parts.map((p) => p.trim());
  return { consumerKey, tokenKey, tokenSecret };
}

/** RFC 3986 percent-encoding as OAuth requires (unreserved characters kept). */
export function oauthEncode(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Clock and nonce source of a signature; injectable for tests. */
export interface OAuthSource {
  /** Seconds since the epoch. @default Date.now()/1000 */
  readonly nowSeconds?: () => number;
  /** A fresh nonce per request. @default 16 random bytes as hex */
  readonly nonce?: () => string;
}

/** The Authorization header value for one request. */
export function authorizationHeader(c: MaasCredentials, src: OAuthSource = {}): string {
  const ts = Math.floor(src.nowSeconds?.() ?? Date.now() / 1000);
  const nonce = src.nonce?.() ?? randomBytes(16).toString("hex");
  const params: [string, string][] = [
    ["oauth_version", "1.0"],
    ["oauth_signature_method", "PLAINTEXT"],
    ["oauth_consumer_key", oauthEncode(c.consumerKey)],
    ["oauth_token", oauthEncode(c.tokenKey)],
    // Consumer secret is empty: the signature is "&" + encoded token secret, exactly as MAAS documents it.
    ["oauth_signature", `&${oauthEncode(c.tokenSecret)}`],
    ["oauth_nonce", nonce],
    ["oauth_timestamp", String(ts)],
  ];
  return `OAuth realm="", ${params.map(([k, v]) => `${k}="${v}"`).join(", ")}`;
}
