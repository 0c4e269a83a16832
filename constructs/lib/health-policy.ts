/**
 * The health remediation ladder of a rack's nodes: a node whose BMC reports a component Critical is power cycled and
 * gated again, then reimaged with its pinned image and gated again, then quarantined for repair — one step per apply,
 * carried out in place by the node's cluster member inside the cluster's disruption budget (so only a rolling rack,
 * one whose cluster sets `maxUnavailable`, can take it). A Rack given a policy wires it per node: the deployment
 * follows the BMC's findings and plans the step, the acceptance gate and the member follow the deployment's step.
 *
 * With `evidenceMaxAge`, a gate's evidence older than that is re-checked: the gate runs again on the node while it runs
 * no jobs, drained within the same budget. `signals` chooses what counts as a finding: the BMC's Critical components
 * (Warnings are shown, never acted on), the scheduler marking a node out by itself (data rackform_scheduler_health),
 * or both.
 */
import { Construct, type IConstruct } from "constructs";
import { type DurationLike, durationText } from "./duration.js";
import type { ValidationProblem } from "./errors.js";
import { durationMs } from "./private/formats.js";
import { type PropsSchema, show, validateProps } from "./private/validate.js";

/** A step of the ladder before quarantine for repair. */
export type RemediationStep = "powerCycle" | "reimage";

/** Every step, in ladder order. */
export const REMEDIATION_STEPS: readonly RemediationStep[] = ["powerCycle", "reimage"];

/** Each step as rackform_deployment's remediation_steps spells it. */
const STEP_ATTRIBUTE: Readonly<Record<RemediationStep, string>> = { powerCycle: "power_cycle", reimage: "reimage" };

/** A source of findings: the node's BMC, or its scheduler. */
export type HealthSignal = "bmc" | "scheduler";
/** Every signal. */
export const HEALTH_SIGNALS: readonly HealthSignal[] = ["bmc", "scheduler"];

/** Properties of a HealthPolicy. */
export interface HealthPolicyProps {
  /**
   * The steps a node with a Critical component takes before it is quarantined for repair, each at most once and in
   * ladder order: "powerCycle" (a power cycle through the backend, then the gate again), "reimage" (the pinned image
   * deployed again, then the gate again). An empty list quarantines a node for repair at its first Critical finding.
   * @default ["powerCycle", "reimage"]
   */
  readonly remediationSteps?: readonly RemediationStep[];
  /**
   * At most this many nodes of one disruption budget take a step in one apply; beyond it a node is left as it is and
   * planned again (many nodes sick at once is usually the fabric or power, not the nodes). Health drains count
   * against the cluster's `maxUnavailable` as any drain does.
   * @default no limit
   */
  readonly maxUnhealthy?: number;
  /**
   * How long a gate's evidence stands: older evidence is re-checked (the gate runs again) on a node without jobs,
   * drained within the cluster's budget and rejoined after; a busy node is planned again. At least one minute.
   * @default evidence never expires
   */
  readonly evidenceMaxAge?: DurationLike;
  /**
   * What counts as a finding that walks a node down the ladder: "bmc" — a component its BMC reports Critical (GPUs,
   * memory, PCIe devices, NICs, and the log entries vendors write for XIDs, ECC and the like); "scheduler" — the
   * scheduler marking the node out by itself (Slurm: NOT_RESPONDING, INVALID_REG, or DOWN or drained with slurmctld's
   * own reason; Kubernetes: the Node not Ready), which is how an OS hang shows: the BMC cannot see it. A person's
   * drain with a reason is never a finding. The scheduler is read once per plan (one node list per rack).
   * @default ["bmc"]
   */
  readonly signals?: readonly HealthSignal[];
}

const SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    remediationSteps: {
      type: "array",
      expect: "a list of remediation steps",
      fix: 'list steps in ladder order, e.g. ["powerCycle", "reimage"], or [] to go straight to repair',
      items: {
        enum: [...REMEDIATION_STEPS],
        expect: 'a remediation step, "powerCycle" or "reimage"',
        fix: 'use "powerCycle" or "reimage" (quarantine for repair always follows the last step)',
      },
    },
    evidenceMaxAge: {
      type: "string",
      format: "duration",
      expect: "a duration of at least 1m",
      fix: 'write a duration such as "168h" (a week), or leave it out for evidence that never expires',
    },
    signals: {
      type: "array",
      minItems: 1,
      expect: "a non-empty list of signals",
      fix: 'list what counts, e.g. ["bmc", "scheduler"]',
      items: {
        enum: [...HEALTH_SIGNALS],
        expect: 'a signal, "bmc" or "scheduler"',
        fix: 'use "bmc" (the BMC\'s Critical components) or "scheduler" (the scheduler marking the node out by itself)',
      },
    },
    maxUnhealthy: {
      type: "integer",
      minimum: 1,
      maximum: 100_000,
      expect: "a whole number of nodes, at least 1",
      fix: "give how many nodes of a budget may take a remediation step in one apply, e.g. 2, or leave it out for no limit",
    },
  },
};

type Rule = (base: string, p: HealthPolicyProps) => ValidationProblem[];

/** Each step at most once, in ladder order: the provider walks them in that order and skips none twice. */
const stepsInLadderOrder: Rule = (base, p) => {
  const steps = p.remediationSteps ?? [];
  const fix = `list each step at most once, in ladder order: ${show(REMEDIATION_STEPS)} or a part of it`;
  return steps.flatMap((step, i) => {
    const first = steps.indexOf(step);
    if (first < i) {
      return [
        { path: `${base}/remediationSteps[${i}]`, problem: `${show(step)} is already remediationSteps[${first}]`, fix },
      ];
    }
    const before = steps.slice(0, i).find((s) => REMEDIATION_STEPS.indexOf(s) > REMEDIATION_STEPS.indexOf(step));
    return before === undefined
      ? []
      : [{ path: `${base}/remediationSteps[${i}]`, problem: `${show(step)} comes after ${show(before)}`, fix }];
  });
};

/** The provider re-checks evidence no more often than once a minute. */
const evidenceAtLeastAMinute: Rule = (base, p) => {
  const text = durationText(p.evidenceMaxAge);
  const ms = text === undefined ? undefined : durationMs(text);
  if (ms === undefined || ms >= 60_000) return [];
  const fix = 'give at least "1m", e.g. "168h" (a week), or leave it out for evidence that never expires';
  return [{ path: `${base}/evidenceMaxAge`, problem: `${show(text)} is shorter than a minute`, fix }];
};

const RULES: readonly Rule[] = [stepsInLadderOrder, evidenceAtLeastAMinute];

/** What a Rack writes on each node's rackform_deployment and rackform_cluster_member for a policy. */
export interface HealthSettings {
  /** rackform_deployment `remediation_steps`. */
  readonly remediationSteps: string[];
  /** rackform_cluster_member `max_unhealthy`, if limited. */
  readonly maxUnhealthy: number | undefined;
  /** rackform_acceptance `evidence_max_age`, if the evidence expires. */
  readonly evidenceMaxAge: string | undefined;
  /** The BMC's findings go into rackform_deployment `bmc_health`. */
  readonly bmcSignal: boolean;
  /** So do data rackform_scheduler_health's findings of the node. */
  readonly schedulerSignal: boolean;
}

/** The ladder's steps and its budget, validated at synth; it creates no resource (a Rack applies it per node). */
export class HealthPolicy extends Construct {
  /** The steps before repair, in ladder order (may be empty). */
  readonly remediationSteps: readonly RemediationStep[];
  /** At most this many nodes of a budget take a step per apply (undefined: no limit). */
  readonly maxUnhealthy: number | undefined;
  /** How long a gate's evidence stands, as the provider reads it (undefined: it never expires). */
  readonly evidenceMaxAge: string | undefined;
  /** What counts as a finding (each at most once). */
  readonly signals: readonly HealthSignal[];

  /** Validates the props; throws RackformValidationError naming the field and the fix. */
  constructor(scope: Construct, id: string, props: HealthPolicyProps = {}) {
    super(scope, id);
    const checked = { ...props, evidenceMaxAge: durationText(props.evidenceMaxAge) };
    validateProps(this, SCHEMA, checked, (base) => RULES.flatMap((rule) => rule(base, props)));
    this.remediationSteps = [...(props.remediationSteps ?? REMEDIATION_STEPS)];
    this.maxUnhealthy = props.maxUnhealthy;
    this.evidenceMaxAge = checked.evidenceMaxAge;
    this.signals = [...new Set<HealthSignal>(props.signals ?? ["bmc"])];
  }

  /**
   * Why `maxUnhealthy` limits nothing on `rack` of `nodeCount` nodes, if it does not (a warning, not an error: one
   * policy may serve racks of several sizes, and on the larger ones the same value holds).
   */
  warningFor(rack: IConstruct, nodeCount: number): string | undefined {
    const max = this.maxUnhealthy;
    if (max === undefined || max < nodeCount) return undefined;
    const range = nodeCount > 1 ? `use 1 to ${nodeCount - 1} on this rack` : "a single node has nothing to hold back";
    return (
      `${this.node.path}/maxUnhealthy: ${max} is not below the ${nodeCount} node${nodeCount === 1 ? "" : "s"} of ` +
      `rack ${rack.node.path}, so it limits nothing there — ${range} to hold back a rack-wide failure (usually the ` +
      "fabric or power), or leave it out"
    );
  }

  /** The attributes a Rack writes on every node's deployment and member. */
  toHealthSettings(): HealthSettings {
    return {
      remediationSteps: this.remediationSteps.map((s) => STEP_ATTRIBUTE[s]),
      maxUnhealthy: this.maxUnhealthy,
      evidenceMaxAge: this.evidenceMaxAge,
      bmcSignal: this.signals.includes("bmc"),
      schedulerSignal: this.signals.includes("scheduler"),
    };
  }
}
