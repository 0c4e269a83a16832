/**
 * The value formats props are checked against. Each accepts an unresolved cdktf token, because a token's value is only
 * known to the engine (a variable, another resource's attribute) and checking its placeholder text would be wrong.
 */
import { Token } from "cdktf";

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAC = /^[0-9A-Fa-f]{2}([:-])[0-9A-Fa-f]{2}(\1[0-9A-Fa-f]{2}){4}$/;
const SHA256 = /^[0-9a-f]{64}$/i;
const DURATION = /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;
const NODE_NAME = /^[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?$/;
const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** True for a string or number cdktf will only resolve at synth or apply. */
export const isToken = (v: unknown): boolean =>
  (typeof v === "string" || typeof v === "number") && Token.isUnresolved(v);

/** A dotted-quad IPv4 address with every octet in 0..255. */
export function isIpv4(s: string): boolean {
  const m = IPV4.exec(s);
  return m?.slice(1).every((o) => Number(o) <= 255) ?? false;
}

function parseUrl(s: string): URL | undefined {
  try {
    return new URL(s);
  } catch {
    return undefined;
  }
}

/** An absolute URL with one of `schemes` and a host (an IPv4 host must be a valid address). */
export function isUrl(s: string, schemes: readonly string[]): boolean {
  const u = parseUrl(s);
  if (!u || !schemes.includes(u.protocol.slice(0, -1)) || u.hostname === "") return false;
  // WHATWG URL parsing turns "10.0.0.300" into a host name rather than rejecting it.
  const host = /^[a-z]+:\/\/([^/:?#]+)/i.exec(s)?.[1] ?? "";
  return !/^[\d.]+$/.test(host) || isIpv4(host);
}

/** Milliseconds in a Go-style duration such as "72h" or "1h30m"; undefined when it is not one. */
export function durationMs(s: string): number | undefined {
  if (!DURATION.test(s)) return undefined;
  let ms = 0;
  for (const m of s.matchAll(DURATION_PART)) ms += Number(m[1]) * UNIT_MS[m[2]];
  return ms;
}

/** The formats the props schemas name, keyed by format name. */
export const FORMATS: Record<string, (s: string) => boolean> = {
  "bmc-address": (s) => isToken(s) || isIpv4(s) || isUrl(s, ["https", "http"]),
  "redfish-url": (s) => isToken(s) || isUrl(s, ["https", "http"]),
  "http-url": (s) => isToken(s) || isUrl(s, ["https", "http"]),
  mac: (s) => isToken(s) || MAC.test(s),
  sha256: (s) => isToken(s) || SHA256.test(s),
  duration: (s) => isToken(s) || (durationMs(s) ?? 0) >= 1000,
  interval: (s) => isToken(s) || durationMs(s) !== undefined,
  "node-name": (s) => isToken(s) || NODE_NAME.test(s),
};

/** The Redfish base URL for a BMC address: an IPv4 address gets https://, a URL is kept. */
export const bmcUrl = (address: string): string => (isIpv4(address) ? `https://${address}` : address);
