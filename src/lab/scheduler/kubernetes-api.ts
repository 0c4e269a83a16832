/**
 * createKubernetesApi: the lab's Kubernetes API server, the slice a node join and drain touch: core/v1 nodes (get,
 * list, merge and strategic merge patch), pods by node, and the policy/v1 Eviction subresource. Bearer-token auth.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type ListeningServer,
  listenOn,
  readText,
  type SchedulerClock,
  type SchedulerRequestLogEntry,
  type ServerTls,
  sendJson,
  wallClock,
} from "./http-io.js";
import {
  type K8sObject,
  K8sStatusError,
  type KubeletRegistration,
  type LabPodSpec,
  newNode,
  newPod,
  notFound,
  validateNode,
} from "./k8s-objects.js";
import { mergePatch, PatchError, strategicMergePatch } from "./k8s-patch.js";

/** Options of createKubernetesApi. */
export interface KubernetesApiOptions {
  /** Bearer token with cluster-admin rights. */
  readonly token: string;
  /** A token that may read but not patch or evict (answers 403). @default none */
  readonly readOnlyToken?: string;
  /** Time source for timestamps. @default the wall clock */
  readonly clock?: SchedulerClock;
}

/** Test hooks: what kubelets, controllers and PodDisruptionBudgets would do. */
export interface KubernetesLabHooks {
  /** The kubelet on the node registered it. */
  registerNode(name: string, reg?: KubeletRegistration): void;
  /** The Node object is deleted (machine deprovisioned); its pods go with it, as the pod GC does. */
  deleteNode(name: string): void;
  /** A pod is scheduled and running on a node. */
  addPod(pod: LabPodSpec): void;
  /** A PodDisruptionBudget refuses the next `times` evictions of the pod (Infinity: until unblocked). */
  blockEviction(namespace: string, name: string, times?: number): void;
  /** Stored objects. */
  node(name: string): Readonly<K8sObject> | undefined;
  pods(node?: string): readonly Readonly<K8sObject>[];
}

/** The running lab API server. */
export interface KubernetesApi {
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Serves on host:port; `url` is the API server base (http://host:port). */
  listen(host: string, port: number, tls?: ServerTls): Promise<ListeningServer>;
  readonly requests: readonly SchedulerRequestLogEntry[];
  readonly hooks: KubernetesLabHooks;
  stop(): void;
}

const UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";
const PATCH_TYPES = new Set(["application/merge-patch+json", "application/strategic-merge-patch+json"]);

/** Creates a lab Kubernetes API with no nodes. */
export function createKubernetesApi(opts: KubernetesApiOptions): KubernetesApi {
  const clock = opts.clock ?? wallClock;
  const nodes = new Map<string, K8sObject>();
  const pods = new Map<string, K8sObject>();
  const blocked = new Map<string, number>();
  const requests: SchedulerRequestLogEntry[] = [];
  let rv = 1000;
  const nextRv = (): string => String(++rv);
  const iso = (): string => new Date(clock.now()).toISOString().replace(/\.\d{3}Z$/, "Z");

  function auth(req: IncomingMessage, write: boolean, verb: string, resource: string): void {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? "");
    const token = m?.[1];
    if (token === opts.token) return;
    if (token !== undefined && token === opts.readOnlyToken) {
      if (!write) return;
      throw new K8sStatusError(
        403,
        "Forbidden",
        `${resource} is forbidden: User "system:serviceaccount:rackform:reader" cannot ${verb} resource "${resource.split(" ")[0]}" in API group "${resource.includes("eviction") ? "policy" : ""}" at the cluster scope`,
        { kind: resource.split(" ")[0] },
      );
    }
    throw new K8sStatusError(401, "Unauthorized", "Unauthorized");
  }

  function getNode(name: string): K8sObject {
    const n = nodes.get(name);
    if (!n) throw notFound("nodes", name);
    return n;
  }

  // The node lifecycle controller keeps the unschedulable taint in step with spec.unschedulable.
  function syncUnschedulableTaint(n: K8sObject): void {
    const spec = (n.spec ?? {}) as Record<string, unknown>;
    const taints = ((spec.taints as Record<string, unknown>[] | undefined) ?? []).filter(
      (t) => t.key !== UNSCHEDULABLE_TAINT,
    );
    if (spec.unschedulable === true) taints.push({ key: UNSCHEDULABLE_TAINT, effect: "NoSchedule", timeAdded: iso() });
    if (taints.length) spec.taints = taints;
    else delete spec.taints;
    n.spec = spec;
  }

  async function patchNode(req: IncomingMessage, name: string): Promise<K8sObject> {
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (!PATCH_TYPES.has(type)) {
      throw new K8sStatusError(
        415,
        "UnsupportedMediaType",
        `the body of the request was in an unknown format - accepted media types include: ${[...PATCH_TYPES].join(", ")}`,
      );
    }
    const current = getNode(name);
    let patch: unknown;
    try {
      patch = JSON.parse(await readText(req));
    } catch (e) {
      throw new K8sStatusError(400, "BadRequest", `error decoding patch: ${(e as Error).message}`);
    }
    const wantRv = (patch as { metadata?: { resourceVersion?: unknown } })?.metadata?.resourceVersion;
    if (wantRv !== undefined && wantRv !== current.metadata.resourceVersion) {
      throw new K8sStatusError(
        409,
        "Conflict",
        `Operation cannot be fulfilled on nodes "${name}": the object has been modified; please apply your changes to the latest version and try again`,
        { name, kind: "nodes" },
      );
    }
    let next: K8sObject;
    try {
      next = (
        type === "application/merge-patch+json" ? mergePatch(current, patch) : strategicMergePatch(current, patch)
      ) as K8sObject;
    } catch (e) {
      if (e instanceof PatchError) throw new K8sStatusError(422, "Invalid", `Node "${name}" is invalid: ${e.message}`);
      throw e;
    }
    next.metadata = {
      ...next.metadata,
      name,
      uid: current.metadata.uid,
      resourceVersion: current.metadata.resourceVersion,
    };
    const errs = validateNode(next);
    if (errs.length) {
      throw new K8sStatusError(422, "Invalid", `Node "${name}" is invalid: ${errs.join(", ")}`, {
        name,
        kind: "Node",
        causes: errs.map((m) => ({ reason: "FieldValueInvalid", message: m, field: m.split(":")[0] })),
      });
    }
    syncUnschedulableTaint(next);
    next.metadata.resourceVersion = nextRv();
    nodes.set(name, next);
    return next;
  }

  async function evict(req: IncomingMessage, ns: string, name: string): Promise<Record<string, unknown>> {
    const key = `${ns}/${name}`;
    const body = JSON.parse((await readText(req)) || "{}") as Record<string, unknown>;
    if (body.kind !== "Eviction" || !String(body.apiVersion ?? "").startsWith("policy/")) {
      throw new K8sStatusError(
        400,
        "BadRequest",
        `expected kind Eviction in policy/v1, got ${String(body.kind)} in ${String(body.apiVersion)}`,
      );
    }
    const bodyName = (body.metadata as { name?: unknown } | undefined)?.name;
    if (bodyName !== name)
      throw new K8sStatusError(400, "BadRequest", "name in URL does not match name in Eviction object");
    if (!pods.has(key)) throw notFound("pods", name);
    const left = blocked.get(key) ?? 0;
    if (left > 0) {
      blocked.set(key, left - 1);
      throw new K8sStatusError(
        429,
        "TooManyRequests",
        "Cannot evict pod as it would violate the pod's disruption budget.",
        {
          causes: [
            {
              reason: "DisruptionBudget",
              message: `The disruption budget ${name.replace(/-[^-]+$/, "")}-pdb needs 1 healthy pods and has 1 currently`,
            },
          ],
        },
      );
    }
    pods.delete(key);
    return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 };
  }

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? "/", "http://lab.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/\/+$/, "");
    const reply = (status: number, body: unknown): number => {
      sendJson(res, status, body);
      return status;
    };
    if (path === "/api/v1/nodes" && method === "GET") {
      auth(req, false, "list", "nodes");
      const items = [...nodes.values()].filter((n) => matchLabels(n, url.searchParams.get("labelSelector")));
      return reply(200, { kind: "NodeList", apiVersion: "v1", metadata: { resourceVersion: String(rv) }, items });
    }
    const node = /^\/api\/v1\/nodes\/([^/]+)$/.exec(path);
    if (node && method === "GET") {
      auth(req, false, "get", "nodes");
      return reply(200, getNode(decodeURIComponent(node[1])));
    }
    if (node && method === "PATCH") {
      const name = decodeURIComponent(node[1]);
      auth(req, true, "patch", `nodes "${name}"`);
      return reply(200, await patchNode(req, name));
    }
    const podList = /^\/api\/v1(?:\/namespaces\/([^/]+))?\/pods$/.exec(path);
    if (podList && method === "GET") {
      auth(req, false, "list", "pods");
      const onNode = parseNodeSelector(url.searchParams.get("fieldSelector"));
      const items = [...pods.values()].filter(
        (p) =>
          (!podList[1] || p.metadata.namespace === podList[1]) &&
          (onNode === undefined || (p.spec as { nodeName?: string }).nodeName === onNode),
      );
      return reply(200, { kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: String(rv) }, items });
    }
    const eviction = /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/eviction$/.exec(path);
    if (eviction && method === "POST") {
      const [ns, name] = [decodeURIComponent(eviction[1]), decodeURIComponent(eviction[2])];
      auth(req, true, "create", `pods "${name}" eviction`);
      return reply(201, await evict(req, ns, name));
    }
    throw new K8sStatusError(404, "NotFound", "the server could not find the requested resource", {});
  }

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const method = (req.method ?? "GET").toUpperCase();
    const path = new URL(req.url ?? "/", "http://lab.invalid").pathname;
    serve(req, res).then(
      (status) => requests.push({ method, path, status }),
      (e: unknown) => {
        const err =
          e instanceof K8sStatusError
            ? e
            : e instanceof SyntaxError
              ? new K8sStatusError(400, "BadRequest", e.message)
              : new K8sStatusError(500, "InternalError", `Internal error occurred: ${(e as Error)?.message}`);
        requests.push({ method, path, status: err.code });
        if (res.headersSent) return void res.end();
        sendJson(res, err.code, err.body());
      },
    );
  };

  return {
    handler,
    requests,
    hooks: {
      registerNode(name, reg = {}) {
        const n = nodes.get(name) ?? newNode(name, reg, nextRv(), iso());
        syncUnschedulableTaint(n);
        nodes.set(name, n);
      },
      deleteNode(name) {
        nodes.delete(name);
        for (const [k, p] of pods) if ((p.spec as { nodeName?: string } | undefined)?.nodeName === name) pods.delete(k);
      },
      addPod(p) {
        pods.set(`${p.namespace}/${p.name}`, newPod(p, nextRv(), iso()));
      },
      blockEviction(ns, name, times = Number.POSITIVE_INFINITY) {
        blocked.set(`${ns}/${name}`, times);
      },
      node: (name) => nodes.get(name),
      pods: (onNode) =>
        [...pods.values()].filter((p) => onNode === undefined || (p.spec as { nodeName?: string }).nodeName === onNode),
    },
    stop() {},
    listen: (host, port, tls) => listenOn(handler, host, port, { tls }),
  };
}

function parseNodeSelector(sel: string | null): string | undefined {
  if (!sel) return undefined;
  const m = /(?:^|,)spec\.nodeName==?([^,]*)/.exec(sel);
  if (!m) throw new K8sStatusError(400, "BadRequest", `field label not supported: ${sel.split(/[=!]/)[0]}`);
  return m[1];
}

function matchLabels(n: K8sObject, sel: string | null): boolean {
  if (!sel) return true;
  const labels = (n.metadata.labels ?? {}) as Record<string, string>;
  return sel.split(",").every((term) => {
    const [k, v] = term.split(/==?/);
    return v === undefined ? k in labels : labels[k] === v;
  });
}
