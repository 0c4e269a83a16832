/**
 * The query options of a log's Entries collection (DSP0266, clause "Query parameters"): `$top`, `$skip`, and a small
 * `$filter` — comparisons `<Property> <eq|ne|gt|ge|lt|le> <literal>` joined by `and` / `or` (`and` binding tighter; no
 * parentheses, no `not`), on Id (compared as a number, the entries' ids being numeric), Created, Severity, MessageId
 * and EntryType. That is what a poller needs for "entries since the last one seen": `$filter=Id gt '41'`.
 */
import { RedfishError } from "./errors.js";

/** Properties `$filter` can compare. */
const FILTERABLE = new Set(["Id", "Created", "Severity", "MessageId", "EntryType"]);
const OPS = new Set(["eq", "ne", "gt", "ge", "lt", "le"]);

/** A parsed `$filter`: a disjunction of conjunctions of comparisons. */
type Cmp = { readonly prop: string; readonly op: string; readonly value: string };
export type Filter = readonly (readonly Cmp[])[];

/** The options of one request. */
export interface LogQuery {
  readonly top?: number;
  readonly skip: number;
  readonly filter?: Filter;
  /** The raw `$filter`, for nextLink. */
  readonly rawFilter?: string;
}

const CMP_RE = /^\s*(\w+)\s+(eq|ne|gt|ge|lt|le)\s+('(?:[^']|'')*'|-?\d+(?:\.\d+)?)\s*$/;

function badFilter(raw: string): RedfishError {
  return new RedfishError(400, "QueryParameterValueFormatError", [raw, "$filter"]);
}

/** Parses a `$filter` value. */
export function parseFilter(raw: string): Filter {
  return raw.split(/\s+or\s+/).map((conj) =>
    conj.split(/\s+and\s+/).map((part) => {
      const m = CMP_RE.exec(part);
      if (!m || !FILTERABLE.has(m[1]) || !OPS.has(m[2])) throw badFilter(raw);
      const v = m[3].startsWith("'") ? m[3].slice(1, -1).replace(/''/g, "'") : m[3];
      return { prop: m[1], op: m[2], value: v };
    }),
  );
}

function nonNegative(raw: string | null, name: string): number | undefined {
  if (raw === null) return undefined;
  if (!/^\d+$/.test(raw)) throw new RedfishError(400, "QueryParameterValueFormatError", [raw, name]);
  return Number(raw);
}

/**
 * The options of a query string. A BMC whose log does not take `$filter` either answers 501 with
 * QueryParameterUnsupported, as DSP0266 asks of a service for a `$` parameter it does not support, or ignores it.
 */
export function parseLogQuery(query: string, filter: "yes" | "501" | "ignored"): LogQuery {
  const q = new URLSearchParams(query);
  const given = q.get("$filter") ?? undefined;
  if (given !== undefined && filter === "501") throw new RedfishError(501, "QueryParameterUnsupported", ["$filter"]);
  const rawFilter = filter === "yes" ? given : undefined;
  return {
    top: nonNegative(q.get("$top"), "$top"),
    skip: nonNegative(q.get("$skip"), "$skip") ?? 0,
    ...(rawFilter !== undefined ? { filter: parseFilter(rawFilter), rawFilter } : {}),
  };
}

function compare(a: string, b: string, numeric: boolean): number {
  if (numeric) return Number(a) - Number(b);
  return a < b ? -1 : a > b ? 1 : 0;
}

function holds(c: Cmp, get: (prop: string) => string): boolean {
  const numeric = c.prop === "Id" && /^\d+$/.test(c.value);
  const d = compare(get(c.prop), c.value, numeric);
  switch (c.op) {
    case "eq":
      return d === 0;
    case "ne":
      return d !== 0;
    case "gt":
      return d > 0;
    case "ge":
      return d >= 0;
    case "lt":
      return d < 0;
    default:
      return d <= 0;
  }
}

/** Whether an entry (its properties as strings) passes a filter. */
export function passes(filter: Filter | undefined, get: (prop: string) => string): boolean {
  return filter === undefined || filter.some((conj) => conj.every((c) => holds(c, get)));
}
