/**
 * Cheaper reads where a BMC offers them: `$expand=.` (DSP0266, clause "Query parameters"), negotiated from the service
 * root's ProtocolFeaturesSupported.ExpandQuery, and conditional GETs (If-None-Match → 304, DSP0266 clause "ETags").
 *
 * An expanded payload only saves requests: every resource found inline is kept by path, and the usual link walk reads
 * through that cache, so a member the BMC left unexpanded (a dead link, a level too deep) is still read by its link.
 * A BMC without `$expand` gets exactly the link walk.
 */
import { createHash } from "node:crypto";
import { HttpStatusError } from "../errors.js";
import { isObj } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { RedfishJson, RefreshFingerprint, RefreshTag } from "./types.js";

/** Levels of `$expand=.` the inventory wants from the System: Storage → Storage/x → Drives; PCIeDevice → functions. */
export const WANTED_LEVELS = 3;

/** How deep `$expand=.` may go on this service; 0 when the root does not advertise it (ExpandQuery.NoLinks). */
export function expandLevels(root: RedfishJson): number {
  const pf = isObj(root.ProtocolFeaturesSupported) ? root.ProtocolFeaturesSupported : undefined;
  const q = pf && isObj(pf.ExpandQuery) ? pf.ExpandQuery : undefined;
  if (q?.NoLinks !== true) return 0;
  if (q.Levels !== true) return 1;
  const max = typeof q.MaxLevels === "number" && q.MaxLevels >= 1 ? Math.floor(q.MaxLevels) : 1;
  return Math.min(WANTED_LEVELS, max);
}

/** `ref` with the `$expand=.` query for `levels` (≥ 1). */
export function expandedRef(ref: string, levels: number): string {
  const q = levels > 1 ? `$expand=.($levels=${levels})` : "$expand=.";
  return `${ref}${ref.includes("?") ? "&" : "?"}${q}`;
}

/** What the inventory walk reads through. */
export interface JsonSource {
  getJson(ref: string): Promise<RedfishJson>;
  root(): Promise<RedfishJson>;
}

const pathOf = (ref: string) => new URL(ref, "http://bmc").pathname.replace(/\/+$/, "");

/** Resources already read inline in an expanded payload, by path; reading one of them sends no request. */
export class Prefetched implements JsonSource {
  private readonly byPath = new Map<string, RedfishJson>();
  /** Resources that were not in an expansion and were read by their link: path and @odata.type. */
  readonly fetched: { readonly path: string; readonly type: string }[] = [];
  constructor(private readonly t: RedfishTransport) {}

  /** Keeps every expanded resource inside `json` (and `json` itself). */
  add(json: unknown): void {
    if (Array.isArray(json)) for (const x of json) this.add(x);
    if (!isObj(json)) return;
    const id = json["@odata.id"];
    // A bare link holds only @odata.id; an expanded resource carries its type or Id too.
    if (typeof id === "string" && ("@odata.type" in json || "Id" in json) && !this.byPath.has(pathOf(id)))
      this.byPath.set(pathOf(id), json);
    for (const v of Object.values(json)) if (typeof v === "object" && v !== null) this.add(v);
  }

  async getJson(ref: string): Promise<RedfishJson> {
    const hit = this.byPath.get(pathOf(ref));
    if (hit) return hit;
    const json = await this.t.getJson(ref);
    this.fetched.push({ path: pathOf(ref), type: typeof json["@odata.type"] === "string" ? json["@odata.type"] : "" });
    return json;
  }

  root(): Promise<RedfishJson> {
    return this.t.root();
  }
}

/**
 * GET `ref` expanded `levels` deep; the plain resource when the BMC refuses the query (400/501) although its root
 * advertised it. Returns the payload with its tag (for a later conditional GET).
 */
export async function getExpanded(
  t: RedfishTransport,
  ref: string,
  levels: number,
): Promise<{ json: RedfishJson; tag?: RefreshTag }> {
  const url = expandedRef(ref, levels);
  try {
    const { json, etag } = await t.get(url);
    return { json, tag: { path: url, etag, hash: hashOf(json) } };
  } catch (e) {
    if (!(e instanceof HttpStatusError) || (e.status !== 400 && e.status !== 501)) throw e;
    return { json: await t.getJson(ref) };
  }
}

/** Resources whose `DateTime` is the service's clock, new on every read (a LogService, a Manager). */
const CLOCKED = /^#(LogService|Manager)\./;

/**
 * A hash of a payload's content: the ETags of it and of resources expanded into it left out, and the clock of a
 * LogService or Manager expanded into it (a System's expansion carries its LogServices where the BMC links them
 * there, whose DateTime moves every second: the payload would never read the same).
 */
export function hashOf(json: RedfishJson): string {
  const text = JSON.stringify(json, function (this: unknown, key: string, value: unknown) {
    if (key === "@odata.etag") return undefined;
    if ((key === "DateTime" || key === "DateTimeLocalOffset") && isClocked(this)) return undefined;
    return value;
  });
  return createHash("sha256").update(text).digest("base64url").slice(0, 22);
}

function isClocked(holder: unknown): boolean {
  const type = (holder as { "@odata.type"?: unknown } | null)?.["@odata.type"];
  return typeof type === "string" && CLOCKED.test(type);
}

/**
 * Re-reads each tagged resource, with If-None-Match where the tag holds an ETag: `unchanged` when every one answered
 * 304 or a body of the same hash. `fingerprint` is the tags as the resources now stand.
 */
export async function recheck(
  t: RedfishTransport,
  fp: RefreshFingerprint,
): Promise<{ unchanged: boolean; fingerprint: RefreshFingerprint }> {
  const one = async (tag: RefreshTag): Promise<{ same: boolean; tag: RefreshTag }> => {
    const r = await t.getIfNoneMatch(tag.path, tag.etag);
    if (r === "not-modified") return { same: true, tag };
    const hash = hashOf(r.json);
    return {
      same: hash === tag.hash,
      tag: { path: tag.path, etag: tag.etag === undefined ? undefined : r.etag, hash },
    };
  };
  const [system, firmware] = await Promise.all([one(fp.system), fp.firmware ? one(fp.firmware) : undefined]);
  return {
    unchanged: system.same && (firmware?.same ?? true),
    fingerprint: { system: system.tag, ...(firmware ? { firmware: firmware.tag } : {}) },
  };
}
