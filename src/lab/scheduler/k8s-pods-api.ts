/** Kubernetes pods: list (all, or in a namespace; fieldSelector spec.nodeName) and the policy/v1 Eviction subresource. */
import type { IncomingMessage } from "node:http";
import { readText } from "./http-io.js";
import type { K8sCluster, K8sRoute } from "./k8s-cluster.js";
import { K8sStatusError, notFound } from "./k8s-objects.js";

async function evict(c: K8sCluster, req: IncomingMessage, ns: string, name: string): Promise<Record<string, unknown>> {
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
  const pod = c.pods.get(key);
  if (!pod) throw notFound("pods", name);
  const left = c.blocked.get(key) ?? 0;
  // The API server does not ask the budget for a pod that is Pending, Succeeded or Failed (canIgnorePDB).
  const phase = (pod.status as { phase?: string } | undefined)?.phase;
  if (left > 0 && phase === "Running") {
    c.blocked.set(key, left - 1);
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
  c.pods.delete(key);
  return { kind: "Status", apiVersion: "v1", metadata: {}, status: "Success", code: 201 };
}

function parseNodeSelector(sel: string | null): string | undefined {
  if (!sel) return undefined;
  const m = /(?:^|,)spec\.nodeName==?([^,]*)/.exec(sel);
  if (!m) throw new K8sStatusError(400, "BadRequest", `field label not supported: ${sel.split(/[=!]/)[0]}`);
  return m[1];
}

/** Routes of /api/v1[/namespaces/{ns}]/pods and the eviction subresource. */
export function podRoutes(c: K8sCluster): K8sRoute[] {
  return [
    {
      method: "GET",
      pattern: /^\/api\/v1(?:\/namespaces\/([^/]+))?\/pods$/,
      run: async ({ url, auth }, podList) => {
        auth(false, "list", "pods");
        const onNode = parseNodeSelector(url.searchParams.get("fieldSelector"));
        const items = [...c.pods.values()].filter(
          (p) =>
            (!podList[1] || p.metadata.namespace === podList[1]) &&
            (onNode === undefined || (p.spec as { nodeName?: string }).nodeName === onNode),
        );
        return [200, { kind: "PodList", apiVersion: "v1", metadata: { resourceVersion: c.resourceVersion }, items }];
      },
    },
    {
      method: "POST",
      pattern: /^\/api\/v1\/namespaces\/([^/]+)\/pods\/([^/]+)\/eviction$/,
      run: async ({ req, auth }, eviction) => {
        const [ns, name] = [decodeURIComponent(eviction[1]), decodeURIComponent(eviction[2])];
        auth(true, "create", `pods "${name}" eviction`);
        return [201, await evict(c, req, ns, name)];
      },
    },
  ];
}
