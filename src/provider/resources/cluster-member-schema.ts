/**
 * rackform_cluster_member's schema and its config checks. Every check here runs at validate time, before any call to
 * a scheduler, and names the bad value and the fix.
 */
import {
  attr,
  type Diagnostics,
  isUnknownValue,
  type ModelOf,
  numberBetween,
  path,
  requiresReplace,
  requiresReplaceIf,
  stringLength,
  stringOneOf,
  timeoutsBlock,
  useStateForUnknown,
} from "../../framework/index.js";
import { memberRecheckAttributes, memberRemediationAttributes } from "./remediation-schema.js";

/** The schedulers a node can join. */
export const SCHEDULERS = ["slurm", "kubernetes"] as const;
/** One of SCHEDULERS. */
export type SchedulerKind = (typeof SCHEDULERS)[number];

/** Taint effects of core/v1. */
export const TAINT_EFFECTS = ["NoSchedule", "PreferNoSchedule", "NoExecute"] as const;

/** The reason a destroy sets on a Slurm node it drains (shown by sinfo -R). */
export const DRAIN_REASON = "rackform: leaving";

/** The reason left on a Slurm node removed for good that slurmctld cannot delete (a node slurm.conf lists). */
export const REMOVED_REASON = "rackform: removed from the rack; delete it from slurm.conf";

/** Default bounds: create waits for the OS to boot and the node to register; delete waits for jobs to finish. */
export const DEFAULT_TIMEOUT_MS = { create: 30 * 60_000, read: 2 * 60_000, update: 10 * 60_000, delete: 30 * 60_000 };

/** The rackform_cluster_member schema (version 0); its model (ModelOf) is what the handlers read and write. */
export const clusterMemberSchema = {
  version: 0,
  description:
    "A node admitted to the scheduler: the last step of its chain. Create waits until the node has registered " +
    "(slurmd or kubelet starts after the OS boots; bounded by timeouts.create, default 30m), then for Slurm sets its " +
    "features and RESUMEs it, for Kubernetes sets labels and taints and uncordons it; the wait logs what the " +
    "scheduler shows. A Slurm node whose registration slurmctld refused (flag INVALID_REG: slurmd reported less than " +
    "slurm.conf configures, such as a GPU fallen off the bus) is not resumed: create or update fails at once with " +
    "slurmctld's reason and the fix, since only slurmd's next start registers it again. A node drained or cordoned by " +
    "hand reads as joined = false and the plan holds an in-place update that re-joins it. A node deleted from the " +
    'scheduler by hand reads as joined = false with state "absent", and the same in-place update brings it back: a ' +
    "running kubelet or slurmd never registers again by itself, so for Kubernetes rackform creates the Node object " +
    "again (with its labels and taints) and waits for the kubelet's next status update before uncordoning it; " +
    "slurmctld refuses to delete a node slurm.conf lists, and for a dynamic node (slurmd -Z) slurmrestd offers no way " +
    "to create it again, so the apply fails at once naming the fix (restart slurmd on the node, then apply again). " +
    "Destroy drains first " +
    `(Slurm DRAIN with reason "${DRAIN_REASON}", waiting until running jobs end; Kubernetes cordon and eviction, ` +
    "honouring PodDisruptionBudgets), bounded by timeouts.delete (default 30m); nothing is ever killed: on timeout the " +
    "destroy fails naming what still runs, and the node stays drained or cordoned. With max_unavailable a drain first " +
    "waits for the disruption budget, so a reimage of the whole rack recycles a few nodes at a time while the rest " +
    "stay joined. A member destroyed for good (removed from the configuration, or terraform destroy; not the destroy " +
    "half of a replacement such as a reimage, where the node comes back) then leaves its scheduler: Kubernetes " +
    "deletes the Node object (DELETE /api/v1/nodes/{name}); Slurm deletes a dynamic node (one slurmd -Z registered; " +
    "slurmrestd DELETE /node/{name}). slurmctld refuses to delete a node slurm.conf lists, so such a node stays listed, " +
    `DOWN with reason "${REMOVED_REASON}", and the destroy warns: remove it from slurm.conf and restart slurmctld. ` +
    "A token the API server does not allow to delete nodes leaves the Node cordoned, with the same kind of warning. " +
    "Import with slurm:<node> or kubernetes:<node>.",
  attributes: {
    id: attr.string({
      computed: true,
      description: 'scheduler:node, e.g. "slurm:r01-n01".',
      planModifiers: [useStateForUnknown()],
    }),
    node: attr.string({
      required: true,
      description:
        "The node's name in the scheduler (Slurm NodeName, Kubernetes node name: usually the host name). Changing it replaces the resource.",
      validators: [stringLength({ min: 1, max: 253 })],
      planModifiers: [requiresReplace()],
    }),
    scheduler: attr.string({
      required: true,
      description:
        '"slurm" or "kubernetes". Changing it replaces the resource (the node leaves one and joins the other).',
      validators: [stringOneOf(...SCHEDULERS)],
      planModifiers: [requiresReplace()],
    }),
    gate_id: attr.string({
      optional: true,
      description:
        "The id of the rackform_acceptance this membership rests on. When the gate is replaced (a reimage, a re-run " +
        "after a health change) the member is replaced too, so the engine drains the node (destroy) before the " +
        "deployment under it is replaced, and rejoins it once the new gate has passed. The first value recorded " +
        "after an import is taken in place.",
      planModifiers: [
        requiresReplaceIf(
          (req) => req.stateValue !== null,
          "requires replacement when it changes from a recorded gate (the node drains, then rejoins)",
        ),
      ],
    }),
    features: attr.set("string", {
      optional: true,
      description:
        "Slurm only: the node's exact set of available features (e.g. h100, nvlink4), set before RESUME and changed in place. Slurm 22.05's REST API (v0.0.38) cannot set features or RESUME a node: there slurm.conf must list these features, and a difference fails naming the scontrol command. @default the node's features are left as slurm.conf sets them",
    }),
    partitions: attr.set("string", {
      computed: true,
      description:
        "Slurm only: the partitions the node is in, as slurmctld reports them. Read-only: slurmrestd's node update (v0.0.39 and later) cannot change partition membership, which comes from slurm.conf (PartitionName=… Nodes=…).",
      planModifiers: [useStateForUnknown()],
    }),
    labels: attr.map("string", {
      optional: true,
      description:
        "Kubernetes only: labels rackform manages on the node; other labels are left alone, and a label removed from here is removed from the node.",
    }),
    taints: attr.listNested(
      {
        key: attr.string({ required: true, description: 'Taint key, e.g. "nvidia.com/gpu".' }),
        value: attr.string({ optional: true, description: "Taint value. @default none" }),
        effect: attr.string({
          required: true,
          description: '"NoSchedule", "PreferNoSchedule" or "NoExecute".',
          validators: [stringOneOf(...TAINT_EFFECTS)],
        }),
      },
      {
        optional: true,
        description:
          "Kubernetes only: taints rackform manages, by key; taints of other keys (set by controllers or people) are kept.",
      },
    ),
    image_ref: attr.string({
      optional: true,
      description:
        "The image the node runs, usually rackform_deployment.x.image_ref of a rolling deployment (rolling = true). " +
        "When it changes on a recorded member, this member's in-place update carries out the node's whole rolling " +
        "reimage in one step: a disruption-budget slot (max_unavailable), drain, the reimage its deployment offered, " +
        "the gate its rackform_acceptance (image_ref the same) offered, rejoin, slot given back. One step per node " +
        "means a node holding a slot never waits on another engine operation, so any -parallelism rolls the whole " +
        "rack in one apply. A node whose drain, reimage or gate fails keeps the old image_ref here and stays out of " +
        "service (quarantined with the gate's evidence); the others go on, and the next apply retries it. First " +
        "recorded, it reimages nothing. @default not followed (a reimage reaches the member as a replacement of gate_id)",
    }),
    firmware_ref: attr.string({
      optional: true,
      description:
        "The firmware baseline the node runs: rackform_firmware.x.ref of the node (a rolling one). When it changes " +
        "on a recorded member, this member's in-place update runs the node's rolling update as for image_ref: a " +
        "budget slot, drain, the reset its rackform_firmware offered (shared with the reimage's boot when the " +
        "image changes in the same apply), the new versions and settings checked, the gate its rackform_acceptance " +
        "(firmware_ref the same) offered, rejoin. A node whose update fails is quarantined with the update's " +
        "evidence and keeps the old firmware_ref here; the others go on. @default not followed",
    }),
    ...memberRemediationAttributes,
    ...memberRecheckAttributes,
    drain_on_destroy: attr.bool({
      optional: true,
      computed: true,
      default: true,
      description:
        "Drain before leaving on destroy (and, when the member is destroyed for good, remove the node from the scheduler). false: destroy only forgets the node, which stays in the scheduler, keeps running jobs and accepts new ones. @default true",
    }),
    max_unavailable: attr.number({
      optional: true,
      description:
        "Disruption budget: at most this many nodes of the same budget (scheduler and partitions: the nodes in the " +
        "same Slurm partitions; for Kubernetes the whole cluster) are out of service at once, whichever stacks, " +
        "engine processes or pipeline runners apply them — a drain starts only while fewer are out, counting this " +
        "apply's own drains (including nodes being removed, even when their own state sets no max_unavailable, until " +
        "they have left the scheduler), nodes the scheduler reports out (Slurm: drained, down or not responding, " +
        `except nodes rackform removed that slurm.conf still lists, reason "${REMOVED_REASON}"; Kubernetes: cordoned ` +
        "or NotReady) and nodes other runs have reserved. The scheduler is the arbiter: a drain first writes a " +
        "reservation on its node (Slurm: in the node's Comment, beside any text of the operator's; Kubernetes: a " +
        "Lease kube-system/rackform-budget-<node>, which the token must be allowed to create, update, list and " +
        "delete), reads the partition again and drains only if there is still " +
        "room, else takes it back and tries again. A reservation is a lease renewed while the node is recycled and " +
        "removed when it rejoins; one left by a killed run lapses by itself, and a re-apply adopts the one on its own " +
        "node. A node's slot is given back when it rejoins, or when its chain stops in this run (failed drain, " +
        "release, deploy or acceptance gate: the rollout goes on without it), it leaves the scheduler for good, or its " +
        "machine is deleted. When the budget is filled only by nodes nothing brings back (failed in this run, drained " +
        "or down by hand, no live reservation, no other operation of the run in flight), the waiting drains fail " +
        "naming those nodes and their evidence (the rollout halts; those nodes stay joined) instead of waiting. The " +
        "value applies to drains of this apply even when it is set in the same change. Keep the engine's parallelism " +
        "(terraform apply -parallelism, cdktf deploy --terraform-parallelism; default 10) above the number of the " +
        "stack's nodes minus max_unavailable: a waiting drain holds one of the engine's parallel operations, and when " +
        "nothing but waiting drains is left the waiting ones fail (the node stays joined) instead of hanging; " +
        "re-apply to continue. " +
        "@default no limit: every node drains as soon as the engine gets to it",
      validators: [numberBetween(1, 1_000_000)],
    }),
    wait_for_registration: attr.bool({
      optional: true,
      computed: true,
      default: true,
      description:
        "Create waits (up to timeouts.create) for the node to register with the scheduler. false: create fails at once when it has not. @default true",
    }),
    state: attr.string({
      computed: true,
      description:
        'The node\'s state when last read: Slurm base state and flags (e.g. "IDLE", "IDLE+DRAIN", "ALLOCATED+DRAIN"), Kubernetes readiness (e.g. "Ready", "Ready,SchedulingDisabled"); "absent" when the scheduler no longer knows the node.',
    }),
    joined: attr.bool({
      computed: true,
      description:
        "Whether the node accepts work: Slurm neither DOWN nor DRAIN-flagged, Kubernetes not cordoned. false after a drain, DOWN or cordon made outside rackform; the plan then re-joins it — except a Slurm node a person drained with a reason (one neither rackform nor slurmctld wrote), which rackform leaves out and shows on every plan until someone resumes it (it takes no rolling or health step meanwhile).",
    }),
  },
  blocks: { timeouts: timeoutsBlock(["create", "read", "update", "delete"]) },
} as const;

/** The recorded member. */
export type ClusterMemberState = ModelOf<typeof clusterMemberSchema>;
/** The planned member at apply: computed attributes may be unknown. */
export type ClusterMemberPlan = ModelOf<typeof clusterMemberSchema, "plan">;
/** The member at plan and validation time: any attribute may be unknown. */
export type ClusterMemberConfig = ModelOf<typeof clusterMemberSchema, "config">;

const K8S_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const QUALIFIED = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const SLURM_NODE = /^[^\s,[\]]+$/;
const SLURM_FEATURE = /^[A-Za-z0-9_][A-Za-z0-9_.:=+-]*$/;

/** Why `key` is not a Kubernetes qualified name (label or taint key), or undefined. */
function badQualifiedName(key: string): string | undefined {
  const slash = key.lastIndexOf("/");
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (prefix !== undefined && (prefix.length > 253 || !K8S_NAME.test(prefix)))
    return "its prefix must be a DNS subdomain such as example.com";
  if (name.length === 0 || name.length > 63 || !QUALIFIED.test(name))
    return "its name must be 1–63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
  return undefined;
}

const str = (v: unknown): v is string => typeof v === "string";

/** Slurm's checks: one NodeName, and no Kubernetes-only attribute. */
function validateSlurm(c: ClusterMemberConfig, node: string | undefined, diags: Diagnostics): void {
  if (node !== undefined && !SLURM_NODE.test(node)) {
    diags.error(
      "Invalid Slurm node name",
      `${JSON.stringify(node)} is not one Slurm NodeName: write a single name such as "r01-n01", without spaces, commas or hostlist brackets (one rackform_cluster_member per node).`,
      path("node"),
    );
  }
  for (const [a, what, set] of [
    ["labels", "labels", c.labels !== null],
    ["taints", "taints", c.taints !== null],
  ] as const) {
    if (set) {
      diags.error(
        `${what} is Kubernetes-only`,
        `scheduler = "slurm" has no ${what}; use features for Slurm (node features for --constraint), or remove ${what}.`,
        path(a),
      );
    }
  }
}

/** Kubernetes' checks: a valid node name, and no Slurm-only features. */
function validateKubernetes(c: ClusterMemberConfig, node: string | undefined, diags: Diagnostics): void {
  if (node !== undefined && !K8S_NAME.test(node)) {
    diags.error(
      "Invalid Kubernetes node name",
      `${JSON.stringify(node)} is not a valid node name: use lower-case letters, digits, '-' and '.', starting and ending with a letter or digit (the kubelet registers the lower-cased host name).`,
      path("node"),
    );
  }
  if (c.features !== null) {
    diags.error(
      "features is Slurm-only",
      'scheduler = "kubernetes" has no node features; use labels (e.g. { "nvidia.com/gpu.product" = "H100" }), or remove features.',
      path("features"),
    );
  }
}

/** Each known feature is one Slurm feature name. */
function validateFeatures(features: ClusterMemberConfig["features"], diags: Diagnostics): void {
  if (!Array.isArray(features)) return;
  // Elements of a known set may still be unknown: only known strings are judged.
  for (const f of features as readonly unknown[]) {
    if (str(f) && !SLURM_FEATURE.test(f)) {
      diags.error(
        "Invalid Slurm feature",
        `${JSON.stringify(f)} is not a feature name: use letters, digits, '_', '.', ':', '=', '+' or '-' (spaces, commas, '&', '|' and brackets belong to --constraint expressions).`,
        path("features"),
      );
    }
  }
}

/** Label keys are qualified names, values empty or label values. */
function validateLabels(labels: ClusterMemberConfig["labels"], diags: Diagnostics): void {
  if (labels === null || isUnknownValue(labels)) return;
  for (const [k, v] of Object.entries(labels as Readonly<Record<string, unknown>>)) {
    const bad = badQualifiedName(k);
    if (bad) diags.error("Invalid label key", `${JSON.stringify(k)}: ${bad}.`, path("labels", { key: k }));
    if (str(v) && v !== "" && (v.length > 63 || !QUALIFIED.test(v))) {
      diags.error(
        "Invalid label value",
        `labels[${JSON.stringify(k)}] = ${JSON.stringify(v)}: a label value is empty or 1–63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit.`,
        path("labels", { key: k }),
      );
    }
  }
}

/** Taint keys are qualified names, not the cordon's own, and each appears once. */
function validateTaints(taints: ClusterMemberConfig["taints"], diags: Diagnostics): void {
  if (!Array.isArray(taints)) return;
  const seen = new Set<string>();
  // An element of a known list may itself be unknown: its key is then not judged.
  (taints as readonly { readonly key?: unknown }[]).forEach((t, i) => {
    const key = t.key;
    if (!str(key)) return;
    const bad = badQualifiedName(key);
    if (bad) diags.error("Invalid taint key", `${JSON.stringify(key)}: ${bad}.`, path("taints", i, "key"));
    if (key === "node.kubernetes.io/unschedulable") {
      diags.error(
        "Reserved taint key",
        "node.kubernetes.io/unschedulable follows cordon and uncordon; rackform manages it through joining. Remove this taint.",
        path("taints", i, "key"),
      );
    }
    if (seen.has(key)) {
      diags.error(
        "Duplicate taint key",
        `taint key ${JSON.stringify(key)} appears twice: rackform manages taints by key, so give each key one effect.`,
        path("taints", i, "key"),
      );
    }
    seen.add(key);
  });
}

/** Cross-attribute and per-scheduler checks; each error carries the attribute path and the fix. */
export function validateClusterMember(c: ClusterMemberConfig, diags: Diagnostics): void {
  const node = str(c.node) ? c.node : undefined;
  if (c.scheduler === "slurm") validateSlurm(c, node, diags);
  if (c.scheduler === "kubernetes") validateKubernetes(c, node, diags);
  if (typeof c.max_unavailable === "number" && !Number.isInteger(c.max_unavailable)) {
    diags.error(
      "Invalid max_unavailable",
      `max_unavailable must be a whole number of nodes, got ${c.max_unavailable}.`,
      path("max_unavailable"),
    );
  }
  validateFeatures(c.features, diags);
  validateLabels(c.labels, diags);
  validateTaints(c.taints, diags);
}
