/** The lab's scheduler endpoints for node joins: slurmrestd (data_parser v0.0.41) and a Kubernetes API server. */
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
export { SLURM_API_VERSION } from "./slurm-render.js";
