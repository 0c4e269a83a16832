/** data rackform_scheduler_health's schema; its model (ModelOf) is what the read in scheduler-health.ts gets and returns. */
import { attr, listSize, type ModelOf, stringOneOf } from "../../framework/index.js";
import { FINDING } from "../resources/remediation-schema.js";

/** The rackform_scheduler_health schema. */
export const schedulerHealthSchema = {
  description:
    "What the cluster's scheduler says of its nodes' health by itself, as findings in the shape of " +
    "rackform_bmc.health, read with one node list per plan: a Slurm node slurmctld marked NOT_RESPONDING (its " +
    "slurmd stopped answering: a hung or crashed OS, which the BMC cannot see) or INVALID_REG (slurmd registered " +
    "less than slurm.conf configures, such as a GPU fallen off the bus), or set DOWN or drained with a reason of " +
    "its own; a Kubernetes Node whose Ready condition is not True (its kubelet stopped posting status). A drain a " +
    "person set with a reason, and rackform's own drains and cordons, are not findings. Concatenated with the " +
    "BMC's health into rackform_deployment.bmc_health, a finding walks the node down its remediation ladder like a " +
    "Critical component.",
  attributes: {
    scheduler: attr.string({
      required: true,
      description: 'The scheduler to read, as the provider block configures it: "slurm" or "kubernetes".',
      validators: [stringOneOf("slurm", "kubernetes")],
    }),
    nodes: attr.list("string", {
      required: true,
      description: "The scheduler's names of the nodes to report on (a node it does not know has no finding).",
      validators: [listSize({ min: 1 })],
    }),
    findings: attr.map(["list", FINDING], {
      computed: true,
      description:
        "Per node named in nodes, its findings (an empty list when the scheduler reports nothing against it): " +
        'health "Critical"; kind "scheduler:not_responding", "scheduler:invalid_registration", "scheduler:down", ' +
        '"scheduler:drain" (Slurm) or "scheduler:not_ready" (Kubernetes); component the scheduler\'s own words ' +
        '(Slurm\'s reason, or the Ready condition\'s); uri "slurm:<node>" or "kubernetes:<node>"; since when ' +
        "the scheduler set it (RFC 3339), null where it does not say.",
    }),
  },
} as const;

/** The config at read time (wholly known) and the state the read returns. */
export type SchedulerHealthModel = ModelOf<typeof schedulerHealthSchema>;
/** The config at validation: any attribute may be unknown. */
export type SchedulerHealthConfig = ModelOf<typeof schedulerHealthSchema, "config">;
