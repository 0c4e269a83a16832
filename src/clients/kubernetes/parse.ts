/** Parsing of core/v1 Node, Pod and metav1.Status JSON. */
import type { KubernetesStatus } from "./errors.js";
import type { KubernetesLease, KubernetesNode, KubernetesPod, Taint } from "./types.js";

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function strings(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObj(v)) for (const [k, x] of Object.entries(v)) if (typeof x === "string") out[k] = x;
  return out;
}

/** A node, or a message naming what is missing. */
export function parseNode(raw: unknown): KubernetesNode | string {
  if (!isObj(raw) || !isObj(raw.metadata)) return "a node has no metadata";
  const md = raw.metadata;
  if (typeof md.name !== "string" || !md.name) return "a node has no metadata.name";
  const spec = isObj(raw.spec) ? raw.spec : {};
  const status = isObj(raw.status) ? raw.status : {};
  const taints: Taint[] = Array.isArray(spec.taints)
    ? spec.taints.filter(isObj).map((t) => ({
        key: String(t.key),
        ...(typeof t.value === "string" ? { value: t.value } : {}),
        effect: String(t.effect) as Taint["effect"],
      }))
    : [];
  const conditions = Array.isArray(status.conditions) ? status.conditions.filter(isObj) : [];
  return {
    name: md.name,
    uid: typeof md.uid === "string" ? md.uid : "",
    resourceVersion: typeof md.resourceVersion === "string" ? md.resourceVersion : "",
    unschedulable: spec.unschedulable === true,
    labels: strings(md.labels),
    taints,
    ready: conditions.some((c) => c.type === "Ready" && c.status === "True"),
    ...readyCondition(conditions.find((c) => c.type === "Ready")),
    capacity: strings(status.capacity),
  };
}

/** The Ready condition's reason and when it last changed, where present. */
function readyCondition(c: Record<string, unknown> | undefined): { readyReason?: string; readySince?: number } {
  if (!c) return {};
  const at = typeof c.lastTransitionTime === "string" ? Date.parse(c.lastTransitionTime) : Number.NaN;
  return {
    ...(typeof c.reason === "string" && c.reason !== "" ? { readyReason: c.reason } : {}),
    ...(Number.isFinite(at) ? { readySince: at } : {}),
  };
}

/** A pod, or a message naming what is missing. */
export function parsePod(raw: unknown): KubernetesPod | string {
  if (!isObj(raw) || !isObj(raw.metadata)) return "a pod has no metadata";
  const md = raw.metadata;
  if (typeof md.name !== "string" || typeof md.namespace !== "string") return "a pod has no metadata.name/namespace";
  const owners = Array.isArray(md.ownerReferences) ? md.ownerReferences.filter(isObj) : [];
  const spec = isObj(raw.spec) ? raw.spec : {};
  const status = isObj(raw.status) ? raw.status : {};
  return {
    namespace: md.namespace,
    name: md.name,
    ...(typeof md.uid === "string" ? { uid: md.uid } : {}),
    nodeName: typeof spec.nodeName === "string" ? spec.nodeName : "",
    phase: typeof status.phase === "string" ? status.phase : "",
    daemonSet: owners.some((o) => o.kind === "DaemonSet" && o.controller === true),
    mirror: isObj(md.annotations) && typeof md.annotations["kubernetes.io/config.mirror"] === "string",
  };
}

/** A metav1.Status from an error body; undefined when the body is not one. */
export function parseStatus(body: string): KubernetesStatus | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!isObj(v) || v.kind !== "Status") return undefined;
  const details = isObj(v.details) ? v.details : {};
  const causes = Array.isArray(details.causes)
    ? details.causes.filter(isObj).map((c) => ({
        reason: typeof c.reason === "string" ? c.reason : undefined,
        message: typeof c.message === "string" ? c.message : undefined,
        field: typeof c.field === "string" ? c.field : undefined,
      }))
    : [];
  return {
    reason: typeof v.reason === "string" ? v.reason : undefined,
    message: typeof v.message === "string" ? v.message : undefined,
    code: typeof v.code === "number" ? v.code : undefined,
    causes,
  };
}

/** A Lease, or a message naming what is missing. */
export function parseLease(raw: unknown): KubernetesLease | string {
  if (!isObj(raw) || !isObj(raw.metadata) || typeof raw.metadata.name !== "string")
    return "a lease has no metadata.name";
  const spec = isObj(raw.spec) ? raw.spec : {};
  return {
    name: raw.metadata.name,
    resourceVersion: typeof raw.metadata.resourceVersion === "string" ? raw.metadata.resourceVersion : "",
    labels: strings(raw.metadata.labels),
    holder: typeof spec.holderIdentity === "string" ? spec.holderIdentity : "",
    renewTime: typeof spec.renewTime === "string" ? Date.parse(spec.renewTime) : Number.NaN,
    durationSeconds: typeof spec.leaseDurationSeconds === "number" ? spec.leaseDurationSeconds : 0,
  };
}
