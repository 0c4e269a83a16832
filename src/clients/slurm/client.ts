/**
 * SlurmClient: node admission through slurmrestd: read nodes in one batched list, resume with features, drain with a
 * reason and wait until no job is left. It speaks the newest API version both it and the server know (negotiate.ts;
 * shapes per version in versions.ts). Every operation is safe to repeat. Errors are SlurmErrors with stable codes;
 * the JWT never appears in them.
 */
import { ClientConfigError, HttpAbortedError, isClientError } from "../errors.js";
import { CONTROLLER_CONCURRENCY, HttpCore, type HttpCoreOptions, type HttpResponse } from "../http/core.js";
import { abortableSleep } from "../http/retry.js";
import { SharedList } from "../http/shared-list.js";
import { safeUrl } from "../redact.js";
import { SlurmError, type SlurmRestError } from "./errors.js";
import { negotiateVersion } from "./negotiate.js";
import { describeErrors, parseNode, restErrors } from "./parse.js";
import type { SlurmNode, WaitDrainedOptions } from "./types.js";
import { DEFAULT_SLURM_API_VERSION, type NodeUpdate, type SlurmApiVersion, slurmApiVersion } from "./versions.js";

/** The API version spoken when the server lists none (kept under its old name). */
export const SLURM_DATA_PARSER = DEFAULT_SLURM_API_VERSION;

/** Slurm error numbers the client branches on (slurm/slurm_errno.h). */
const ESLURM_ACCESS_DENIED = 2002;
const ESLURM_INVALID_NODE_NAME = 2018;
const ESLURM_INVALID_NODE_STATE = 2028;

/** Options of a SlurmClient. */
export interface SlurmClientOptions {
  /** slurmrestd base URL, e.g. https://slurmctl:6820. */
  readonly url: string;
  /** Slurm user the JWT was issued to (X-SLURM-USER-NAME). */
  readonly user: string;
  /** JWT from `scontrol token` or an IdP (X-SLURM-USER-TOKEN); a secret. */
  readonly token: string;
  /** A shared core. @default a core owned and closed by this client, CONTROLLER_CONCURRENCY requests at once */
  readonly core?: HttpCore;
  /** Options of the owned core when `core` is not given. */
  readonly http?: HttpCoreOptions;
  /** Waits between drain polls. @default a timer the signal interrupts */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock of drain deadlines. @default Date.now */
  readonly now?: () => number;
  /**
   * Reuse a finished node list for this long, so that a plan reading many nodes in waves costs one request per
   * window. Writes through this client always invalidate it. @default 0 (only concurrent reads share a request)
   */
  readonly nodeCacheMaxAgeMs?: number;
  /** Speak this API version (e.g. "v0.0.38") instead of negotiating one. @default the newest the server offers */
  readonly apiVersion?: string;
}

/** A client of one slurmrestd. */
export class SlurmClient {
  /** slurmrestd's base URL without a trailing slash, e.g. http://127.0.0.1:6820. */
  readonly baseUrl: string;
  private negotiated?: Promise<SlurmApiVersion>;
  private readonly core: HttpCore;
  private readonly ownsCore: boolean;
  private readonly headers: Readonly<Record<string, string>>;
  private readonly nodes: SharedList<SlurmNode>;

  constructor(private readonly opts: SlurmClientOptions) {
    let url: URL;
    try {
      url = new URL(opts.url);
    } catch {
      throw new ClientConfigError(`url: ${JSON.stringify(safeUrl(opts.url))} is not a URL; use https://host:6820`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ClientConfigError(`url: unsupported scheme ${url.protocol}; use https://host:6820`);
    }
    if (!opts.user) throw new ClientConfigError("user: the Slurm user name the token belongs to is required");
    if (!opts.token) throw new ClientConfigError("token: a Slurm JWT (scontrol token) is required");
    this.baseUrl = `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
    if (opts.apiVersion !== undefined) {
      const pinned = slurmApiVersion(opts.apiVersion);
      if (!pinned) throw new ClientConfigError(`apiVersion: rackform does not speak ${opts.apiVersion}`);
      this.negotiated = Promise.resolve(pinned);
    }
    this.ownsCore = !opts.core;
    this.core = opts.core ?? new HttpCore({ maxConcurrentPerHost: CONTROLLER_CONCURRENCY, ...opts.http });
    this.core.redactor.add(opts.token);
    this.headers = { "x-slurm-user-name": opts.user, "x-slurm-user-token": opts.token };
    this.nodes = new SharedList(() => this.send("GET", "/nodes").then((body) => this.parseNodes(body)), {
      maxAgeMs: opts.nodeCacheMaxAgeMs,
      now: opts.now,
    });
  }

  /** The API version spoken with this server (asked of it once; a failed attempt is retried by the next call). */
  apiVersion(): Promise<SlurmApiVersion> {
    if (!this.negotiated) {
      const p = negotiateVersion(this.core, this.baseUrl, this.headers, this.opts.user);
      this.negotiated = p;
      p.catch(() => {
        if (this.negotiated === p) this.negotiated = undefined;
      });
    }
    return this.negotiated;
  }

  /** Number of node-list requests sent (a figure for logs and tests of batching). */
  get listRequests(): number {
    return this.nodes.requests;
  }

  /** Every node; concurrent callers share one GET /nodes, and none joins a list started before this client's last write. */
  listNodes(): Promise<readonly SlurmNode[]> {
    return this.nodes.all();
  }

  /** One node from the shared list (`fresh`: not from the cache window); RACKFORM_ERR_SLURM_NOT_FOUND when Slurm does not know it. */
  async getNode(name: string, opts: { readonly fresh?: boolean } = {}): Promise<SlurmNode> {
    const node = (await this.nodes.all(opts)).find((n) => n.name === name);
    if (!node) {
      throw this.fail(
        "RACKFORM_ERR_SLURM_NOT_FOUND",
        `Slurm does not know node ${name}: add it to slurm.conf (or start its slurmd) first`,
        {},
      );
    }
    return node;
  }

  /**
   * Admits the node: sets its features when they differ, then RESUMEs it if it is DOWN or DRAIN-flagged.
   * A node that already accepts jobs with those features is left alone. Resolves with the node as Slurm then reports it.
   */
  async resume(name: string, opts: { readonly features?: readonly string[] } = {}): Promise<SlurmNode> {
    let node = await this.getNode(name, { fresh: true });
    if (opts.features && !sameSet(opts.features, node.features))
      await this.update(name, { features: [...opts.features] });
    if (!node.schedulable) {
      try {
        await this.update(name, { state: ["RESUME"] });
      } catch (e) {
        // Someone resumed it between our read and our update: that is the outcome we wanted.
        if (!(e instanceof SlurmError && e.slurmErrors.some((x) => x.error_number === ESLURM_INVALID_NODE_STATE)))
          throw e;
      }
    }
    // Fresh: a shared node list fetched between our first read and the RESUME would still say DOWN.
    node = await this.getNode(name, { fresh: true });
    if (!node.schedulable) {
      throw this.fail(
        "RACKFORM_ERR_SLURM_REJECTED",
        `node ${name} is still ${node.state.join("+")} after RESUME (reason: ${node.reason || "none"})`,
        {},
        [],
        { state: node.state },
      );
    }
    return node;
  }

  /** Sets the DRAIN flag with a reason: running jobs finish, no new job starts. Repeating only refreshes the reason. */
  async drain(name: string, reason: string): Promise<void> {
    if (!reason.trim()) throw new ClientConfigError("drain: Slurm requires a reason to drain a node");
    await this.update(name, { state: ["DRAIN"], reason });
  }

  /** Polls until the node is drained (DRAIN flag, no job left); fails on timeout or when the DRAIN flag disappears. */
  async waitDrained(name: string, opts: WaitDrainedOptions): Promise<SlurmNode> {
    const now = this.opts.now ?? Date.now;
    const sleep = this.opts.sleep ?? abortableSleep;
    const deadline = now() + opts.timeoutMs;
    const pollMs = opts.pollMs ?? 5_000;
    for (;;) {
      if (opts.signal?.aborted) throw this.aborted(name);
      const node = await this.getNode(name, { fresh: true });
      if (node.drained || (node.drain && node.down)) return node;
      if (!node.drain) {
        throw this.fail(
          "RACKFORM_ERR_SLURM_DRAIN_CANCELLED",
          `node ${name} lost its DRAIN flag while draining (now ${node.state.join("+")}); someone resumed it`,
          {},
          [],
          { state: node.state },
        );
      }
      if (now() + pollMs > deadline) {
        throw this.fail(
          "RACKFORM_ERR_SLURM_DRAIN_TIMEOUT",
          `node ${name} still has jobs (${node.state.join("+")}) after ${opts.timeoutMs} ms of draining; raise the timeout or cancel its jobs`,
          {},
          [],
          { state: node.state },
        );
      }
      try {
        await sleep(pollMs, opts.signal);
      } catch {
        throw this.aborted(name);
      }
    }
  }

  /**
   * Sets the node DOWN with a reason (jobs on it are killed: drain first). The reason is what sinfo -R shows.
   */
  async down(name: string, reason: string): Promise<void> {
    if (!reason.trim()) throw new ClientConfigError("down: Slurm requires a reason to set a node DOWN");
    await this.update(name, { state: ["DOWN"], reason });
  }

  /**
   * DELETE /node/{name} (`scontrol delete nodename=`). slurmctld deletes only dynamic nodes (`slurmd -Z`) with no job:
   * a node slurm.conf lists is refused with RACKFORM_ERR_SLURM_REJECTED carrying errors[] 2028 ("Can't delete
   * non-dynamic node"), a busy one with 2016. RACKFORM_ERR_SLURM_NOT_FOUND when Slurm does not know the node.
   */
  async deleteNode(name: string): Promise<void> {
    const v = await this.apiVersion();
    if (!v.nodeDelete) throw this.unsupported(v, `delete node ${name}`, `scontrol delete nodename=${name}`);
    this.nodes.invalidate();
    try {
      await this.send("DELETE", `/node/${encodeURIComponent(name)}`, undefined, name);
    } finally {
      this.nodes.invalidate();
    }
  }

  /** Replaces the node's comment (`scontrol update NodeName=… Comment=…`); "" clears it. */
  async setComment(name: string, comment: string): Promise<void> {
    await this.update(name, { comment });
  }

  /** Replaces the node's available (and active) features. */
  async setFeatures(name: string, features: readonly string[]): Promise<void> {
    await this.update(name, { features: [...features] });
  }

  /** Closes the owned core. */
  async close(): Promise<void> {
    if (this.ownsCore) await this.core.close();
  }

  /** POST /node/{name} with the version's update message; later reads see the change. */
  private async update(name: string, u: NodeUpdate): Promise<void> {
    const v = await this.apiVersion();
    if (!v.updateBody) throw this.unsupported(v, `update node ${name}`, scontrolUpdate(name, u));
    this.nodes.invalidate();
    try {
      await this.send("POST", `/node/${encodeURIComponent(name)}`, v.updateBody(u), name);
    } finally {
      this.nodes.invalidate();
    }
  }

  private async send(method: string, path: string, json?: unknown, node?: string): Promise<unknown> {
    const v = await this.apiVersion();
    const url = `${this.baseUrl}/slurm/${v.name}${path}`;
    let res: HttpResponse;
    try {
      res = await this.core.request({
        method,
        url,
        json,
        headers: this.headers,
        // An update sets state absolutely, so repeating it after a dropped connection is harmless.
        idempotent: true,
        okStatus: (s) => s !== 429 && s !== 503,
      });
    } catch (e) {
      if (isClientError(e, "RACKFORM_ERR_HTTP_STATUS")) {
        throw this.fail("RACKFORM_ERR_SLURM_UNAVAILABLE", `${e.message}; slurmrestd is overloaded or restarting`, {
          status: e.status,
          method,
          url: safeUrl(url),
        });
      }
      throw e;
    }
    const ctx = { method, url: res.url, status: res.status, attempts: res.attempts };
    let body: unknown;
    try {
      body = res.body.trim() ? JSON.parse(res.body) : {};
    } catch {
      body = undefined;
    }
    const errors = restErrors(body);
    const said = errors.length ? describeErrors(errors) : res.body.trim().slice(0, 200);
    const where = `${method} ${res.url}`;
    if (res.status === 401 || isAuthFailure(v, res.status, errors)) {
      throw this.fail(
        "RACKFORM_ERR_SLURM_AUTH",
        `${where}: slurmrestd refused user ${this.opts.user} and its token (HTTP ${res.status}${said ? `: ${said}` : ""}${res.status === 401 ? "" : `; ${v.name} reports a JWT slurmctld refused this way`}); issue a new JWT with scontrol token`,
        ctx,
        errors,
      );
    }
    if (res.status === 403 || errors.some((e) => e.error_number === ESLURM_ACCESS_DENIED)) {
      throw this.fail(
        "RACKFORM_ERR_SLURM_FORBIDDEN",
        `${where}: Slurm denied user ${this.opts.user} (${said || `HTTP ${res.status}`}); the user must be a Slurm operator or admin`,
        ctx,
        errors,
      );
    }
    if (errors.some((e) => e.error_number === ESLURM_INVALID_NODE_NAME)) {
      throw this.fail(
        "RACKFORM_ERR_SLURM_NOT_FOUND",
        `${where}: Slurm does not know node ${node ?? "?"} (${said})`,
        ctx,
        errors,
      );
    }
    if (res.status === 502 || res.status === 504 || errors.some((e) => isCommError(e.error_number))) {
      throw this.fail(
        "RACKFORM_ERR_SLURM_UNAVAILABLE",
        `${where}: slurmrestd could not reach slurmctld (HTTP ${res.status}: ${said})`,
        ctx,
        errors,
      );
    }
    if (res.status === 405) throw this.unsupported(v, `${method} ${path}`, "scontrol");
    if (res.status === 404 && !node) {
      throw this.fail(
        "RACKFORM_ERR_SLURM_REJECTED",
        `${where}: slurmrestd does not serve ${v.name} (HTTP 404: ${said}); it lists its versions at /openapi/v3`,
        ctx,
        errors,
      );
    }
    if (res.status >= 300 || errors.length) {
      throw this.fail(
        "RACKFORM_ERR_SLURM_REJECTED",
        `${where}: slurmctld rejected the request (HTTP ${res.status}: ${said || "no detail"})`,
        ctx,
        errors,
      );
    }
    if (body === undefined) throw this.fail("RACKFORM_ERR_SLURM_BAD_PAYLOAD", `${where}: response is not JSON`, ctx);
    return body;
  }

  private parseNodes(body: unknown): SlurmNode[] {
    const raw = (body as { nodes?: unknown }).nodes;
    if (!Array.isArray(raw))
      throw this.fail("RACKFORM_ERR_SLURM_BAD_PAYLOAD", "GET /nodes: the response has no nodes[] array", {});
    return raw.map((r) => {
      const n = parseNode(r);
      if (typeof n === "string") throw this.fail("RACKFORM_ERR_SLURM_BAD_PAYLOAD", `GET /nodes: ${n}`, {});
      return n;
    });
  }

  private unsupported(v: SlurmApiVersion, what: string, instead: string): SlurmError {
    return this.fail(
      "RACKFORM_ERR_SLURM_UNSUPPORTED",
      `cannot ${what}: slurmrestd's newest API here is ${v.name} (Slurm ${v.releases}), which has no such request; use ${instead} on the controller, or Slurm 23.02 or later (v0.0.39+)`,
      {},
      [],
      { apiVersion: v.name },
    );
  }

  private aborted(name: string): HttpAbortedError {
    return this.core.redactor.scrub(
      new HttpAbortedError(`waiting for node ${name} to drain: aborted by the caller`, {}),
    );
  }

  private fail(
    code: ConstructorParameters<typeof SlurmError>[0],
    message: string,
    ctx: ConstructorParameters<typeof SlurmError>[2],
    errors: readonly SlurmRestError[] = [],
    details: Record<string, unknown> = {},
  ): SlurmError {
    return this.core.redactor.scrub(new SlurmError(code, message, ctx, errors, details));
  }
}

/** The scontrol command that makes the update `u` by hand, e.g. `scontrol update nodename=n1 state=resume`. */
function scontrolUpdate(name: string, u: NodeUpdate): string {
  const q = (x: string) => (/^[\w.,:-]+$/.test(x) ? x : JSON.stringify(x));
  const parts = [`nodename=${name}`];
  if (u.state) parts.push(`state=${u.state.join(",").toLowerCase()}`);
  if (u.reason !== undefined) parts.push(`reason=${q(u.reason)}`);
  if (u.features) parts.push(`availablefeatures=${q(u.features.join(","))} activefeatures=${q(u.features.join(","))}`);
  if (u.comment !== undefined) parts.push(`comment=${q(u.comment)}`);
  return `scontrol update ${parts.join(" ")}`;
}

/** slurmctld refused the JWT, as a version reports it when not with 401 (versions.ts authFailureErrno). */
function isAuthFailure(v: SlurmApiVersion, status: number, errors: readonly SlurmRestError[]): boolean {
  return v.authFailureErrno !== undefined && status >= 500 && errors.some((e) => e.error_number === v.authFailureErrno);
}

/** Slurm's communication failures (1001–1099 in slurm_errno.h): slurmrestd could not talk to slurmctld. */
function isCommError(n: number | undefined): boolean {
  return n !== undefined && n > 1000 && n < 1100;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const sa = new Set(a);
  return sa.size === new Set(b).size && b.every((x) => sa.has(x));
}
