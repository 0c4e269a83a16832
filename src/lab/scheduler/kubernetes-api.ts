/**
 * createKubernetesApi: the lab's Kubernetes API server, the slice a node join and drain touch: core/v1 nodes (get,
 * list, merge and strategic merge patch), pods by node, the policy/v1 Eviction subresource, and coordination.k8s.io/v1
 * Leases (rackform's disruption-budget reservations). Bearer-token auth.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type ListeningServer,
  listenOn,
  type SchedulerClock,
  type SchedulerRequestLogEntry,
  type ServerTls,
  sendJson,
  wallClock,
} from "./http-io.js";
import { K8sCluster } from "./k8s-cluster.js";
import { leaseRoutes } from "./k8s-leases-api.js";
import { nodeRoutes } from "./k8s-nodes-api.js";
import {
  type K8sObject,
  K8sStatusError,
  type KubeletRegistration,
  type LabPodSpec,
  newNode,
  newPod,
} from "./k8s-objects.js";
import { podRoutes } from "./k8s-pods-api.js";

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
  /**
   * The kubelet stopped posting status for longer than the node monitor grace period (`false`: Ready Unknown, the
   * unreachable taints) or posts again (`true`: Ready True).
   */
  kubeletPosting(name: string, posting: boolean): void;
  /**
   * The running kubelet's periodic status update: fills in the status of a Node created by hand (POST) after its
   * object was deleted; no-op when the Node is missing (a running kubelet never registers again) or has status.
   */
  kubeletStatusUpdate(name: string, reg?: KubeletRegistration): void;
  /**
   * The node's device plugin reports how many of its `resource` devices are healthy (the NVIDIA device plugin drops a
   * GPU after a critical XID): the Node's allocatable follows, its capacity does not.
   */
  devicesHealthy(name: string, resource: string, healthy: number): void;
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

/** Creates a lab Kubernetes API with no nodes. */
export function createKubernetesApi(opts: KubernetesApiOptions): KubernetesApi {
  const c = new K8sCluster(opts.clock ?? wallClock);
  const routes = [...nodeRoutes(c), ...podRoutes(c), ...leaseRoutes(c)];
  const requests: SchedulerRequestLogEntry[] = [];

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

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? "/", "http://lab.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/\/+$/, "");
    for (const route of routes) {
      const match = route.method === method ? route.pattern.exec(path) : null;
      if (!match) continue;
      const [status, body] = await route.run({ req, url, auth: (...a) => auth(req, ...a) }, match);
      sendJson(res, status, body);
      return status;
    }
    throw new K8sStatusError(404, "NotFound", "the server could not find the requested resource", {});
  }

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const method = (req.method ?? "GET").toUpperCase();
    const path = new URL(req.url ?? "/", "http://lab.invalid").pathname;
    const at = Date.now();
    serve(req, res).then(
      (status) => requests.push({ method, path, status, at }),
      (e: unknown) => {
        const err =
          e instanceof K8sStatusError
            ? e
            : e instanceof SyntaxError
              ? new K8sStatusError(400, "BadRequest", e.message)
              : new K8sStatusError(500, "InternalError", `Internal error occurred: ${(e as Error)?.message}`);
        requests.push({ method, path, status: err.code, at });
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
        const n = c.nodes.get(name) ?? newNode(name, reg, c.nextRv(), c.iso());
        c.syncUnschedulableTaint(n);
        c.nodes.set(name, n);
      },
      kubeletPosting: (name, posting) => c.setKubeletPosting(name, posting),
      kubeletStatusUpdate(name, reg = {}) {
        c.kubeletStatusUpdate(name, () => newNode(name, reg, "0", c.iso()).status as Record<string, unknown>);
      },
      devicesHealthy: (name, resource, healthy) => void c.setAllocatable(name, resource, healthy),
      deleteNode(name) {
        if (c.nodes.has(name)) c.deleteNode(name);
      },
      addPod(p) {
        c.pods.set(`${p.namespace}/${p.name}`, newPod(p, c.nextRv(), c.iso()));
      },
      blockEviction(ns, name, times = Number.POSITIVE_INFINITY) {
        c.blocked.set(`${ns}/${name}`, times);
      },
      node: (name) => c.nodes.get(name),
      pods: (onNode) =>
        [...c.pods.values()].filter(
          (p) => onNode === undefined || (p.spec as { nodeName?: string }).nodeName === onNode,
        ),
    },
    stop() {},
    listen: (host, port, tls) => listenOn(handler, host, port, { tls }),
  };
}
