/**
 * rackform_acceptance's apply and read handlers as top-level functions of (typed request, deps): run the gate, judge
 * its evidence, quarantine a node that fails it, re-read it on refresh and lift rackform's quarantine on destroy.
 * Tests call them with fake deps (an in-memory backend).
 */
import {
  type ApplyRequest,
  containsUnknown,
  isUnknownValue,
  type PrivateSlot,
  type PrivateState,
  parseDuration,
  path,
  type TypedRequest,
  timeoutMs,
  type Unknowable,
  type Value,
} from "../../framework/index.js";
import {
  type AcceptanceEvidence,
  type AcceptanceRun,
  type Backend,
  type BackendName,
  backendFor,
  type MachineFacts,
  QUARANTINE_PREFIX,
} from "../backends/index.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import type { DisruptionBudget } from "../budget/disruption-budget.js";
import type { ProviderData } from "../config/config.js";
import { BACKEND_LABEL as LABEL, machineIdSite, reportBackendError } from "../errors/backend-errors.js";
import { warnTransientRead } from "../shared/read-hold.js";
import { isLadderRun } from "../shared/remediation.js";
import type { RolloutHandovers } from "../shared/rollout-handover.js";
import { bounded } from "../shared/timeouts.js";
import { type AttestBmc, type AttestOutcome, attestGate, withAttestation } from "./acceptance-attest.js";
import { abandonedStepVerdict, followsRollout, rollingGatePending } from "./acceptance-plan.js";
import { type AcceptancePlan, type AcceptanceState, paramsOf, thresholdsOf } from "./acceptance-schema.js";
import { failureLines, judge, type Verdict } from "./acceptance-verdict.js";
import { parseMachineId } from "./deployment-schema.js";

/** What rackform_acceptance's handlers use. */
export interface AcceptanceDeps {
  /** The node's BMC at an origin, with the provider's redfish credentials (attestation). */
  bmc(origin: string): AttestBmc;
  /** The backend a machine id names; throws when the provider does not configure it. */
  backend(name: BackendName): Backend;
  /** The cluster members' disruption budget: a node that fails its gate gives its drain slot back. */
  readonly budget: Pick<DisruptionBudget, "releaseFailed">;
  /** Where a rolling reimage's gate is offered to the node's cluster member (rollout-handover.ts). */
  readonly rollouts: Pick<RolloutHandovers, "offerGate" | "remedyOffered">;
}

/** The deps of the configured provider. */
export function acceptanceDeps(providerData: unknown): AcceptanceDeps {
  const data = providerData as ProviderData;
  return {
    backend: (name) => backendFor(data, name),
    bmc: (origin) => data.redfishClient(origin),
    budget: data.budget,
    rollouts: data.rollouts,
  };
}

const DEFAULT_TIMEOUT_MS = { read: 2 * 60_000, update: 2 * 60_000, delete: 60_000 };
// Without a timeouts.create the run may take the burn-in plus this much (boot, DCGM, NCCL, reporting).
const CREATE_SLACK_MS = 60 * 60_000;
const UNHEALTHY = new Set(["broken", "failed"]);

type Machine = { backend: BackendName; id: string };
type Measured = Pick<AcceptanceState, "id" | "passed" | "gpu_count" | "busbw_gbps" | "evidence"> & {
  /** A gate run's attestation evidence; undefined keeps the base's. */
  readonly attestation_evidence?: string | null;
};

/** The state of `base` with the gate's outcome; defaulted policy attributes are known by apply. */
function stateOf(base: AcceptancePlan, m: Measured): AcceptanceState {
  const orNull = <T>(v: Unknowable<T>): T | null => (isUnknownValue(v) ? null : v);
  return {
    ...base,
    dcgm_level: orNull(base.dcgm_level),
    burn_in: orNull(base.burn_in),
    allow_xid: orNull(base.allow_xid),
    recheck: orNull(base.recheck),
    attestation_evidence: orNull(base.attestation_evidence),
    ...m,
  };
}

/** The state with the measured values of `v` and the evidence document. */
function withEvidence(
  s: AcceptancePlan,
  id: string,
  passed: boolean,
  got: { readonly e?: AcceptanceEvidence; readonly v?: Verdict; readonly att?: AttestOutcome } = {},
) {
  const { e, v, att } = got;
  const evidence = e ? JSON.stringify(e) : null;
  const attested = att ? { attestation_evidence: att.evidence } : {};
  return stateOf(s, {
    id,
    passed,
    gpu_count: v?.gpuCount ?? null,
    busbw_gbps: v?.busbwGBps ?? null,
    evidence,
    ...attested,
  });
}

/** What a state keeps of the recorded gate when no new evidence is read. */
type Kept = Pick<AcceptanceState, "gpu_count" | "busbw_gbps" | "evidence">;

/** A gate with no run recorded yet. */
const NOTHING_MEASURED: Kept = { gpu_count: null, busbw_gbps: null, evidence: null };

/** The state with the evidence `st` recorded (a read that found no new evidence). */
function keepEvidence(base: AcceptancePlan, st: Kept, id: string, passed: boolean | null) {
  return stateOf(base, { id, passed, gpu_count: st.gpu_count, busbw_gbps: st.busbw_gbps, evidence: st.evidence });
}

/** Private state: the test results' mark at the last full read, and that read's verdict (null: no evidence). */
const PRIVATE_SEEN = "tests_seen";

function seenIn(priv: PrivateState): { mark: string; verdict: boolean | null } | undefined {
  const v = priv[PRIVATE_SEEN];
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const { mark, verdict } = v as { mark?: unknown; verdict?: unknown };
  if (typeof mark !== "string" || (typeof verdict !== "boolean" && verdict !== null)) return undefined;
  return { mark, verdict };
}

/** Records the mark and verdict of a full read; a backend without a mark (or a test still running) records none. */
function remember(slot: PrivateSlot, mark: string | undefined, verdict: boolean | null): void {
  const { [PRIVATE_SEEN]: _, ...rest } = slot.value;
  slot.set(mark === undefined ? rest : { ...rest, [PRIVATE_SEEN]: { mark, verdict } });
}

function messageOf(o: { readonly kind: string; readonly message?: string; readonly facts: MachineFacts }): string {
  return o.message ?? `status ${o.facts.status}`;
}

/** A sentence when the BMC reports fewer GPUs than the gate expects (a GPU lost on a running node); else "". */
function gpusMissing(plan: AcceptancePlan, e: AcceptanceEvidence | undefined): string {
  const seen = plan.bmc_gpu_count;
  const expected =
    thresholdsOf(plan).expectedGpuCount ??
    (typeof e?.gpu_count_expected === "number" ? e.gpu_count_expected : undefined);
  if (seen === null || expected === undefined || seen >= expected) return "";
  return (
    `\nIts BMC reports ${seen} of ${expected} GPUs (bmc_gpu_count; rackform_bmc's warning names the GPU no longer ` +
    "reported): reseat or replace it, and the next apply re-runs the gate, lifts the quarantine and the node rejoins."
  );
}

/** A run that did not pass: the machine quarantined with the failed checks, an error, the tainted state. */
async function failRun(
  r: TypedRequest & { plan: AcceptancePlan },
  gate: {
    m: Machine;
    b: Backend;
    run: AcceptanceRun;
    verdict: Verdict | undefined;
    signal: AbortSignal;
    att?: AttestOutcome;
  },
): Promise<AcceptanceState> {
  const { m, b, run, verdict, att } = gate;
  const lines = verdict ? failureLines(verdict) : [`the backend reported no gate result: ${messageOf(run.outcome)}`];
  lines.push(...(att?.lines ?? []));
  const reason = `${QUARANTINE_PREFIX}: ${lines.join("; ")}`.slice(0, 255);
  let quarantine = BACKEND_TRAITS[m.backend].quarantined;
  try {
    await b.quarantine(m.id, reason, gate.signal);
  } catch (e) {
    quarantine = `NOT quarantined (${(e as Error).message}); take it out of service by hand`;
  }
  r.diagnostics.error(
    "Acceptance gate failed",
    `${LABEL[m.backend]} machine ${m.id} (${run.outcome.facts.name}) failed the gate:\n` +
      `${lines.map((l) => `  - ${l}`).join("\n")}\nThe machine is ${quarantine} with this reason, and the ` +
      "result is recorded as tainted with its evidence: repair the node, then apply again to re-run the gate." +
      gpusMissing(r.plan, run.evidence),
  );
  return withEvidence(r.plan, `${m.backend}:${m.id}`, false, { e: run.evidence, v: verdict, att });
}

/** Runs the gate and judges its evidence; undefined after a diagnostic that leaves nothing to record. */
async function runGate(r: ApplyRequest & { plan: AcceptancePlan }, deps: AcceptanceDeps) {
  const { context: ctx, plan, diagnostics: diags } = r;
  const m = parseMachineId(plan.machine_id ?? "");
  if (!m) {
    diags.error("Invalid machine_id", 'Expected a rackform_machine id such as "maas:4y3h7n".', path("machine_id"));
    return undefined;
  }
  const id = `${m.backend}:${m.id}`;
  const params = paramsOf(plan);
  const ms = timeoutMs({ timeouts: plan.timeouts }, "create", parseDuration(params.burnIn) + CREATE_SLACK_MS);
  const log = ctx.log.with({ resource: "rackform_acceptance", backend: m.backend, id: m.id });
  try {
    const b = deps.backend(m.backend);
    return await bounded(ctx, ms, "create", `running the acceptance gate on ${m.id}`, async (signal) => {
      const run = await b.runAcceptance(m.id, { params, log, signal });
      const att = await attestGate(plan, deps.bmc, log);
      const verdict = withAttestation(run.evidence ? judge(run.evidence, thresholdsOf(plan)) : undefined, att);
      // The run's own test record: the next refresh need not read the evidence again while it stands.
      remember(r.private, run.outcome.facts.testsMark, verdict ? verdict.passed : null);
      if (!verdict?.passed) return failRun(r, { m, b, run, verdict, signal, att });
      if (run.outcome.kind === "failed") {
        diags.warning(
          // The node in the summary: the engines fold warnings of one summary into the first.
          `The backend reports the gate failed: ${run.outcome.facts.name || m.id}`,
          `${LABEL[m.backend]} machine ${m.id}: ${run.outcome.message}\nEvery configured threshold passed ` +
            "(allow_xid), so rackform records a pass; check the machine's status in the backend.",
        );
      }
      return withEvidence(plan, id, true, { e: run.evidence, v: verdict, att });
    });
  } catch (e) {
    reportBackendError(diags, e, "run the acceptance gate", machineIdSite(m.backend, m.id));
    return undefined;
  }
}

/**
 * Whether the health ladder takes a step on this gate's node in this apply: its deployment offered the step's remedy
 * (a power cycle, a reimage) for the node's cluster member to carry out.
 */
function ladderStepOffered(plan: AcceptancePlan, deps: AcceptanceDeps): boolean {
  const m = parseMachineId(plan.machine_id ?? "");
  return m !== undefined && isLadderRun(plan.remediation) && deps.rollouts.remedyOffered(`${m.backend}:${m.id}`);
}

/**
 * Runs the gate; a node that fails it gives its drain slot in the disruption budget to the next node. A gate created
 * while the health ladder takes a step on its node (the replacement of a gate that failed before the node joined) is
 * the step's: offered to the member, which runs it after the remedy — run here, before the remedy, it would fail on
 * the very fault the remedy is for, and the member carrying the remedy would never run.
 */
export async function createAcceptance(
  r: ApplyRequest & { plan: AcceptancePlan },
  deps: AcceptanceDeps,
): Promise<AcceptanceState | undefined> {
  if (ladderStepOffered(r.plan, deps)) return offerGate(r, deps, NOTHING_MEASURED);
  const s = await runGate(r, deps);
  // A quarantined node will not rejoin in this run: its drain slot goes to the next node.
  if (r.diagnostics.hasError()) {
    await deps.budget.releaseFailed([r.plan.machine_id], "failed its acceptance gate", r.context.log, r.diagnostics);
  }
  return s;
}

/** What a refresh of the gate reads: the recorded state, the values to keep, and whether it is a plan's read. */
interface Refresh extends ApplyRequest {
  readonly state: AcceptanceState;
  /** The values the new state keeps: the plan at update, the state at read. */
  readonly base: AcceptancePlan;
  readonly ms: number;
  /** A read: the recorded mark spares re-reading the evidence, and a failure that passes keeps the recorded state. */
  readonly read: boolean;
}

/**
 * The attestation of a gate the node's cluster member ran in a rolling update, at the refresh that records its
 * verdict. The member's run attested the node before it rejoined, but its answers stayed in that apply's process
 * (nothing lets one resource's operation write another's state): this read asks the components again, so the
 * evidence kept, and judged with the run's, is of the node as it came back, not the gate before it.
 */
function rollingAttestation(r: Refresh, base: AcceptancePlan, deps: AcceptanceDeps) {
  const log = r.context.log.with({ resource: "rackform_acceptance", machine_id: base.machine_id });
  return attestGate(base, deps.bmc, log);
}

/**
 * passed and the measured values as the backend reports them now, for read and update: null when the machine is
 * gone, undefined after an error. `seen` is what the last full read recorded in private state: when the machine's test
 * results carry the same mark, the gate's evidence cannot have changed and is not read again.
 */
async function refresh(r: Refresh, deps: AcceptanceDeps): Promise<AcceptanceState | null | undefined> {
  const { state: st, base, diagnostics: diags } = r;
  const m = parseMachineId(st.machine_id ?? "");
  if (!m) {
    diags.error("Invalid machine_id in state", `Got ${JSON.stringify(st.machine_id)}.`);
    return undefined;
  }
  const seen = r.read ? seenIn(r.private.value) : undefined;
  const id = `${m.backend}:${m.id}`;
  try {
    const b = deps.backend(m.backend);
    return await bounded(r.context, r.ms, "read", `re-checking ${m.id}`, async (signal) => {
      const f = await b.read(m.id, signal);
      if (!f) return null;
      const healthy = !UNHEALTHY.has(f.state);
      // A rolling reimage's gate still to run: no verdict until evidence other than the recorded one appears.
      const pending = st.passed === null && followsRollout(st);
      if (seen && f.testsMark === seen.mark) {
        if (pending) return keepEvidence(base, st, id, healthy ? null : false);
        return keepEvidence(base, st, id, healthy && (seen.verdict ?? st.passed === true));
      }
      const e = await b.lastAcceptance(m.id, signal);
      if (pending && (!e || JSON.stringify(e) === st.evidence))
        return keepEvidence(base, st, id, healthy ? null : false);
      const att = pending && e ? await rollingAttestation(r, base, deps) : undefined;
      const v = withAttestation(e ? judge(e, thresholdsOf(base)) : undefined, att);
      remember(r.private, f.testsMark, v ? v.passed : null);
      const passed = healthy && (v ? v.passed : st.passed === true);
      return e ? withEvidence(base, id, passed, { e, v, att }) : keepEvidence(base, st, id, passed);
    });
  } catch (e) {
    // A read that failed for a passing reason keeps the recorded verdict.
    if (r.read && warnTransientRead(diags, e, `${LABEL[m.backend]} machine ${m.id} (its gate)`)) return st;
    reportBackendError(diags, e, "re-check the machine", machineIdSite(m.backend, m.id));
    return undefined;
  }
}

/** True when the plan holds no unknown: a policy edit the recorded evidence covers, judged at plan. */
function whollyKnown(plan: AcceptancePlan): plan is AcceptancePlan & AcceptanceState {
  return !containsUnknown(plan as unknown as Value);
}

/**
 * A policy edit the recorded evidence covers was judged at plan, which kept the verdict and evidence: it is recorded
 * as planned, without asking the backend. Otherwise an update records timeouts, or thresholds first seen after an
 * import: the gate is re-read and judged.
 */
export async function updateAcceptance(
  r: ApplyRequest & { plan: AcceptancePlan; state: AcceptanceState },
  deps: AcceptanceDeps,
): Promise<AcceptanceState | undefined> {
  // A ladder step's gate that never ran, the ladder moved on: settled at plan, recorded as planned.
  const settled = abandonedStepVerdict(r.state, r.plan);
  if (settled !== undefined) return keepEvidence(r.plan, r.state, r.state.id ?? r.state.machine_id, settled);
  if (rollingGatePending(r.state, r.plan)) return offerGate(r, deps, r.state);
  if (whollyKnown(r.plan)) return r.plan;
  const ms = timeoutMs({ timeouts: r.plan.timeouts }, "update", DEFAULT_TIMEOUT_MS.update);
  const s = await refresh({ ...r, base: r.plan, ms, read: false }, deps);
  if (s === null) r.diagnostics.error("Machine not found", "The machine no longer exists in its backend.");
  return s ?? undefined;
}

/**
 * A rolling reimage's gate: offered to the node's cluster member, which runs it once the new image is deployed
 * (rollout-handover.ts); recorded with passed null until a refresh reads the run's verdict.
 */
function offerGate(r: ApplyRequest & { plan: AcceptancePlan }, deps: AcceptanceDeps, kept: Kept) {
  // machine_id is known at apply: a new one replaces the gate.
  const m = parseMachineId(r.plan.machine_id ?? "");
  if (!m) {
    r.diagnostics.error("Invalid machine_id", `Got ${JSON.stringify(r.plan.machine_id)}.`, path("machine_id"));
    return undefined;
  }
  const id = `${m.backend}:${m.id}`;
  const plan = r.plan;
  deps.rollouts.offerGate(id, {
    what: `the acceptance gate of ${m.id}`,
    failure: "failed its acceptance gate",
    async run(step) {
      // The run's test record is this resource's to remember at its next refresh, not the member's.
      const scratch = { value: {}, set() {} };
      const s = await runGate({ ...step, private: scratch, plan }, deps);
      return s?.passed === true && !step.diagnostics.hasError() ? "done" : "failed";
    },
  });
  r.context.log.info("gate offered to the cluster member", { backend: m.backend, id: m.id });
  return keepEvidence(plan, kept, id, null);
}

/** Re-reads the backend's status and latest gate result; null when the machine is gone. */
export async function readAcceptance(
  r: ApplyRequest & { state: AcceptanceState },
  deps: AcceptanceDeps,
): Promise<AcceptanceState | null> {
  const ms = timeoutMs({ timeouts: r.state.timeouts }, "read", DEFAULT_TIMEOUT_MS.read);
  const s = await refresh({ ...r, base: r.state, ms, read: true }, deps);
  return s === undefined ? r.state : s;
}

/**
 * The result is forgotten. A quarantine rackform set on a failed gate is rackform's to lift: left behind, it would
 * block the machine's own teardown (Ironic undeploys no node in maintenance) or keep it out of service with no gate to
 * return it. A replacement's create runs the gate again and quarantines anew if it fails.
 */
export async function deleteAcceptance(r: ApplyRequest & { state: AcceptanceState }, deps: AcceptanceDeps) {
  const m = parseMachineId(r.state.machine_id ?? "");
  if (!m) return;
  const ms = timeoutMs({ timeouts: r.state.timeouts }, "delete", DEFAULT_TIMEOUT_MS.delete);
  try {
    const b = deps.backend(m.backend);
    const lifted = await bounded(r.context, ms, "delete", `lifting the quarantine of ${m.id}`, (signal) =>
      b.liftQuarantine(m.id, signal),
    );
    if (lifted) r.context.log.info("lifted rackform's quarantine", { backend: m.backend, id: m.id });
  } catch (e) {
    reportBackendError(r.diagnostics, e, "lift rackform's quarantine", machineIdSite(m.backend, m.id));
  }
}

/** The machine id names the gate; no evidence is read yet: read fills passed from the latest gate result. */
export function importAcceptance(r: TypedRequest & { id: string }): Partial<AcceptanceState> | undefined {
  const m = parseMachineId(r.id);
  if (!m) {
    r.diagnostics.error(
      "Invalid import id for rackform_acceptance",
      `Expected the machine id, e.g. "maas:4y3h7n" or "ironic:<node uuid>"; got ${JSON.stringify(r.id)}.`,
    );
    return undefined;
  }
  const id = `${m.backend}:${m.id}`;
  return { id, machine_id: id };
}
