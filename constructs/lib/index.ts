/** rackform's L2 constructs: racks, flavors, images, acceptance policies, backends, clusters and fleets as code. */
export * from "./acceptance-policy.js";
export * from "./backend.js";
export * from "./bcm-backend.js";
export * from "./cluster.js";
export * from "./duration.js";
export * from "./errors.js";
export * from "./flavor.js";
export * from "./fleet.js";
export * from "./image.js";
export * from "./ironic-backend.js";
export * from "./kubernetes-cluster.js";
export * from "./maas-backend.js";
export * from "./provider.js";
export * from "./rack.js";
export * from "./rackform-stack.js";
export * from "./secrets.js";
export * from "./slurm-cluster.js";
