/** Kubernetes core/v1 nodes: list (labelSelector), create, get, merge or strategic merge patch, and delete. */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { readText } from "./http-io.js";
import type { K8sCluster, K8sRoute } from "./k8s-cluster.js";
import { type K8sObject, K8sStatusError, validateNode } from "./k8s-objects.js";
import { mergePatch, PatchError, strategicMergePatch } from "./k8s-patch.js";

const PATCH_TYPES = new Set(["application/merge-patch+json", "application/strategic-merge-patch+json"]);

async function patchNode(c: K8sCluster, req: IncomingMessage, name: string): Promise<K8sObject> {
  const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  if (!PATCH_TYPES.has(type)) {
    throw new K8sStatusError(
      415,
      "UnsupportedMediaType",
      `the body of the request was in an unknown format - accepted media types include: ${[...PATCH_TYPES].join(", ")}`,
    );
  }
  const current = c.getNode(name);
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
  c.syncUnschedulableTaint(next);
  next.metadata.resourceVersion = c.nextRv();
  c.nodes.set(name, next);
  return next;
}

/**
 * POST /api/v1/nodes as an admin creates a Node by hand (`kubectl create -f node.yaml`): metadata.name, labels and
 * spec are kept; status is the kubelet's to write (it stays empty, hence not Ready, until the kubelet posts). The
 * API server's TaintNodesByCondition admission adds node.kubernetes.io/not-ready:NoSchedule to every new Node (as a
 * real kube-apiserver does: test/contract/kubernetes); the kubelet's first status update lifts it.
 */
async function createNode(c: K8sCluster, req: IncomingMessage): Promise<K8sObject> {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(await readText(req)) as Record<string, unknown>;
  } catch (e) {
    throw new K8sStatusError(400, "BadRequest", `error decoding body: ${(e as Error).message}`);
  }
  const md = (body?.metadata ?? {}) as Record<string, unknown>;
  const name = typeof md.name === "string" ? md.name : "";
  if (!name)
    throw new K8sStatusError(422, "Invalid", 'Node "" is invalid: metadata.name: Required value: name is required');
  if (c.nodes.has(name)) {
    throw new K8sStatusError(409, "AlreadyExists", `nodes "${name}" already exists`, { name, kind: "nodes" });
  }
  const n: K8sObject = {
    kind: "Node",
    apiVersion: "v1",
    metadata: {
      name,
      uid: randomUUID(),
      resourceVersion: "",
      creationTimestamp: c.iso(),
      ...(md.labels && typeof md.labels === "object" ? { labels: md.labels } : {}),
    },
    spec: { ...((body.spec ?? {}) as Record<string, unknown>) },
    status: {},
  };
  const errs = validateNode(n);
  if (errs.length) throw new K8sStatusError(422, "Invalid", `Node "${name}" is invalid: ${errs.join(", ")}`);
  c.addNotReadyTaint(n);
  c.syncUnschedulableTaint(n);
  n.metadata.resourceVersion = c.nextRv();
  c.nodes.set(name, n);
  return n;
}

function matchLabels(n: K8sObject, sel: string | null): boolean {
  if (!sel) return true;
  const labels = (n.metadata.labels ?? {}) as Record<string, string>;
  return sel.split(",").every((term) => {
    const [k, v] = term.split(/==?/);
    return v === undefined ? k in labels : labels[k] === v;
  });
}

/** Routes of /api/v1/nodes and /api/v1/nodes/{name}. */
export function nodeRoutes(c: K8sCluster): K8sRoute[] {
  return [
    {
      method: "GET",
      pattern: /^\/api\/v1\/nodes$/,
      run: async ({ url, auth }) => {
        auth(false, "list", "nodes");
        const items = [...c.nodes.values()].filter((n) => matchLabels(n, url.searchParams.get("labelSelector")));
        return [200, { kind: "NodeList", apiVersion: "v1", metadata: { resourceVersion: c.resourceVersion }, items }];
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/v1\/nodes$/,
      run: async ({ req, auth }) => {
        auth(true, "create", "nodes");
        return [201, await createNode(c, req)];
      },
    },
    {
      method: "GET",
      pattern: /^\/api\/v1\/nodes\/([^/]+)$/,
      run: async ({ auth }, node) => {
        auth(false, "get", "nodes");
        return [200, c.getNode(decodeURIComponent(node[1]))];
      },
    },
    {
      method: "PATCH",
      pattern: /^\/api\/v1\/nodes\/([^/]+)$/,
      run: async ({ req, auth }, node) => {
        const name = decodeURIComponent(node[1]);
        auth(true, "patch", `nodes "${name}"`);
        return [200, await patchNode(c, req, name)];
      },
    },
    {
      // A Node has no finalizers: the API server deletes it at once and answers 200 with the object as it was.
      method: "DELETE",
      pattern: /^\/api\/v1\/nodes\/([^/]+)$/,
      run: async ({ auth }, node) => {
        const name = decodeURIComponent(node[1]);
        auth(true, "delete", `nodes "${name}"`);
        return [200, c.deleteNode(name)];
      },
    },
  ];
}
