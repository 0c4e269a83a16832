/**
 * KubernetesClient: node admission and drain through the API server: batched node reads, cordon/uncordon, labels,
 * taints (read–modify–write guarded by resourceVersion), and a drain that evicts through the Eviction API so that
 * PodDisruptionBudgets are honoured. Errors are KubernetesErrors with stable codes; the token never appears in them.
 */
import { ClientConfigError, isClientError } from "../errors.js";
import { CONTROLLER_CONCURRENCY, HttpCore, type HttpCoreOptions, type HttpResponse } from "../http/core.js";
import { abortableSleep } from "../http/retry.js";
import { SharedList } from "../http/shared-list.js";
import { safeUrl } from "../redact.js";
import { drainNode } from "./drain.js";
import { KubernetesError, type KubernetesStatus } from "./errors.js";
import { parseLease, parseNode, parsePod, parseStatus } from "./parse.js";
import type { DrainOptions, DrainResult, KubernetesLease, KubernetesNode, KubernetesPod, Taint } from "./types.js";

/** Options of a KubernetesClient. */
export interface KubernetesClientOptions {
  /** API server URL, e.g. https://10.0.0.1:6443. */
  readonly url: string;
  /** Bearer token (service account or user); a secret. */
  readonly token: string;
  /** CA bundle (PEM text or file path) of the API server. @default the Node.js root store */
  readonly ca?: string;
  /** A shared core. @default a core owned and closed by this client, CONTROLLER_CONCURRENCY requests at once */
  readonly core?: HttpCore;
  /** Options of the owned core when `core` is not given (TLS comes from ca). */
  readonly http?: Omit<HttpCoreOptions, "tls">;
  /** Waits between eviction retries. @default a timer the signal interrupts */
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Clock of drain deadlines. @default Date.now */
  readonly now?: () => number;
  /** Reuse a finished node list for this long; writes through this client invalidate it. @default 0 (concurrent reads only) */
  readonly nodeCacheMaxAgeMs?: number;
}

/** A low-level answer: status and parsed body, for callers that branch on the status (evictions). */
export interface RawAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly k8sStatus?: KubernetesStatus;
}

const MAX_CONFLICT_RETRIES = 5;

/** A client of one Kubernetes API server. */
export class KubernetesClient {
  readonly origin: string;
  private readonly core: HttpCore;
  private readonly ownsCore: boolean;
  private readonly auth: Readonly<Record<string, string>>;
  private readonly nodes: SharedList<KubernetesNode>;

  constructor(private readonly opts: KubernetesClientOptions) {
    let url: URL;
    try {
      url = new URL(opts.url);
    } catch {
      throw new ClientConfigError(`url: ${JSON.stringify(safeUrl(opts.url))} is not a URL; use https://host:6443`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new ClientConfigError(`url: unsupported scheme ${url.protocol}; use https://host:6443`);
    }
    if (!opts.token) throw new ClientConfigError("token: a bearer token for the Kubernetes API is required");
    this.origin = url.origin;
    this.ownsCore = !opts.core;
    const tls = opts.ca !== undefined ? { ca: opts.ca } : undefined;
    this.core = opts.core ?? new HttpCore({ maxConcurrentPerHost: CONTROLLER_CONCURRENCY, ...opts.http, tls });
    if (opts.core && tls) this.core.configureOrigin(this.origin, { tls, maxConcurrent: CONTROLLER_CONCURRENCY });
    this.core.redactor.add(opts.token);
    this.auth = { authorization: `Bearer ${opts.token}` };
    this.nodes = new SharedList(() => this.loadNodes(), { maxAgeMs: opts.nodeCacheMaxAgeMs, now: opts.now });
  }

  /** Number of node-list requests sent (a figure for logs and tests of batching). */
  get listRequests(): number {
    return this.nodes.requests;
  }

  /** Every node; concurrent callers share one GET /api/v1/nodes, none joins a list started before this client's last write. */
  listNodes(): Promise<readonly KubernetesNode[]> {
    return this.nodes.all();
  }

  private async loadNodes(): Promise<KubernetesNode[]> {
    const body = await this.json("GET", "/api/v1/nodes");
    const items = (body as { items?: unknown }).items;
    if (!Array.isArray(items)) {
      throw this.fail("RACKFORM_ERR_KUBERNETES_BAD_PAYLOAD", "GET /api/v1/nodes: no items[] in the NodeList", {});
    }
    return items.map((i) => this.node(i, "GET /api/v1/nodes"));
  }

  /** One node from the shared list (`fresh`: not from the cache window); RACKFORM_ERR_KUBERNETES_NOT_FOUND when the kubelet never registered it. */
  async getNode(name: string, opts: { readonly fresh?: boolean } = {}): Promise<KubernetesNode> {
    const node = (await this.nodes.all(opts)).find((n) => n.name === name);
    if (!node) {
      throw this.fail(
        "RACKFORM_ERR_KUBERNETES_NOT_FOUND",
        `node ${name} is not registered with the Kubernetes API (its kubelet has not joined)`,
        {},
      );
    }
    return node;
  }

  /** Marks the node unschedulable (as `kubectl cordon`). */
  cordon(name: string): Promise<KubernetesNode> {
    return this.patch(name, "application/strategic-merge-patch+json", { spec: { unschedulable: true } });
  }

  /** Makes the node schedulable again (as `kubectl uncordon`). */
  uncordon(name: string): Promise<KubernetesNode> {
    return this.patch(name, "application/strategic-merge-patch+json", { spec: { unschedulable: null } });
  }

  /** Sets labels; a null value removes the label. Other labels are kept. */
  setLabels(name: string, labels: Readonly<Record<string, string | null>>): Promise<KubernetesNode> {
    return this.patch(name, "application/merge-patch+json", { metadata: { labels } });
  }

  /** Leases in `namespace` carrying every label of `labels` (coordination.k8s.io/v1). */
  async listLeases(namespace: string, labels: Readonly<Record<string, string>>): Promise<KubernetesLease[]> {
    const sel = Object.entries(labels)
      .map(([k, v]) => `${k}=${v}`)
      .join(",");
    const body = await this.json("GET", `${leasesPath(namespace)}?labelSelector=${encodeURIComponent(sel)}`);
    const items = (body as { items?: unknown }).items;
    if (!Array.isArray(items)) throw this.fail("RACKFORM_ERR_KUBERNETES_BAD_PAYLOAD", "LeaseList without items[]", {});
    return items.map((i) => this.lease(i));
  }

  /** Creates the lease `name`, or replaces it (guarded by its resourceVersion, retried on a conflict). */
  async putLease(
    namespace: string,
    name: string,
    spec: { readonly holder: string; readonly durationSeconds: number; readonly labels: Record<string, string> },
  ): Promise<void> {
    const object = (resourceVersion?: string) => ({
      apiVersion: "coordination.k8s.io/v1",
      kind: "Lease",
      metadata: { name, namespace, labels: spec.labels, ...(resourceVersion ? { resourceVersion } : {}) },
      spec: {
        holderIdentity: spec.holder,
        leaseDurationSeconds: spec.durationSeconds,
        renewTime: new Date(this.opts.now?.() ?? Date.now()).toISOString().replace("Z", "000Z"),
      },
    });
    for (let attempt = 1; ; attempt++) {
      try {
        await this.json("POST", leasesPath(namespace), object(), undefined, name);
        return;
      } catch (e) {
        if (!(e instanceof KubernetesError && e.code === "RACKFORM_ERR_KUBERNETES_CONFLICT")) throw e;
      }
      const current = this.lease(await this.json("GET", `${leasesPath(namespace)}/${encodeURIComponent(name)}`));
      try {
        await this.json("PUT", `${leasesPath(namespace)}/${encodeURIComponent(name)}`, object(current.resourceVersion));
        return;
      } catch (e) {
        const again = e instanceof KubernetesError && e.code === "RACKFORM_ERR_KUBERNETES_CONFLICT" && attempt < 5;
        if (!again) throw e;
      }
    }
  }

  /** Deletes the lease `name`; resolves when it is already gone. */
  async deleteLease(namespace: string, name: string): Promise<void> {
    try {
      await this.json("DELETE", `${leasesPath(namespace)}/${encodeURIComponent(name)}`);
    } catch (e) {
      if (!(e instanceof KubernetesError && e.code === "RACKFORM_ERR_KUBERNETES_NOT_FOUND")) throw e;
    }
  }

  /**
   * Makes the node carry exactly `taints` among the keys rackform manages (the keys of `taints` plus `removeKeys`);
   * taints of other keys (set by controllers or people) are kept. Guarded by resourceVersion, retried on conflict.
   */
  async setTaints(
    name: string,
    taints: readonly Taint[],
    opts: { readonly removeKeys?: readonly string[] } = {},
  ): Promise<KubernetesNode> {
    const managed = new Set([...taints.map((t) => t.key), ...(opts.removeKeys ?? [])]);
    for (let attempt = 1; ; attempt++) {
      const current = this.node(
        await this.json("GET", `/api/v1/nodes/${encodeURIComponent(name)}`, undefined, undefined, name),
        "GET node",
      );
      const next = [...current.taints.filter((t) => !managed.has(t.key)), ...taints];
      try {
        return await this.patch(name, "application/merge-patch+json", {
          metadata: { resourceVersion: current.resourceVersion },
          spec: { taints: next.length ? next : null },
        });
      } catch (e) {
        if (!isClientError(e, "RACKFORM_ERR_KUBERNETES_CONFLICT") || attempt >= MAX_CONFLICT_RETRIES) throw e;
      }
    }
  }

  /**
   * Creates a Node object by name (as an admin's `kubectl create -f node.yaml`), for a node whose object was deleted
   * while its kubelet runs: a running kubelet never registers again (kubernetes/kubernetes#71398), but its next status
   * update fills the object in. RACKFORM_ERR_KUBERNETES_CONFLICT (409 AlreadyExists) when it exists.
   */
  async createNode(
    name: string,
    opts: { readonly labels?: Readonly<Record<string, string>>; readonly taints?: readonly Taint[] } = {},
  ): Promise<KubernetesNode> {
    this.nodes.invalidate();
    try {
      const body = {
        apiVersion: "v1",
        kind: "Node",
        metadata: { name, ...(opts.labels ? { labels: opts.labels } : {}) },
        spec: opts.taints?.length ? { taints: opts.taints } : {},
      };
      return this.node(await this.json("POST", "/api/v1/nodes", body, undefined, name), `POST node ${name}`);
    } finally {
      this.nodes.invalidate();
    }
  }

  /**
   * Deletes the Node object (as `kubectl delete node`): the API server forgets it and the pod garbage collector removes
   * pods still bound to it. Drain first. RACKFORM_ERR_KUBERNETES_NOT_FOUND when it is already gone. A kubelet that
   * still runs does not register it again (only a restarted one does); createNode brings it back.
   */
  async deleteNode(name: string): Promise<void> {
    this.nodes.invalidate();
    try {
      await this.json("DELETE", `/api/v1/nodes/${encodeURIComponent(name)}`, undefined, undefined, name);
    } finally {
      this.nodes.invalidate();
    }
  }

  /** Pods bound to the node (GET /api/v1/pods?fieldSelector=spec.nodeName=…). */
  async podsOn(name: string): Promise<KubernetesPod[]> {
    const q = new URLSearchParams({ fieldSelector: `spec.nodeName=${name}` });
    const body = await this.json("GET", `/api/v1/pods?${q}`);
    const items = (body as { items?: unknown }).items;
    if (!Array.isArray(items))
      throw this.fail("RACKFORM_ERR_KUBERNETES_BAD_PAYLOAD", "GET /api/v1/pods: no items[] in the PodList", {});
    return items.map((i) => {
      const p = parsePod(i);
      if (typeof p === "string") throw this.fail("RACKFORM_ERR_KUBERNETES_BAD_PAYLOAD", `GET /api/v1/pods: ${p}`, {});
      return p;
    });
  }

  /** Cordons, then evicts every pod that is neither a DaemonSet pod nor a mirror pod, retrying PDB refusals (429). */
  drain(name: string, opts: DrainOptions): Promise<DrainResult> {
    return drainNode(this, name, opts, { sleep: this.opts.sleep ?? abortableSleep, now: this.opts.now ?? Date.now });
  }

  /** POSTs a policy/v1 Eviction; answers the status (201 evicted, 404 gone, 429 refused by a PDB) instead of throwing for them. */
  async evict(namespace: string, pod: string, signal?: AbortSignal): Promise<RawAnswer> {
    const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/pods/${encodeURIComponent(pod)}/eviction`;
    const json = { apiVersion: "policy/v1", kind: "Eviction", metadata: { name: pod, namespace } };
    const res = await this.send("POST", path, json, (s) => s !== 503, signal);
    if (res.status >= 300 && res.status !== 404 && res.status !== 429) throw this.statusError(res);
    return { status: res.status, body: safeJson(res.body), k8sStatus: parseStatus(res.body) };
  }

  /** Closes the owned core. */
  async close(): Promise<void> {
    if (this.ownsCore) await this.core.close();
  }

  /** A typed, redacted error (for the drain helper). */
  fail(
    code: ConstructorParameters<typeof KubernetesError>[0],
    message: string,
    ctx: ConstructorParameters<typeof KubernetesError>[2],
    status?: KubernetesStatus,
    details: Record<string, unknown> = {},
  ): KubernetesError {
    return this.core.redactor.scrub(new KubernetesError(code, message, ctx, status, details));
  }

  private async patch(name: string, contentType: string, body: unknown): Promise<KubernetesNode> {
    this.nodes.invalidate();
    try {
      const path = `/api/v1/nodes/${encodeURIComponent(name)}`;
      return this.node(await this.json("PATCH", path, body, contentType, name), `PATCH node ${name}`);
    } finally {
      this.nodes.invalidate();
    }
  }

  private lease(raw: unknown): KubernetesLease {
    const l = parseLease(raw);
    if (typeof l === "string") throw this.fail("RACKFORM_ERR_KUBERNETES_BAD_PAYLOAD", l, {});
    return l;
  }

  private node(raw: unknown, where: string): KubernetesNode {
    const n = parseNode(raw);
    if (typeof n === "string") throw this.fail("RACKFORM_ERR_KUBERNETES_BAD_PAYLOAD", `${where}: ${n}`, {});
    return n;
  }

  private async json(
    method: string,
    path: string,
    body?: unknown,
    contentType?: string,
    object?: string,
  ): Promise<unknown> {
    const res = await this.send(method, path, body, undefined, undefined, contentType);
    const where = `${method} ${res.url}`;
    const parsed = safeJson(res.body);
    if (res.status < 300) {
      if (parsed === undefined)
        throw this.fail("RACKFORM_ERR_KUBERNETES_BAD_PAYLOAD", `${where}: response is not JSON`, {
          method,
          url: res.url,
          status: res.status,
        });
      return parsed;
    }
    throw this.statusError(res, object);
  }

  /** The typed error of a non-success answer, from its metav1.Status. */
  private statusError(res: HttpResponse, object?: string): KubernetesError {
    const where = `${res.method} ${res.url}`;
    const st = parseStatus(res.body);
    const said = st?.message ?? (res.body.trim().slice(0, 200) || `HTTP ${res.status}`);
    const ctx = {
      method: res.method,
      url: res.url,
      status: res.status,
      serverMessage: st?.message,
      attempts: res.attempts,
    };
    const code =
      res.status === 401
        ? "RACKFORM_ERR_KUBERNETES_AUTH"
        : res.status === 403
          ? "RACKFORM_ERR_KUBERNETES_FORBIDDEN"
          : res.status === 404
            ? "RACKFORM_ERR_KUBERNETES_NOT_FOUND"
            : res.status === 409
              ? "RACKFORM_ERR_KUBERNETES_CONFLICT"
              : res.status === 400 || res.status === 415 || res.status === 422
                ? "RACKFORM_ERR_KUBERNETES_INVALID"
                : "RACKFORM_ERR_HTTP_STATUS";
    const hint =
      code === "RACKFORM_ERR_KUBERNETES_AUTH"
        ? "; check the token"
        : code === "RACKFORM_ERR_KUBERNETES_FORBIDDEN"
          ? "; the token's identity needs RBAC rights to patch (and, to remove a node for good, delete) nodes, list pods, create pods/eviction, and manage leases in kube-system (create, get, list, update, delete: the disruption budget)"
          : code === "RACKFORM_ERR_KUBERNETES_NOT_FOUND" && object
            ? `; node ${object} is not registered`
            : "";
    return this.fail(code, `${where} failed with HTTP ${res.status} ${st?.reason ?? ""}: ${said}${hint}`, ctx, st);
  }

  private send(
    method: string,
    path: string,
    body: unknown,
    okStatus?: (s: number) => boolean,
    signal?: AbortSignal,
    contentType?: string,
  ): Promise<HttpResponse> {
    return this.core.request({
      method,
      url: `${this.origin}${path}`,
      headers: { ...this.auth, ...(contentType ? { "content-type": contentType } : {}) },
      ...(body !== undefined ? (contentType ? { body: JSON.stringify(body) } : { json: body }) : {}),
      // Patches here set absolute values and evictions of a gone pod answer 404, so repeating either is harmless.
      idempotent: true,
      okStatus: okStatus ?? ((s) => s !== 429 && s !== 503),
      signal,
    });
  }
}

function safeJson(text: string): unknown {
  try {
    return text.trim() ? JSON.parse(text) : {};
  } catch {
    return undefined;
  }
}

const leasesPath = (namespace: string) =>
  `/apis/coordination.k8s.io/v1/namespaces/${encodeURIComponent(namespace)}/leases`;
