/** The Kubernetes client: node admission (uncordon, labels, taints) and drain through the Eviction API. */
export { KubernetesClient, type KubernetesClientOptions, type RawAnswer } from "./client.js";
export { type DrainClock, drainNode } from "./drain.js";
export { KubernetesError, type KubernetesStatus } from "./errors.js";
export * as kubernetesParse from "./parse.js";
export type { DrainOptions, DrainResult, KubernetesLease, KubernetesNode, KubernetesPod, Taint } from "./types.js";
