/**
 * coordination.k8s.io/v1 Leases, the slice a client coordinating through them uses: list in a namespace (with a
 * labelSelector of `key=value` terms), get, create (409 AlreadyExists), replace (409 Conflict on a stale
 * metadata.resourceVersion, as the API server's optimistic concurrency does) and delete. Leases live apart from Nodes,
 * so they outlive a Node object deleted while its machine is reimaged.
 */
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { readText } from "./http-io.js";
import type { K8sCluster, K8sRoute } from "./k8s-cluster.js";
import { type K8sObject, K8sStatusError, notFound } from "./k8s-objects.js";

const BASE = "^/apis/coordination\\.k8s\\.io/v1/namespaces/([^/]+)/leases";

function selects(sel: string | null, labels: Record<string, string> | undefined): boolean {
  if (!sel) return true;
  return sel.split(",").every((term) => {
    const [k, v] = term.split(/==?/);
    return labels?.[k] === v;
  });
}

async function leaseBody(req: IncomingMessage, ns: string, name?: string): Promise<K8sObject> {
  const body = JSON.parse((await readText(req)) || "{}") as K8sObject;
  if (body.kind !== "Lease" || body.apiVersion !== "coordination.k8s.io/v1") {
    throw new K8sStatusError(
      400,
      "BadRequest",
      `expected kind Lease in coordination.k8s.io/v1, got ${String(body.kind)}`,
    );
  }
  const md = (body.metadata ?? {}) as Partial<K8sObject["metadata"]> & { labels?: Record<string, string> };
  if (!md.name || (name !== undefined && md.name !== name)) {
    throw new K8sStatusError(400, "BadRequest", "the name of the object does not match the name on the URL");
  }
  return { ...body, metadata: { ...md, name: md.name, resourceVersion: md.resourceVersion ?? "", namespace: ns } };
}

/** Routes of /apis/coordination.k8s.io/v1/namespaces/{ns}/leases[/{name}]. */
export function leaseRoutes(c: K8sCluster): K8sRoute[] {
  const leases = new Map<string, K8sObject>();
  const stamp = (o: K8sObject, uid: string, created: string): K8sObject => ({
    ...o,
    metadata: { ...o.metadata, uid, creationTimestamp: created, resourceVersion: c.nextRv() },
  });
  return [
    {
      method: "GET",
      pattern: new RegExp(`${BASE}$`),
      run: async ({ url, auth }, m) => {
        auth(false, "list", "leases");
        const items = [...leases.values()].filter(
          (l) =>
            l.metadata.namespace === m[1] &&
            selects(url.searchParams.get("labelSelector"), l.metadata.labels as Record<string, string> | undefined),
        );
        return [200, { kind: "LeaseList", apiVersion: "coordination.k8s.io/v1", metadata: {}, items }];
      },
    },
    {
      method: "GET",
      pattern: new RegExp(`${BASE}/([^/]+)$`),
      run: async ({ auth }, m) => {
        auth(false, "get", "leases");
        const l = leases.get(`${m[1]}/${m[2]}`);
        if (!l) throw notFound("leases.coordination.k8s.io", m[2]);
        return [200, l];
      },
    },
    {
      method: "POST",
      pattern: new RegExp(`${BASE}$`),
      run: async ({ req, auth }, m) => {
        auth(true, "create", "leases");
        const body = await leaseBody(req, m[1]);
        const key = `${m[1]}/${body.metadata.name}`;
        if (leases.has(key)) {
          throw new K8sStatusError(
            409,
            "AlreadyExists",
            `leases.coordination.k8s.io "${body.metadata.name}" already exists`,
          );
        }
        const l = stamp(body, randomUUID(), c.iso());
        leases.set(key, l);
        return [201, l];
      },
    },
    {
      method: "PUT",
      pattern: new RegExp(`${BASE}/([^/]+)$`),
      run: async ({ req, auth }, m) => {
        auth(true, "update", "leases");
        const key = `${m[1]}/${m[2]}`;
        const old = leases.get(key);
        if (!old) throw notFound("leases.coordination.k8s.io", m[2]);
        const body = await leaseBody(req, m[1], m[2]);
        const rv = body.metadata.resourceVersion;
        if (rv !== "" && rv !== old.metadata.resourceVersion) {
          throw new K8sStatusError(
            409,
            "Conflict",
            `Operation cannot be fulfilled on leases.coordination.k8s.io "${m[2]}": the object has been modified; please apply your changes to the latest version and try again`,
          );
        }
        const l = stamp(body, String(old.metadata.uid), String(old.metadata.creationTimestamp));
        leases.set(key, l);
        return [200, l];
      },
    },
    {
      method: "DELETE",
      pattern: new RegExp(`${BASE}/([^/]+)$`),
      run: async ({ auth }, m) => {
        auth(true, "delete", "leases");
        const key = `${m[1]}/${m[2]}`;
        if (!leases.delete(key)) throw notFound("leases.coordination.k8s.io", m[2]);
        return [200, { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success" }];
      },
    },
  ];
}
