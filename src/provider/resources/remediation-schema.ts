/**
 * The attributes of the health remediation ladder (../shared/remediation.ts) that rackform_deployment plans and
 * rackform_acceptance and rackform_cluster_member follow.
 */
import { attr, numberBetween, parseDuration, useStateForUnknown, validator } from "../../framework/index.js";
import { LADDER_STEPS } from "../shared/remediation.js";

/** The element of a health list, as rackform_bmc.health lists it. */
export const FINDING = [
  "object",
  { component: "string", kind: "string", health: "string", uri: "string", since: "string" },
] as const;

const knownSteps = validator(`each one of ${LADDER_STEPS.join(", ")}, at most once, in ladder order`, (req, resp) => {
  if (!Array.isArray(req.value)) return;
  const got = req.value.filter((v): v is string => typeof v === "string");
  const bad = got.find((s) => !(LADDER_STEPS as readonly string[]).includes(s));
  if (bad !== undefined) {
    resp.diagnostics.error(
      "Invalid remediation step",
      `${JSON.stringify(bad)} is not a remediation step; use any of ${LADDER_STEPS.map((s) => `"${s}"`).join(", ")} (an empty list goes straight to quarantine for repair).`,
      req.path,
    );
    return;
  }
  const order = got.map((s) => LADDER_STEPS.indexOf(s as (typeof LADDER_STEPS)[number]));
  if (order.some((o, i) => i > 0 && o <= order[i - 1])) {
    resp.diagnostics.error(
      "Invalid remediation steps",
      `Steps must be listed once each in ladder order (${LADDER_STEPS.join(" before ")}); got ${JSON.stringify(got)}.`,
      req.path,
    );
  }
});

/** rackform_deployment's ladder attributes. */
export const deploymentRemediationAttributes = {
  bmc_health: attr.list(FINDING, {
    optional: true,
    description:
      "The components the node's BMC reports not healthy, usually rackform_bmc.x.health, concatenated with " +
      'data.rackform_scheduler_health.x.findings["<node>"] where the scheduler\'s own marks count too (an OS hang ' +
      "shows there, not on the BMC): while one is Critical the deployment plans the node's next remediation step " +
      "(see remediation). Warnings are shown, never acted on. " +
      "@default not followed (no remediation)",
  }),
  remediation_steps: attr.list("string", {
    optional: true,
    description:
      'The ladder\'s steps before quarantine for repair, in order: "power_cycle" (a power cycle through the ' +
      'backend, then the gate again) and "reimage" (the pinned image deployed again, then the gate again). An empty ' +
      'list quarantines a node for repair at its first Critical finding. @default ["power_cycle", "reimage"]',
    validators: [knownSteps],
  }),
  remediation: attr.string({
    computed: true,
    description:
      'The node\'s place on the health remediation ladder, known at plan: "" when no component is Critical (a ' +
      'node that recovers resets its ladder), "power_cycle:<attempt>" or "reimage:<attempt>" for the step this ' +
      'apply takes, "repair" once every step was tried and a component is still Critical (the node stays ' +
      "quarantined in its backend and drained in its scheduler, with the findings as evidence, until the BMC " +
      "reports it healthy). One step per apply, carried out by the node's rackform_cluster_member (whose " +
      "remediation references this) within its disruption budget: drain, the step, the gate of the " +
      "rackform_acceptance whose remediation references this, rejoin. A step counts as run once its remedy, carried " +
      "out, marked the machine (MAAS owner data, Ironic extra, a Warewulf tag or a BCM notes line named " +
      "rackform_remedy); one that did not run (its apply stopped, its drain halted, max_unhealthy reached, its member " +
      "never applied) is planned again with the next attempt. Null when bmc_health is not set.",
  }),
} as const;

/** rackform_cluster_member's ladder attributes. */
export const memberRemediationAttributes = {
  remediation: attr.string({
    optional: true,
    description:
      "The node's place on its health remediation ladder: rackform_deployment.x.remediation of the node. When it " +
      "plans a step, this member's in-place update carries it out as one operation within the disruption budget: a " +
      "slot, drain, the step (a power cycle through the backend, or the pinned image deployed again), the gate its " +
      'rackform_acceptance (remediation the same) offered, rejoin. "repair": drain and quarantine in the backend, ' +
      "and the node stays out of service (not re-joined) until its findings clear. A step that fails keeps the old " +
      "value here, and the next plan goes to the ladder's next step; the other nodes go on. @default not followed",
  }),
  max_unhealthy: attr.number({
    optional: true,
    description:
      "At most this many nodes of the same budget (as max_unavailable) take a remediation step in one apply of this " +
      "provider process: beyond it a node is left as it is with a warning and planned again (many nodes sick at once " +
      "is usually the fabric or power, not the nodes; rackform plan-summary says so). Health drains count against " +
      "max_unavailable as any drain does. @default no limit",
    validators: [numberBetween(1, 100_000)],
  }),
} as const;

const maxAge = validator("a duration such as 168h, at least 1m", (req, resp) => {
  if (typeof req.value !== "string") return;
  let ms = -1;
  try {
    ms = parseDuration(req.value);
  } catch (e) {
    resp.diagnostics.error("Invalid evidence_max_age", (e as Error).message, req.path);
    return;
  }
  if (ms < 60_000) resp.diagnostics.error("Invalid evidence_max_age", 'Use at least "1m", e.g. "168h".', req.path);
});

/** rackform_acceptance's evidence age attributes. */
export const acceptanceRecheckAttributes = {
  evidence_max_age: attr.string({
    optional: true,
    description:
      'How long a gate\'s evidence stands, e.g. "168h": once the evidence in state was measured longer ago than ' +
      "this, the plan re-runs the gate's active checks (DCGM, NCCL) in place (recheck) — carried out by the node's " +
      "rackform_cluster_member (whose recheck references this) only while the node runs no jobs, drained within " +
      "its disruption budget and resumed after; a busy node is planned again. @default evidence never expires",
    validators: [maxAge],
  }),
  recheck: attr.string({
    computed: true,
    description:
      'The last expiry of the evidence this gate acted on, "expired:<measured_at>", known at plan; null before the ' +
      "first. A new value re-runs the gate (see evidence_max_age); a recheck that passed keeps it until the next " +
      "expiry, so nothing else changes in between.",
    planModifiers: [useStateForUnknown()],
  }),
} as const;

/** rackform_cluster_member's side of the evidence age. */
export const memberRecheckAttributes = {
  recheck: attr.string({
    optional: true,
    description:
      "The gate's recheck (rackform_acceptance.x.recheck of the node). When it moves, this member's in-place update " +
      "re-runs the gate on an idle node: Slurm's node in state IDLE (a node with jobs is left as it is and planned " +
      "again; Kubernetes nodes are drained, which respects PodDisruptionBudgets), within the disruption budget — a " +
      "slot, drain, the gate its rackform_acceptance offered, rejoin. @default not followed",
  }),
} as const;
