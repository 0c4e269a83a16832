/**
 * The stage a node is in, in the words both `rackform plan-summary` (a pull request's "now" line) and `rackform watch`
 * (the live view) use: read from what the engine recorded in state for the node's chain, and refined by what its
 * backend reports now (MAAS status, Ironic provision state) when the watch reads it.
 */

import { isLadderRun, REPAIR, rungLabel } from "../provider/shared/remediation.js";

/**
 * Every stage, in the order a converging node walks the first eleven (`firmware`: its rackform_firmware baseline is
 * recorded and its machine not enrolled yet; `attesting`: its gate's tests are over and the gate, which attests the
 * node's components, still runs — see stages-live.ts); the others are off the happy path: trouble (failed, quarantined;
 * unhealthy: joined, but its BMC reports a component Warning or Critical; remediating: a step of its health
 * remediation ladder under way — power cycle or reimage, then the gate) and a node on its way out of service
 * (draining in its scheduler, releasing in its backend — MAAS "Releasing" and "Disk erasing", Ironic undeploy and its
 * cleaning).
 */
export const STAGES = [
  "off",
  "bmc-up",
  "firmware",
  "enrolled",
  "commissioning",
  "ready",
  "deploying",
  "deployed",
  "testing",
  "attesting",
  "joined",
  "failed",
  "quarantined",
  "unhealthy",
  "remediating",
  "draining",
  "releasing",
] as const;

/** One stage. */
export type Stage = (typeof STAGES)[number];

/** The words a person reads for each stage. */
export const STAGE_LABEL: Readonly<Record<Stage, string>> = {
  off: "off",
  "bmc-up": "BMC up",
  firmware: "firmware",
  enrolled: "enrolled",
  commissioning: "commissioning",
  ready: "ready",
  deploying: "deploying",
  deployed: "deployed",
  testing: "testing",
  attesting: "attesting",
  joined: "joined",
  failed: "failed",
  quarantined: "quarantined",
  unhealthy: "unhealthy",
  remediating: "remediating",
  draining: "draining",
  releasing: "releasing",
};

/** The colour of each stage on the watch page (greys to blue to green as a node converges; red and amber for trouble). */
export const STAGE_COLOUR: Readonly<Record<Stage, string>> = {
  off: "#9aa0a6",
  "bmc-up": "#b4a7d6",
  firmware: "#8e7cc3",
  enrolled: "#9fc5e8",
  commissioning: "#6fa8dc",
  ready: "#3d85c6",
  deploying: "#76a5af",
  deployed: "#45818e",
  testing: "#93c47d",
  attesting: "#6aa84f",
  joined: "#38761d",
  failed: "#cc0000",
  quarantined: "#e69138",
  unhealthy: "#e06666",
  remediating: "#c27ba0",
  draining: "#f1c232",
  releasing: "#bf9000",
};

/** The stages a node passes on its way to `joined`, in order (the ETA sums what is left of them). */
export const PATH: readonly Stage[] = STAGES.slice(0, STAGES.indexOf("joined") + 1);

/** Stages a node stays in until someone acts: nothing is left to wait for. */
export const SETTLED: ReadonlySet<Stage> = new Set<Stage>(["joined", "failed", "quarantined", "unhealthy"]);

/** The chain's resource types, by the link of the chain they record. */
export type ChainLink = "outlet" | "bmc" | "firmware" | "machine" | "deployment" | "acceptance" | "member";

/** The chain's resource type of each link. */
export const LINK_TYPE: Readonly<Record<ChainLink, string>> = {
  outlet: "rackform_pdu_outlet",
  bmc: "rackform_bmc",
  firmware: "rackform_firmware",
  machine: "rackform_machine",
  deployment: "rackform_deployment",
  acceptance: "rackform_acceptance",
  member: "rackform_cluster_member",
};

/** One resource of a node's chain as state holds it: its attribute values, and whether the engine tainted it. */
export interface RecordedResource {
  readonly values: Readonly<Record<string, unknown>>;
  readonly tainted?: boolean;
}

/** A stage with the evidence that put the node there (a failure's message), when there is one. */
export interface StageReading {
  readonly stage: Stage;
  readonly detail?: string;
  /**
   * State says the node's first gate is running and attests its components: its deployment is recorded, its
   * rackform_acceptance (configured with `attestation`) not yet. State alone cannot tell the gate's tests from its
   * attestation, which runs after them: a backend reporting the machine deployed and idle can (stages-live.ts).
   */
  readonly attests?: boolean;
}

/** What the configuration says of a node beyond its recorded chain. */
export interface NodeIntent {
  /** Its rackform_acceptance is configured with `attestation` (declared, or recorded with it). */
  readonly attests?: boolean;
}

/** The failures a gate recorded in its evidence (rackform-acceptance/v1), as one line. */
export function evidenceFailures(evidence: unknown): string | undefined {
  if (typeof evidence !== "string" || evidence === "") return undefined;
  try {
    const parsed = JSON.parse(evidence) as { failures?: unknown };
    const list = Array.isArray(parsed.failures) ? parsed.failures.filter((f) => typeof f === "string") : [];
    return list.length > 0 ? list.join("; ") : undefined;
  } catch {
    return undefined;
  }
}

/** The components a gate's attestation evidence (rackform-attestation/v1) records as failed, as one line. */
export function attestationFailures(evidence: unknown): string | undefined {
  if (typeof evidence !== "string" || evidence === "") return undefined;
  try {
    const parsed = JSON.parse(evidence) as { components?: unknown };
    const list = Array.isArray(parsed.components) ? (parsed.components as Record<string, unknown>[]) : [];
    const lines = list.flatMap((c) => {
      if (typeof c !== "object" || c === null || c.passed !== false) return [];
      const problems = Array.isArray(c.problems) ? c.problems.filter((p) => typeof p === "string") : [];
      return [`${String(c.id)} (${String(c.kind)}) ${problems.join(", ") || "did not attest"}`];
    });
    return lines.length > 0 ? `attestation: ${lines.join("; ")}` : undefined;
  } catch {
    return undefined;
  }
}

/** The evidence of a firmware update that failed (tainted, or its last_update_messages), else undefined. */
function firmwareFailure(firmware: RecordedResource | undefined): string | undefined {
  if (!firmware) return undefined;
  const raw = firmware.values.last_update_messages;
  const messages = Array.isArray(raw) ? raw.filter((m): m is string => typeof m === "string" && m !== "") : [];
  if (messages.length > 0) return `firmware update failed: ${messages.join("; ")}`;
  return firmware.tainted ? "firmware update failed" : undefined;
}

/** One component a node's BMC reported not OK, as rackform_bmc's `health` records it. */
export interface HealthFinding {
  readonly component: string;
  readonly kind: string;
  readonly health: string;
  readonly since: string;
}

const text = (v: unknown): string => (typeof v === "string" ? v : "");

/** rackform_bmc's recorded `health` value (a list of objects; anything else: none). */
export function recordedHealth(value: unknown): HealthFinding[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((f) => {
    if (typeof f !== "object" || f === null) return [];
    const r = f as Record<string, unknown>;
    return [{ component: text(r.component), kind: text(r.kind), health: text(r.health), since: text(r.since) }];
  });
}

/** The components the node's BMC reported not OK at its last read (rackform_bmc.health), as one line. */
function healthFindings(bmc: RecordedResource | undefined): string | undefined {
  const found = recordedHealth(bmc?.values.health).filter((f) => f.component !== "");
  return found.length > 0 ? `BMC reports ${found.map((f) => `${f.component} ${f.health}`).join(", ")}` : undefined;
}

/**
 * The stage the health remediation ladder gives a node: its deployment recorded a step its member has not recorded
 * yet (under way — or failed, when the gate the step re-ran recorded a failure), or the node is held for repair.
 */
function ladderStage(chain: Partial<Record<ChainLink, RecordedResource>>): StageReading | undefined {
  const { deployment, member, acceptance, bmc } = chain;
  const rung = deployment?.values.remediation;
  if (!member || typeof rung !== "string" || rung === "") return undefined;
  const sick = healthFindings(bmc);
  if (rung === REPAIR) return { stage: "quarantined", detail: `held for repair${sick ? `: ${sick}` : ""}` };
  if (!isLadderRun(rung) || member.values.remediation === rung) return undefined;
  if (acceptance?.values.remediation === rung && acceptance.values.passed === false) {
    return {
      stage: "quarantined",
      detail: `the gate failed after the ${rungLabel(rung)}; the next plan takes the next step`,
    };
  }
  return { stage: "remediating", detail: `${rungLabel(rung)}${sick ? ` (${sick})` : ""}` };
}

/**
 * The stage a node's chain in state says it has reached (no live read); `intent` marks a deployed node whose gate,
 * configured to attest, is running (`attests`).
 */
export function stageFromState(
  chain: Partial<Record<ChainLink, RecordedResource>>,
  intent: NodeIntent = {},
): StageReading {
  const { member, acceptance, deployment, machine, firmware, bmc, outlet } = chain;
  // An outlet switched off takes the whole node down, whatever its chain reached before.
  if (outlet?.values.power_state === "Off" && (bmc || machine)) return { stage: "off", detail: "outlet switched off" };
  // A failed firmware update: a node in service (rolling) is quarantined by its member, any other has failed.
  const fwFailed = firmwareFailure(firmware);
  if (fwFailed) return { stage: member ? "quarantined" : "failed", detail: fwFailed };
  const ladder = ladderStage(chain);
  if (ladder) return ladder;
  if (member && !member.tainted) {
    const sick = healthFindings(bmc);
    if (member.values.joined === true) return sick ? { stage: "unhealthy", detail: sick } : { stage: "joined" };
    const state = String(member.values.state ?? "");
    return { stage: "draining", detail: state ? `scheduler reports ${state}` : "not joined" };
  }
  if (acceptance) {
    const failures = [
      evidenceFailures(acceptance.values.evidence),
      attestationFailures(acceptance.values.attestation_evidence),
    ];
    if (acceptance.tainted || acceptance.values.passed === false) {
      const found = failures.filter((f) => f !== undefined);
      return { stage: "quarantined", detail: found.length > 0 ? found.join("; ") : "acceptance gate failed" };
    }
    return { stage: "testing" };
  }
  if (deployment) {
    if (deployment.tainted) return { stage: "failed", detail: "deployment failed" };
    return intent.attests ? { stage: "deployed", attests: true } : { stage: "deployed" };
  }
  if (machine) {
    if (machine.tainted) return { stage: "failed", detail: "enrolment or commissioning failed" };
    return { stage: "ready" };
  }
  if (firmware) return { stage: "firmware" };
  if (bmc) return bmc.tainted ? { stage: "failed", detail: "BMC check failed" } : { stage: "bmc-up" };
  return { stage: "off" };
}

/** Counts per stage, in STAGES order, leaving out stages no node is in: "6 joined · 1 failed · 1 quarantined". */
export function stageCounts(stages: readonly Stage[]): string {
  const counts = new Map<Stage, number>();
  for (const s of stages) counts.set(s, (counts.get(s) ?? 0) + 1);
  return STAGES.filter((s) => counts.has(s))
    .map((s) => `${counts.get(s)} ${STAGE_LABEL[s]}`)
    .join(" · ");
}
