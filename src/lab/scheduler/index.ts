/** The lab's scheduler endpoints for node joins: slurmrestd (24.05 or 22.05 API versions) and a Kubernetes API server. */
export {
  type ListeningServer,
  type SchedulerClock,
  type SchedulerRequestLogEntry,
  type ServerTls,
  wallClock,
} from "./http-io.js";
export type { K8sObject, KubeletRegistration, LabPodSpec } from "./k8s-objects.js";
export {
  createKubernetesApi,
  type KubernetesApi,
  type KubernetesApiOptions,
  type KubernetesLabHooks,
} from "./kubernetes-api.js";
export { createSlurmApi, type SlurmApi, type SlurmApiOptions, type SlurmLabHooks } from "./slurm-api.js";
export type { LabSlurmNode, NodeRegistration, SlurmTransition } from "./slurm-nodes.js";
export { SERVED_VERSIONS, SLURM_API_VERSION, type SlurmRestRelease } from "./slurm-render.js";
