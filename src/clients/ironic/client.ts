/**
 * IronicClient: one Ironic API. Negotiates a microversion once, retries 409 NodeLocked within bounds, polls
 * provision transitions, and serves many nodes from one list (concurrent identical lists share one request).
 */
import { ClientConfigError } from "../errors.js";
import { CONTROLLER_CONCURRENCY, HttpCore, type HttpCoreOptions } from "../http/core.js";
import { abortedError } from "../http/failures.js";
import { nextPollMs, type PollSpec, StepDurations } from "../http/poll.js";
import { abortableSleep } from "../http/retry.js";
import { safeUrl } from "../redact.js";
import { IronicError } from "./errors.js";
import { IronicExtras } from "./extras.js";
import { compareMicroversions, TARGET_MIN_MICROVERSION } from "./microversion.js";
import { NodeCache } from "./node-cache.js";
import { parseNode, parseNodeList, parseValidation, sameOriginPath } from "./parse.js";
import { type IronicAuth, IronicTransport, type LockRetryPolicy } from "./transport.js";
import type { IronicNode, IronicValidation, JsonPatchOp, ProvisionOptions, ProvisionTarget } from "./types.js";
import { type WaitForProvisionOptions, waitForProvisionState } from "./wait.js";

/** Options of an IronicClient. */
export interface IronicClientOptions {
  /** API endpoint, e.g. http://ironic:6385 (a trailing /v1 is accepted). */
  readonly url: string;
  /** @default { type: "noauth" } */
  readonly auth?: IronicAuth;
  readonly ca?: string;
  readonly insecure?: boolean;
  /** A shared core. @default a core owned and closed by this client */
  readonly core?: HttpCore;
  readonly http?: Omit<HttpCoreOptions, "tls">;
  /** @default CONTROLLER_CONCURRENCY (16) */
  readonly maxConcurrent?: number;
  /** How long a finished node or port list of `nodes` is reused (0: only lists still in flight are shared). @default 0 */
  readonly nodeListMaxAgeMs?: number;
  /** Pin a microversion; refused with RACKFORM_ERR_IRONIC_MICROVERSION when the server lacks it. @default negotiated */
  readonly microversion?: string;
  /** Bounds of the 409 NodeLocked retry. @default { maxAttempts: 10, baseDelayMs: 500, maxDelayMs: 5_000 } */
  readonly lockRetry?: LockRetryPolicy;
  /** Told about every NodeLocked retry. */
  readonly onLocked?: (info: { readonly attempt: number; readonly delayMs: number; readonly message: string }) => void;
  /** Clock, sleep and jitter (tests inject them). @default real time, Math.random */
  readonly clock?: {
    readonly now?: () => number;
    readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
    readonly random?: () => number;
  };
}

/** Input of createNode; snake_case extras go in `more`. */
export interface IronicNodeCreate {
  readonly name?: string;
  readonly driver: string;
  readonly resourceClass?: string;
  readonly properties?: Readonly<Record<string, unknown>>;
  readonly driverInfo?: Readonly<Record<string, unknown>>;
  readonly instanceInfo?: Readonly<Record<string, unknown>>;
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Other fields exactly as Ironic names them (e.g. deploy_interface, owner). */
  readonly more?: Readonly<Record<string, unknown>>;
}

/** Filters and selection of a node list. */
export interface NodeListQuery {
  /** Only these fields (smaller bodies); uuid is always added. */
  readonly fields?: readonly string[];
  /** Full node bodies (ignored when `fields` is given). */
  readonly detail?: boolean;
  readonly provisionState?: string;
  readonly resourceClass?: string;
  readonly driver?: string;
  readonly maintenance?: boolean;
  readonly associated?: boolean;
  readonly signal?: AbortSignal;
}

/** Power targets of PUT states/power. */
export type PowerTarget = "power on" | "power off" | "rebooting" | "soft power off" | "soft rebooting";

/** A client of one Ironic API. */
export class IronicClient {
  /** API origin, e.g. http://127.0.0.1:6385. */
  readonly origin: string;
  /** Ports, allocations. */
  readonly extras: IronicExtras;
  /** The batched node and port reader shared by every caller of this client (refreshes of many nodes). */
  readonly nodes: NodeCache;
  private readonly core: HttpCore;
  /** How long each kind of step took for this client's nodes, so waits poll densely around it. */
  private readonly steps = new StepDurations();
  private readonly ownsCore: boolean;
  private readonly t: IronicTransport;

  constructor(private readonly opts: IronicClientOptions) {
    let u: URL;
    try {
      u = new URL(opts.url);
    } catch {
      throw new ClientConfigError(`url: ${JSON.stringify(safeUrl(opts.url))} is not a URL; use http://host:6385`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      throw new ClientConfigError(`url: unsupported scheme ${u.protocol}; use http(s)://host:6385`);
    }
    const base = u.pathname.replace(/\/+$/, "").replace(/\/v1$/, "");
    if (base !== "")
      throw new ClientConfigError(`url: Ironic behind a path prefix (${base}) is not supported; use the API origin`);
    this.origin = u.origin;
    const tls = { ca: opts.ca, insecure: opts.insecure };
    const limit = opts.maxConcurrent ?? CONTROLLER_CONCURRENCY;
    this.ownsCore = !opts.core;
    this.core = opts.core ?? new HttpCore({ ...opts.http, tls, maxConcurrentPerHost: limit });
    if (opts.core) {
      const ownTls = opts.ca !== undefined || opts.insecure !== undefined;
      this.core.configureOrigin(u.origin, { tls: ownTls ? tls : undefined, maxConcurrent: limit });
    }
    this.t = new IronicTransport(this.core, this.origin, opts.auth ?? { type: "noauth" }, {
      microversion: opts.microversion,
      lockRetry: opts.lockRetry,
      random: opts.clock?.random,
      sleep: opts.clock?.sleep,
      onLocked: opts.onLocked,
      onWrite: () => this.nodes.invalidate(),
    });
    this.extras = new IronicExtras(this.t, this.core.redactor, opts.clock);
    this.nodes = new NodeCache(
      { nodes: (fields) => this.listNodes({ fields }), ports: () => this.extras.listPorts() },
      { maxAgeMs: opts.nodeListMaxAgeMs, now: opts.clock?.now },
    );
  }

  /** Reads the API root once and returns the microversion in use and the server's range. */
  async negotiate(
    signal?: AbortSignal,
  ): Promise<{ readonly version: string; readonly min: string; readonly max: string }> {
    const version = await this.t.microversion(signal);
    const range = this.t.serverRange ?? { min: version, max: version };
    return { version, ...range };
  }

  /** Enrolls a node (provision state "enroll"). */
  async createNode(n: IronicNodeCreate, signal?: AbortSignal): Promise<IronicNode> {
    const json = {
      ...n.more,
      ...(n.name !== undefined ? { name: n.name } : {}),
      driver: n.driver,
      ...(n.resourceClass !== undefined ? { resource_class: n.resourceClass } : {}),
      ...(n.properties ? { properties: n.properties } : {}),
      ...(n.driverInfo ? { driver_info: n.driverInfo } : {}),
      ...(n.instanceInfo ? { instance_info: n.instanceInfo } : {}),
      ...(n.extra ? { extra: n.extra } : {}),
    };
    return parseNode(this.t.json(await this.t.send("POST", "/v1/nodes", { json, signal })));
  }

  /** One node by uuid or name; `fields` selects a subset. */
  async getNode(
    id: string,
    o: { readonly fields?: readonly string[]; readonly signal?: AbortSignal } = {},
  ): Promise<IronicNode> {
    const q = o.fields ? `?fields=${withUuid(o.fields).join(",")}` : "";
    try {
      const n = parseNode(this.t.json(await this.t.send("GET", `/v1/nodes/${enc(id)}${q}`, { signal: o.signal })));
      this.nodes.sawDirect(id, n);
      return n;
    } catch (e) {
      this.nodes.sawDirect(id);
      throw e;
    }
  }

  /** Every node matching the query, following pagination. One call serves many nodes; index the result. */
  async listNodes(q: NodeListQuery = {}): Promise<IronicNode[]> {
    const p = new URLSearchParams();
    if (q.fields) p.set("fields", withUuid(q.fields).join(","));
    else if (q.detail) p.set("detail", "true");
    if (q.provisionState) p.set("provision_state", q.provisionState);
    if (q.resourceClass) p.set("resource_class", q.resourceClass);
    if (q.driver) p.set("driver", q.driver);
    if (q.maintenance !== undefined) p.set("maintenance", String(q.maintenance));
    if (q.associated !== undefined) p.set("associated", String(q.associated));
    const out: IronicNode[] = [];
    let path: string | undefined = `/v1/nodes${p.size ? `?${p}` : ""}`;
    while (path) {
      const page = parseNodeList(this.t.json(await this.t.send("GET", path, { signal: q.signal })));
      out.push(...page.nodes);
      path = page.next ? sameOriginPath(page.next, this.origin) : undefined;
    }
    return out;
  }

  /** One list indexed by uuid and by name, for resolving many nodes at once. */
  async indexNodes(
    q: NodeListQuery = {},
  ): Promise<{ readonly byUuid: ReadonlyMap<string, IronicNode>; readonly byName: ReadonlyMap<string, IronicNode> }> {
    const nodes = await this.listNodes(q.fields ? { ...q, fields: [...q.fields, "name"] } : q);
    return {
      byUuid: new Map(nodes.map((n) => [n.uuid, n])),
      byName: new Map(nodes.filter((n) => n.name).map((n) => [n.name as string, n])),
    };
  }

  /** Applies an RFC 6902 patch (retried while the node is locked). */
  async updateNode(id: string, patch: readonly JsonPatchOp[], signal?: AbortSignal): Promise<IronicNode> {
    return parseNode(this.t.json(await this.t.send("PATCH", `/v1/nodes/${enc(id)}`, { json: patch, signal })));
  }

  /** Deletes a node; an absent node counts as deleted. */
  async deleteNode(id: string, signal?: AbortSignal): Promise<void> {
    await this.t.send("DELETE", `/v1/nodes/${enc(id)}`, { signal, alsoOk: [404] });
  }

  /** Requests a provision transition (202: it runs in the conductor; poll with waitForProvisionState). */
  async setProvisionState(
    id: string,
    target: ProvisionTarget,
    o: ProvisionOptions & { readonly signal?: AbortSignal } = {},
  ): Promise<void> {
    const version = await this.t.microversion(o.signal);
    const needs = TARGET_MIN_MICROVERSION[target];
    if (needs && compareMicroversions(version, needs) < 0) {
      throw new IronicError(
        "RACKFORM_ERR_IRONIC_MICROVERSION",
        `provision target ${JSON.stringify(target)} needs Ironic API ${needs}; this Ironic speaks up to ${this.t.serverRange?.max ?? version}`,
        {},
        { requested: needs, max: this.t.serverRange?.max },
      );
    }
    const json: Record<string, unknown> = { target };
    if (o.cleanSteps) json.clean_steps = o.cleanSteps;
    if (o.serviceSteps) json.service_steps = o.serviceSteps;
    if (o.deploySteps) json.deploy_steps = o.deploySteps;
    if (o.configdrive !== undefined) json.configdrive = o.configdrive;
    if (o.disableRamdisk !== undefined) json.disable_ramdisk = o.disableRamdisk;
    await this.t.send("PUT", `/v1/nodes/${enc(id)}/states/provision`, { json, signal: o.signal });
  }

  /** Polls until the node settles in `target` (e.g. "available"); see WaitForProvisionOptions. */
  waitForProvisionState(id: string, target: string, o: WaitForProvisionOptions = {}): Promise<IronicNode> {
    const fields = [
      "uuid",
      "name",
      "provision_state",
      "target_provision_state",
      "last_error",
      "power_state",
      "reservation",
    ];
    // Each poll takes any node list started since its previous read (many waits, one list), else reads the node.
    let mark: number | undefined;
    const read = async (nid: string, signal?: AbortSignal) => {
      const listed = mark === undefined ? undefined : await this.nodes.get(nid, fields, { newerThan: mark });
      const n = listed ?? (await this.getNode(nid, { fields, signal }));
      mark = this.nodes.mark();
      return n;
    };
    return waitForProvisionState(
      { read, redactor: this.core.redactor, steps: this.steps, ...this.opts.clock },
      id,
      target,
      o,
    );
  }

  /** Requests a power change (202: the conductor applies it). */
  async setPowerState(
    id: string,
    target: PowerTarget,
    o: { readonly timeoutS?: number; readonly signal?: AbortSignal } = {},
  ): Promise<void> {
    const json = { target, ...(o.timeoutS !== undefined ? { timeout: o.timeoutS } : {}) };
    await this.t.send("PUT", `/v1/nodes/${enc(id)}/states/power`, { json, signal: o.signal });
  }

  /** Polls until power_state is `target` ("power on"/"power off") with no power change pending. */
  async waitForPowerState(
    id: string,
    target: "power on" | "power off",
    o: { readonly timeoutMs?: number; readonly pollMs?: PollSpec; readonly signal?: AbortSignal } = {},
  ): Promise<IronicNode> {
    const now = this.opts.clock?.now ?? Date.now;
    const timeoutMs = o.timeoutMs ?? 300_000;
    const start = now();
    const deadline = start + timeoutMs;
    for (;;) {
      const n = await this.getNode(id, {
        fields: ["name", "power_state", "target_power_state", "last_error"],
        signal: o.signal,
      });
      if (n.powerState === target && !n.targetPowerState) return n;
      if (now() >= deadline) {
        throw this.core.redactor.scrub(
          new IronicError(
            "RACKFORM_ERR_IRONIC_PROVISION_TIMEOUT",
            `node ${n.name ?? n.uuid} is still ${n.powerState ?? "in an unknown power state"} after ${timeoutMs} ms waiting for ${target}` +
              `${n.lastError ? `: ${n.lastError}` : ""}`,
            {},
            { uuid: n.uuid, powerState: n.powerState ?? null, lastError: n.lastError ?? null },
          ),
        );
      }
      try {
        await (this.opts.clock?.sleep ?? abortableSleep)(
          Math.min(nextPollMs(o.pollMs ?? { minMs: 500, maxMs: 5_000 }, now() - start), Math.max(0, deadline - now())),
          o.signal,
        );
      } catch (e) {
        throw abortedError(this.core.redactor, { method: "GET", url: `node ${id}` }, e);
      }
    }
  }

  /** Puts a node in (with a reason) or out of maintenance. */
  async setMaintenance(id: string, on: boolean, reason?: string, signal?: AbortSignal): Promise<void> {
    const path = `/v1/nodes/${enc(id)}/maintenance`;
    if (on) await this.t.send("PUT", path, { json: reason ? { reason } : {}, signal });
    else await this.t.send("DELETE", path, { signal });
  }

  /** Asks every driver interface whether the node's configuration is complete. */
  async validate(id: string, signal?: AbortSignal): Promise<IronicValidation> {
    return parseValidation(this.t.json(await this.t.send("GET", `/v1/nodes/${enc(id)}/validate`, { signal })));
  }

  /** Sends one request at an explicit microversion, without negotiation (diagnostics and tests). */
  async rawAtVersion(method: string, path: string, version: string): Promise<number> {
    return (await this.t.raw(method, path, { version })).status;
  }

  /** Closes the owned HTTP core (a shared core is left open). */
  async close(): Promise<void> {
    if (this.ownsCore) await this.core.close();
  }
}

function enc(id: string): string {
  return encodeURIComponent(id);
}

function withUuid(fields: readonly string[]): string[] {
  return [...new Set(["uuid", ...fields])];
}
