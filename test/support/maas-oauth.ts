/**
 * The MAAS API's Authorization header as python-oauthlib (libmaas, the MAAS CLI) sends it: OAuth 1.0 PLAINTEXT, consumer
 * secret empty, every value percent-encoded (so the signature reads `%26<token secret>`). Tests talking to the lab's
 * MAAS use this one; src/clients/maas's `authorizationHeader` writes the signature raw, as MAAS's docs show it, so the
 * lab is checked against both spellings.
 */
import { randomBytes } from "node:crypto";

/** The header for an API key `consumer:token:secret`, with a fresh nonce and the current time. */
export function oauthHeader(apiKey: string): string {
  const [consumer, token, secret] = apiKey.split(":");
  const fields = {
    oauth_version: "1.0",
    oauth_signature_method: "PLAINTEXT",
    oauth_consumer_key: consumer,
    oauth_token: token,
    oauth_signature: `&${secret}`,
    oauth_nonce: randomBytes(8).toString("hex"),
    oauth_timestamp: String(Math.floor(Date.now() / 1000)),
  };
  return `OAuth ${Object.entries(fields)
    .map(([k, v]) => `${k}="${encodeURIComponent(v)}"`)
    .join(", ")}`;
}
