/**
 * WarewulfClient: the warewulfd REST API of Warewulf v4 (≥ 4.6.1; port 9873, HTTP Basic against auth.conf) — nodes,
 * profiles, images, overlays — and its unauthenticated GET /status. Reads are retried by the shared core; writes are
 * not (POST builds and imports, PATCH merges, the create-only PUT). Errors are WarewulfErrors; the password never
 * appears in them.
 */
import { ClientConfigError, isClientError } from "../errors.js";
import { CONTROLLER_CONCURRENCY, HttpCore, type HttpCoreOptions } from "../http/core.js";
import { safeUrl } from "../redact.js";
import { parseImage, parseNode, parseNodeMap, parseStatus } from "./parse.js";
import { WarewulfTransport } from "./transport.js";
import type {
  WarewulfImage,
  WarewulfNode,
  WarewulfNodeFields,
  WarewulfProfileFields,
  WarewulfStatus,
} from "./types.js";

/** Options of a WarewulfClient. */
export interface WarewulfClientOptions {
  /** warewulfd base URL, e.g. http://ww-head:9873 (https from Warewulf 4.7 with `api: tls: true`). */
  readonly url: string;
  /** An API user of auth.conf. */
  readonly username: string;
  /** Its password (auth.conf holds the bcrypt hash); a secret. */
  readonly password: string;
  /** A shared core. @default a core owned and closed by this client */
  readonly core?: HttpCore;
  /** Options of the owned core when `core` is not given. */
  readonly http?: HttpCoreOptions;
}

/** Registry credentials of an image import (sent in the body; never logged). */
export interface ImportOptions {
  readonly nohttps?: boolean;
  readonly user?: string;
  readonly password?: string;
  readonly signal?: AbortSignal;
}

const enc = encodeURIComponent;
const notFound = (e: unknown) => isClientError(e) && e.code === "RACKFORM_ERR_WAREWULF_NOT_FOUND";

/** A client of one warewulfd. */
export class WarewulfClient {
  readonly origin: string;
  private readonly t: WarewulfTransport;
  private readonly core: HttpCore;
  private readonly ownsCore: boolean;

  constructor(opts: WarewulfClientOptions) {
    let url: URL;
    try {
      url = new URL(opts.url);
    } catch {
      throw new ClientConfigError(`url: ${JSON.stringify(safeUrl(opts.url))} is not a URL; use http://host:9873`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ClientConfigError(`url: unsupported scheme ${url.protocol}; use http://host:9873`);
    }
    if (url.username || url.password) {
      throw new ClientConfigError("url: put the user name and password in username/password, not in the URL");
    }
    if (!opts.username) throw new ClientConfigError("username: an API user of warewulfd's auth.conf is required");
    if (!opts.password) throw new ClientConfigError("password: the API user's password is required");
    this.origin = url.origin;
    this.ownsCore = !opts.core;
    this.core = opts.core ?? new HttpCore({ maxConcurrentPerHost: CONTROLLER_CONCURRENCY, ...opts.http });
    this.t = new WarewulfTransport(this.core, this.origin, opts.username, opts.password);
  }

  /** Every node, profile fields merged in (GET /api/nodes/), sorted by id. */
  async listNodes(signal?: AbortSignal): Promise<WarewulfNode[]> {
    return parseNodeMap(this.t.json(await this.t.send("GET", "/api/nodes/", { signal })));
  }

  /** One node (profiles merged in, or `raw`: its own fields only); undefined when warewulfd has no such node. */
  async getNode(id: string, o: { readonly raw?: boolean; readonly signal?: AbortSignal } = {}) {
    try {
      const res = await this.t.send("GET", `/api/nodes/${enc(id)}${o.raw ? "/raw" : ""}`, { signal: o.signal });
      return parseNode(id, this.t.json(res));
    } catch (e) {
      if (notFound(e)) return undefined;
      throw e;
    }
  }

  /**
   * Adds a node only if none of that id exists (PUT with If-None-Match: *); an existing node is refused with
   * RACKFORM_ERR_WAREWULF_CONFLICT ("already exists"); an unknown profile, image or overlay with
   * RACKFORM_ERR_WAREWULF_BAD_REQUEST.
   */
  async createNode(id: string, node: WarewulfNodeFields, signal?: AbortSignal): Promise<WarewulfNode> {
    const res = await this.t.send("PUT", `/api/nodes/${enc(id)}`, {
      json: { node },
      headers: { "if-none-match": "*" },
      idempotent: false,
      signal,
    });
    return parseNode(id, this.t.json(res));
  }

  /** Sets the node's fields whole (PUT without If-None-Match adds or replaces). */
  async putNode(id: string, node: WarewulfNodeFields, signal?: AbortSignal): Promise<WarewulfNode> {
    return parseNode(id, this.t.json(await this.t.send("PUT", `/api/nodes/${enc(id)}`, { json: { node }, signal })));
  }

  /** Merges fields into the node (PATCH: set fields overwrite, absent fields stay). */
  async patchNode(id: string, node: WarewulfNodeFields, signal?: AbortSignal): Promise<WarewulfNode> {
    return parseNode(id, this.t.json(await this.t.send("PATCH", `/api/nodes/${enc(id)}`, { json: { node }, signal })));
  }

  /**
   * Deletes the node; false when it was already gone (warewulfd answers a delete of an unknown node with HTTP 500
   * "nodename does not exist").
   */
  async deleteNode(id: string, signal?: AbortSignal): Promise<boolean> {
    try {
      await this.t.send("DELETE", `/api/nodes/${enc(id)}`, { signal });
      return true;
    } catch (e) {
      if (notFound(e) || (isClientError(e) && e.status === 500 && /does not exist/i.test(e.serverMessage ?? "")))
        return false;
      throw e;
    }
  }

  /** Builds the node's system and runtime overlay images (POST /api/nodes/{id}/overlays/build). */
  async buildNodeOverlays(id: string, signal?: AbortSignal): Promise<void> {
    await this.t.send("POST", `/api/nodes/${enc(id)}/overlays/build`, { signal });
  }

  /** Every profile (GET /api/profiles/), as a map of id to fields. */
  async listProfiles(signal?: AbortSignal): Promise<Map<string, WarewulfProfileFields>> {
    const m = this.t.json<Record<string, WarewulfProfileFields> | null>(
      await this.t.send("GET", "/api/profiles/", { signal }),
    );
    return new Map(Object.entries(m ?? {}));
  }

  /** One profile; undefined when absent. */
  async getProfile(id: string, signal?: AbortSignal): Promise<WarewulfProfileFields | undefined> {
    try {
      return this.t.json<WarewulfProfileFields>(await this.t.send("GET", `/api/profiles/${enc(id)}`, { signal }));
    } catch (e) {
      if (notFound(e)) return undefined;
      throw e;
    }
  }

  /** Adds or replaces a profile (`createOnly`: If-None-Match: *, refused when it exists). */
  async putProfile(
    id: string,
    profile: WarewulfProfileFields,
    o: { readonly createOnly?: boolean; readonly signal?: AbortSignal } = {},
  ): Promise<WarewulfProfileFields> {
    const res = await this.t.send("PUT", `/api/profiles/${enc(id)}`, {
      json: { profile },
      headers: o.createOnly ? { "if-none-match": "*" } : undefined,
      idempotent: o.createOnly ? false : undefined,
      signal: o.signal,
    });
    return this.t.json(res);
  }

  /** Merges fields into a profile. */
  async patchProfile(id: string, profile: WarewulfProfileFields, signal?: AbortSignal): Promise<WarewulfProfileFields> {
    return this.t.json(await this.t.send("PATCH", `/api/profiles/${enc(id)}`, { json: { profile }, signal }));
  }

  /** Every image (GET /api/images), sorted by name. */
  async listImages(signal?: AbortSignal): Promise<WarewulfImage[]> {
    const m = this.t.json<Record<string, unknown> | null>(await this.t.send("GET", "/api/images", { signal }));
    return Object.entries(m ?? {})
      .map(([name, v]) => parseImage(name, v))
      .sort((a, b) => a.name.localeCompare(b.name));
  }

  /** One image; undefined when absent. */
  async getImage(name: string, signal?: AbortSignal): Promise<WarewulfImage | undefined> {
    try {
      return parseImage(name, this.t.json(await this.t.send("GET", `/api/images/${enc(name)}`, { signal })));
    } catch (e) {
      if (notFound(e)) return undefined;
      throw e;
    }
  }

  /** Imports an image from an OCI registry (`uri` starts with docker://); the registry password is redacted. */
  async importImage(name: string, uri: string, o: ImportOptions = {}): Promise<WarewulfImage> {
    if (o.password) this.core.redactor.add(o.password);
    const res = await this.t.send("POST", `/api/images/${enc(name)}/import`, {
      json: { uri, nohttps: o.nohttps ?? false, user: o.user ?? "", password: o.password ?? "" },
      signal: o.signal,
    });
    return parseImage(name, this.t.json(res));
  }

  /** Builds an image (its kernel and compressed image), `force` even if it looks built. */
  async buildImage(name: string, o: { readonly force?: boolean; readonly signal?: AbortSignal } = {}) {
    const q = o.force ? "?force=true" : "";
    return parseImage(name, this.t.json(await this.t.send("POST", `/api/images/${enc(name)}/build${q}`, o)));
  }

  /** Every overlay name (GET /api/overlays/), sorted. */
  async listOverlays(signal?: AbortSignal): Promise<string[]> {
    const m = this.t.json<Record<string, unknown> | null>(await this.t.send("GET", "/api/overlays/", { signal }));
    return Object.keys(m ?? {}).sort();
  }

  /** GET /status (no authentication): each node's provisioning stage and last-seen time, with the server's clock. */
  async status(signal?: AbortSignal): Promise<WarewulfStatus> {
    const res = await this.t.plainGet("/status", signal);
    return parseStatus(this.t.json(res), res.headers.date);
  }

  /** Closes the core if this client owns it. */
  async close(): Promise<void> {
    if (this.ownsCore) await this.core.close();
  }
}
