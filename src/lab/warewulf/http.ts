/** Request and answer helpers of the lab warewulfd: swaggest/rest's error body, JSON reading, path matching. */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { Fields } from "./store.js";

/** A refusal as warewulfd's API sends it: `{"status": "<CANONICAL_CODE>", "error": "<message>"}`. */
export class ApiError extends Error {
  constructor(
    readonly httpStatus: number,
    /** swaggest's canonical status text, e.g. "INVALID_ARGUMENT"; absent for plain (500) errors. */
    readonly canonical: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export const invalid = (m: string) => new ApiError(400, "INVALID_ARGUMENT", m);
export const notFound = (m: string) => new ApiError(404, "NOT_FOUND", m);
export const internal = (m: string) => new ApiError(500, undefined, m);

/** One parsed request: method, decoded path segments after the prefix, headers, body text, query. */
export interface Req {
  readonly method: string;
  readonly parts: readonly string[];
  readonly headers: IncomingMessage["headers"];
  readonly query: URLSearchParams;
  readonly body: string;
}

/** The request body as JSON with a required object member `key` ({"node": {...}}, {"profile": {...}}). */
export function member(req: Req, key: string): Fields {
  let j: unknown;
  try {
    j = JSON.parse(req.body);
  } catch (e) {
    throw invalid(`failed to decode json: ${(e as Error).message}`);
  }
  const v = j !== null && typeof j === "object" ? (j as Record<string, unknown>)[key] : undefined;
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw invalid(`validation failed: body: missing properties: "${key}"`);
  }
  checkFields(v as Fields);
  return v as Fields;
}

/** The request body as a JSON object (image import). */
export function bodyObject(req: Req): Record<string, unknown> {
  try {
    const j = JSON.parse(req.body || "{}");
    if (j !== null && typeof j === "object" && !Array.isArray(j)) return j;
  } catch {
    // falls through
  }
  throw invalid("failed to decode json: expected an object");
}

const IP_KEYS = new Set(["ipaddr", "netmask", "gateway", "ipaddr6", "gateway6"]);
const V4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;

/** What Go's decoder refuses: IP fields (net.IP) that are not addresses, list fields that are not string lists. */
function checkFields(f: Fields, path = ""): void {
  for (const [k, v] of Object.entries(f)) {
    if (IP_KEYS.has(k) && typeof v === "string" && v !== "" && !V4.test(v) && !v.includes(":")) {
      throw invalid(`failed to decode json: invalid IP address: ${v} (${path}${k})`);
    }
    if (["profiles", "system overlay", "runtime overlay"].includes(k) && v !== undefined) {
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) {
        throw invalid(`failed to decode json: ${path}${k}: expected a list of strings`);
      }
    }
    if (v !== null && typeof v === "object" && !Array.isArray(v)) checkFields(v as Fields, `${path}${k}.`);
  }
}

/** Writes JSON (Go's encoder ends the document with a newline). */
export function sendJson(res: ServerResponse, status: number, body: unknown, date: string): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
    date,
  });
  res.end(text);
}

/** Writes net/http's plain-text error (http.Error). */
export function sendPlain(res: ServerResponse, status: number, text: string, date: string, extra = {}): void {
  const body = `${text}\n`;
  res.writeHead(status, {
    "content-type": "text/plain; charset=utf-8",
    "x-content-type-options": "nosniff",
    "content-length": Buffer.byteLength(body),
    date,
    ...extra,
  });
  res.end(body);
}

/** Writes an ApiError as swaggest does. */
export function sendError(res: ServerResponse, e: ApiError, date: string): void {
  sendJson(res, e.httpStatus, { ...(e.canonical ? { status: e.canonical } : {}), error: e.message }, date);
}
