/**
 * What the lab does to a GET's body before it is sent: `$expand` (DSP0266, clause "Query parameters", the `*`, `.`
 * and `~` options with `$levels`) and ETags (DSP0266, clause "ETags": an `ETag` header and `@odata.etag`, and
 * `If-None-Match` answered with 304 and no body). A BMC can be switched to have neither (quirks `no-expand-query`,
 * `no-etags`), as many shipping BMCs have: it then ignores `$expand` and never sends an ETag.
 */
import { createHash } from "node:crypto";

/** Deepest `$levels` the lab's BMCs expand (advertised as ExpandQuery.MaxLevels). */
export const MAX_EXPAND_LEVELS = 6;

/** The service root's ExpandQuery object of a BMC that supports `$expand`. */
export const EXPAND_QUERY_SUPPORT = {
  ExpandAll: true,
  Levels: true,
  Links: true,
  NoLinks: true,
  MaxLevels: MAX_EXPAND_LEVELS,
} as const;

/** A parsed `$expand`: which hyperlinks (`*` all, `.` outside Links, `~` inside Links) and how many levels deep. */
export interface Expand {
  readonly which: "*" | "." | "~";
  readonly levels: number;
}

/** Why an `$expand` value is refused (the Base registry's QueryParameterValueFormatError / …OutOfRange). */
export class ExpandQueryError extends Error {
  constructor(
    readonly key: "QueryParameterValueFormatError" | "QueryParameterOutOfRange",
    readonly value: string,
  ) {
    super(`$expand=${value}`);
  }
}

const EXPAND_RE = /^([*.~])(?:\(\$levels=(\d+)\))?$/;

/** The `$expand` of a query string; undefined when absent. Throws ExpandQueryError on a malformed value. */
export function parseExpand(query: string): Expand | undefined {
  const raw = new URLSearchParams(query).get("$expand");
  if (raw === null) return undefined;
  const m = EXPAND_RE.exec(raw);
  if (!m) throw new ExpandQueryError("QueryParameterValueFormatError", raw);
  const levels = m[2] === undefined ? 1 : Number(m[2]);
  if (levels < 1 || levels > MAX_EXPAND_LEVELS) throw new ExpandQueryError("QueryParameterOutOfRange", raw);
  return { which: m[1] as Expand["which"], levels };
}

/** A resource's body by path, or undefined when it cannot be read (a dead link stays a link in the expansion). */
export type Lookup = (path: string) => Record<string, unknown> | undefined;

/**
 * `body` with its hyperlinks replaced by the resources they name, `levels` deep. A hyperlink is an object holding only
 * `@odata.id`; Members of a collection are subordinate, so `.` expands them. Links that cannot be read are left as
 * links, so a client following them sees the same 404/500 it would see without `$expand`.
 */
export function expandBody(body: Record<string, unknown>, e: Expand, lookup: Lookup): Record<string, unknown> {
  return expandObject(body, e, e.levels, false, lookup);
}

function expandObject(
  obj: Record<string, unknown>,
  e: Expand,
  levels: number,
  inLinks: boolean,
  lookup: Lookup,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    // Actions and annotations hold targets, not resources; Oem data is the vendor's, expanded only via its Links.
    if (k === "Actions" || k.includes("@")) out[k] = v;
    else out[k] = expandValue(v, e, levels, inLinks || k === "Links", lookup);
  }
  return out;
}

function expandValue(v: unknown, e: Expand, levels: number, inLinks: boolean, lookup: Lookup): unknown {
  if (Array.isArray(v)) return v.map((x) => expandValue(x, e, levels, inLinks, lookup));
  if (typeof v !== "object" || v === null) return v;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length === 1 && typeof o["@odata.id"] === "string") {
    const wanted = e.which === "*" || (e.which === "~") === inLinks;
    const target = wanted ? lookup(o["@odata.id"]) : undefined;
    // A level's expansion restarts outside Links: what the expanded resource itself holds is judged afresh.
    return target ? (levels > 1 ? expandObject(target, e, levels - 1, false, lookup) : target) : o;
  }
  return expandObject(o, e, levels, inLinks, lookup);
}

/** A strong ETag of a representation: a hash of the JSON it is sent as. */
export function bodyEtag(body: unknown): string {
  return `"${createHash("sha256").update(JSON.stringify(body)).digest("base64url").slice(0, 22)}"`;
}

/** True when an If-None-Match header names `etag` (weak comparison, as RFC 9110 asks for If-None-Match) or is `*`. */
export function noneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (typeof header !== "string") return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || strip(t) === strip(etag));
}
