/**
 * The stage a node is in, in the words both `rackform plan-summary` (a pull request's "now" line) and `rackform watch`
 * (the live view) use: read from what the engine recorded in state for the node's chain, and refined by what its
 * backend reports now (MAAS status, Ironic provision state) when the watch reads it.
 */

/** Every stage, in the order a converging node walks the first nine; the last three are off the happy path. */
export const STAGES = [
  "off",
  "bmc-up",
  "enrolled",
  "commissioning",
  "ready",
  "deploying",
  "deployed",
  "accepting",
  "joined",
  "failed",
  "quarantined",
  "draining",
] as const;

/** One stage. */
export type Stage = (typeof STAGES)[number];

/** The words a person reads for each stage. */
export const STAGE_LABEL: Readonly<Record<Stage, string>> = {
  off: "off",
  "bmc-up": "BMC up",
  enrolled: "enrolled",
  commissioning: "commissioning",
  ready: "ready",
  deploying: "deploying",
  deployed: "deployed",
  accepting: "accepting",
  joined: "joined",
  failed: "failed",
  quarantined: "quarantined",
  draining: "draining",
};

/** The colour of each stage on the watch page (greys to blue to green as a node converges; red and amber for trouble). */
export const STAGE_COLOUR: Readonly<Record<Stage, string>> = {
  off: "#9aa0a6",
  "bmc-up": "#b4a7d6",
  enrolled: "#9fc5e8",
  commissioning: "#6fa8dc",
  ready: "#3d85c6",
  deploying: "#76a5af",
  deployed: "#45818e",
  accepting: "#93c47d",
  joined: "#38761d",
  failed: "#cc0000",
  quarantined: "#e69138",
  draining: "#f1c232",
};

/** The stages a node passes on its way to `joined`, in order (the ETA sums what is left of them). */
export const PATH: readonly Stage[] = STAGES.slice(0, 9);

/** Stages a node stays in until someone acts: nothing is left to wait for. */
export const SETTLED: ReadonlySet<Stage> = new Set<Stage>(["joined", "failed", "quarantined"]);

/** The chain's resource types, by the link of the chain they record. */
export type ChainLink = "outlet" | "bmc" | "machine" | "deployment" | "acceptance" | "member";

/** The chain's resource type of each link. */
export const LINK_TYPE: Readonly<Record<ChainLink, string>> = {
  outlet: "rackform_pdu_outlet",
  bmc: "rackform_bmc",
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

/** The stage a node's chain in state says it has reached (no live read). */
export function stageFromState(chain: Partial<Record<ChainLink, RecordedResource>>): StageReading {
  const { member, acceptance, deployment, machine, bmc, outlet } = chain;
  // An outlet switched off takes the whole node down, whatever its chain reached before.
  if (outlet?.values.power_state === "Off" && (bmc || machine)) return { stage: "off", detail: "outlet switched off" };
  if (member && !member.tainted) {
    if (member.values.joined === true) return { stage: "joined" };
    const state = String(member.values.state ?? "");
    return { stage: "draining", detail: state ? `scheduler reports ${state}` : "not joined" };
  }
  if (acceptance) {
    const failures = evidenceFailures(acceptance.values.evidence);
    if (acceptance.tainted || acceptance.values.passed === false) {
      return { stage: "quarantined", detail: failures ?? "acceptance gate failed" };
    }
    return { stage: "accepting" };
  }
  if (deployment) return deployment.tainted ? { stage: "failed", detail: "deployment failed" } : { stage: "deployed" };
  if (machine) {
    if (machine.tainted) return { stage: "failed", detail: "enrolment or commissioning failed" };
    return { stage: "ready" };
  }
  if (bmc) return bmc.tainted ? { stage: "failed", detail: "BMC check failed" } : { stage: "bmc-up" };
  return { stage: "off" };
}

/** What a backend reports about one machine now. */
export interface BackendReading {
  readonly backend: "maas" | "ironic";
  /** MAAS status name ("Commissioning") or Ironic provision state ("clean wait"). */
  readonly status: string;
  readonly maintenance?: boolean;
  /** MAAS status message, Ironic last_error or maintenance reason. */
  readonly message?: string;
}

const MAAS_STAGE: Readonly<Record<string, Stage>> = {
  New: "enrolled",
  Commissioning: "commissioning",
  Testing: "commissioning",
  Ready: "ready",
  Allocated: "deploying",
  Deploying: "deploying",
  Deployed: "deployed",
  Releasing: "draining",
  "Disk erasing": "draining",
  "Failed commissioning": "failed",
  "Failed testing": "failed",
  "Failed deployment": "failed",
  "Failed releasing": "failed",
  "Failed disk erasing": "failed",
  Broken: "quarantined",
};

const IRONIC_STAGE: Readonly<Record<string, Stage>> = {
  enroll: "enrolled",
  verifying: "enrolled",
  manageable: "enrolled",
  inspecting: "commissioning",
  "inspect wait": "commissioning",
  cleaning: "commissioning",
  "clean wait": "commissioning",
  available: "ready",
  deploying: "deploying",
  "wait call-back": "deploying",
  "deploy wait": "deploying",
  active: "deployed",
  servicing: "accepting",
  "service wait": "accepting",
  deleting: "draining",
  undeploying: "draining",
  "deploy failed": "failed",
  "clean failed": "failed",
  "inspect failed": "failed",
  "service failed": "failed",
  error: "failed",
};

/** The stage a backend's own status means, or undefined for a status that says nothing of the node's progress. */
export function stageFromBackend(r: BackendReading): StageReading | undefined {
  if (r.backend === "ironic" && r.maintenance) return { stage: "quarantined", detail: r.message || "maintenance" };
  const stage = (r.backend === "maas" ? MAAS_STAGE : IRONIC_STAGE)[r.status];
  if (!stage) return undefined;
  const trouble = stage === "failed" || stage === "quarantined";
  return trouble ? { stage, detail: r.message || r.status } : { stage };
}

const rank = (s: Stage) => PATH.indexOf(s);

/**
 * State and a live reading together: trouble the backend reports wins (a failure is news state cannot hold yet), and
 * otherwise the furthest of the two along the path (state lags a step that is still running; the backend lags
 * nothing but knows nothing of BMCs, gates or schedulers).
 */
export function combineStages(recorded: StageReading, live: StageReading | undefined): StageReading {
  if (!live) return recorded;
  // State's own failure knows more (a failed gate is a quarantine, with its evidence) than the backend's word for it.
  if (recorded.stage === "failed" || recorded.stage === "quarantined") return recorded;
  if (live.stage === "failed" || live.stage === "quarantined") return recorded.stage === "joined" ? recorded : live;
  if (rank(recorded.stage) < 0) return recorded;
  // MAAS tests a deployed machine under "Testing": that is its acceptance gate running, not a new commissioning.
  if (live.stage === "commissioning" && rank(recorded.stage) >= rank("deployed")) return { stage: "accepting" };
  if (live.stage === "draining") return recorded.stage === "joined" ? recorded : live;
  // A machine deployed but not yet accepted is running its gate when the backend says so (Ironic servicing).
  return rank(live.stage) > rank(recorded.stage) ? live : recorded;
}

/** Counts per stage, in STAGES order, leaving out stages no node is in: "6 joined · 1 failed · 1 quarantined". */
export function stageCounts(stages: readonly Stage[]): string {
  const counts = new Map<Stage, number>();
  for (const s of stages) counts.set(s, (counts.get(s) ?? 0) + 1);
  return STAGES.filter((s) => counts.has(s))
    .map((s) => `${counts.get(s)} ${STAGE_LABEL[s]}`)
    .join(" · ");
}
