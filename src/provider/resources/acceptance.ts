import {
  type Context,
  containsUnknown,
  type Diagnostics,
  getBool,
  getNumber,
  getString,
  type ModifyPlanResponse,
  type ObjectValue,
  type PrivateState,
  parseDuration,
  path,
  type Resource,
  timeoutMs,
  UNKNOWN,
  type Value,
  valuesEqual,
} from "../../framework/index.js";
import { type AcceptanceEvidence, backendFor, type MachineFacts, QUARANTINE_PREFIX } from "../backends/index.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import type { ProviderData } from "../config/config.js";
import { BACKEND_LABEL as LABEL, machineIdSite, reportBackendError } from "../errors/backend-errors.js";
import { providerDataSlot } from "../shared/data-slot.js";
import { holdOnTransientRead } from "../shared/read-hold.js";
import { bounded } from "../shared/timeouts.js";
import { rejudge } from "./acceptance-policy.js";
import { acceptanceSchema, paramsOf, thresholdsOf } from "./acceptance-schema.js";
import { failureLines, judge, type Verdict } from "./acceptance-verdict.js";
import { parseMachineId } from "./deployment-schema.js";

const DEFAULT_TIMEOUT_MS = { read: 2 * 60_000, update: 2 * 60_000, delete: 60_000 };
// Without a timeouts.create the run may take the burn-in plus this much (boot, DCGM, NCCL, reporting).
const CREATE_SLACK_MS = 60 * 60_000;
const UNHEALTHY = new Set(["broken", "failed"]);

/** The state with the measured values of `v` and the evidence document. */
function withEvidence(s: ObjectValue, id: string, passed: boolean, e?: AcceptanceEvidence, v?: Verdict): ObjectValue {
  return {
    ...s,
    id,
    passed,
    gpu_count: v?.gpuCount ?? null,
    busbw_gbps: v?.busbwGBps ?? null,
    evidence: e ? JSON.stringify(e) : null,
  };
}

/** The state with the evidence `st` recorded (a read that found no new evidence). */
function keepEvidence(base: ObjectValue, st: ObjectValue, id: string, passed: boolean): ObjectValue {
  return {
    ...base,
    id,
    passed,
    gpu_count: st.gpu_count ?? null,
    busbw_gbps: st.busbw_gbps ?? null,
    evidence: st.evidence ?? null,
  };
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
function remember(priv: PrivateState, mark: string | undefined, verdict: boolean | null): void {
  if (mark === undefined) delete priv[PRIVATE_SEEN];
  else priv[PRIVATE_SEEN] = { mark, verdict };
}

async function create(ctx: Context, data: ProviderData, plan: ObjectValue, diags: Diagnostics, priv: PrivateState) {
  const m = parseMachineId(getString(plan, "machine_id") ?? "");
  if (!m) {
    diags.error("Invalid machine_id", 'Expected a rackform_machine id such as "maas:4y3h7n".', path("machine_id"));
    return undefined;
  }
  const id = `${m.backend}:${m.id}`;
  const params = paramsOf(plan);
  const ms = timeoutMs(plan, "create", parseDuration(params.burnIn) + CREATE_SLACK_MS);
  const log = ctx.log.with({ resource: "rackform_acceptance", backend: m.backend, id: m.id });
  try {
    const b = backendFor(data, m.backend);
    return await bounded(ctx, ms, "create", `running the acceptance gate on ${m.id}`, async (signal) => {
      const run = await b.runAcceptance(m.id, { params, log, signal });
      const verdict = run.evidence ? judge(run.evidence, thresholdsOf(plan)) : undefined;
      // The run's own test record: the next refresh need not read the evidence again while it stands.
      remember(priv, run.outcome.facts.testsMark, verdict ? verdict.passed : null);
      if (verdict?.passed) {
        if (run.outcome.kind === "failed") {
          diags.warning(
            // The node in the summary: the engines fold warnings of one summary into the first.
            `The backend reports the gate failed: ${run.outcome.facts.name || m.id}`,
            `${LABEL[m.backend]} machine ${m.id}: ${run.outcome.message}\nEvery configured threshold passed ` +
              "(allow_xid), so rackform records a pass; check the machine's status in the backend.",
          );
        }
        return withEvidence(plan, id, true, run.evidence, verdict);
      }
      const lines = verdict
        ? failureLines(verdict)
        : [`the backend reported no gate result: ${messageOf(run.outcome)}`];
      const reason = `${QUARANTINE_PREFIX}: ${lines.join("; ")}`.slice(0, 255);
      let quarantine = BACKEND_TRAITS[m.backend].quarantined;
      try {
        await b.quarantine(m.id, reason, signal);
      } catch (e) {
        quarantine = `NOT quarantined (${(e as Error).message}); take it out of service by hand`;
      }
      diags.error(
        "Acceptance gate failed",
        `${LABEL[m.backend]} machine ${m.id} (${run.outcome.facts.name}) failed the gate:\n` +
          `${lines.map((l) => `  - ${l}`).join("\n")}\nThe machine is ${quarantine} with this reason, and the ` +
          "result is recorded as tainted with its evidence: repair the node, then apply again to re-run the gate." +
          gpusMissing(plan, run.evidence),
      );
      return withEvidence(plan, id, false, run.evidence, verdict);
    });
  } catch (e) {
    reportBackendError(diags, e, "run the acceptance gate", machineIdSite(m.backend, m.id));
    return undefined;
  }
}

/** A sentence when the BMC reports fewer GPUs than the gate expects (a GPU lost on a running node); else "". */
function gpusMissing(plan: ObjectValue, e: AcceptanceEvidence | undefined): string {
  const seen = getNumber(plan, "bmc_gpu_count");
  const expected =
    thresholdsOf(plan).expectedGpuCount ??
    (typeof e?.gpu_count_expected === "number" ? e.gpu_count_expected : undefined);
  if (seen === null || expected === undefined || seen >= expected) return "";
  return (
    `\nIts BMC reports ${seen} of ${expected} GPUs (bmc_gpu_count; rackform_bmc's warning names the GPU no longer ` +
    "reported): reseat or replace it, and the next apply re-runs the gate, lifts the quarantine and the node rejoins."
  );
}

/**
 * An edit of the policy (thresholds, burn-in, DCGM level, XID policy, GPU count, firmware) re-judges the evidence in
 * state: covered, the plan keeps the verdict, the figures and the evidence, so the update only records the new policy
 * and nothing built on the gate's id is touched; not covered, the gate re-runs (a replacement, whose member drains
 * within its disruption budget) and a warning names the node, what its evidence measured and the new threshold.
 */
function planPolicyEdit(st: ObjectValue, plan: ObjectValue, resp: ModifyPlanResponse): void {
  // Another machine, or a changed GPU count from the BMC, re-runs the gate whatever the policy (attribute modifiers).
  const rerun = ["machine_id", "bmc_gpu_count"].some((a) => (st[a] ?? null) !== null && !valuesEqual(plan[a], st[a]));
  if (rerun) return;
  const r = rejudge(st, plan);
  if (!r) return;
  if (r.uncovered.length === 0) {
    const { passed, gpu_count, busbw_gbps, evidence } = st;
    resp.plan = { ...plan, passed, gpu_count, busbw_gbps, evidence };
    return;
  }
  for (const a of r.changed) resp.requiresReplace.push(path(a));
  const lines = failureLines({ passed: false, checks: r.uncovered });
  resp.diagnostics.warning(
    // The node in the summary: the engines fold warnings of one summary into the first.
    `Acceptance gate re-runs: ${r.node}`,
    `The evidence recorded for ${r.node} (${getString(st, "machine_id")}) does not cover the edited policy:\n` +
      `${lines.map((l) => `  - ${l}`).join("\n")}\nThe gate runs again on this node with the new policy: a cluster ` +
      "member whose gate_id is this gate drains first (within its disruption budget) and rejoins once it passes. " +
      "Nodes whose evidence covers the edit are updated in place.",
  );
}

function messageOf(o: { readonly kind: string; readonly message?: string; readonly facts: MachineFacts }): string {
  return o.message ?? `status ${o.facts.status}`;
}

/** The rackform_acceptance resource; one instance per provider process. */
export function acceptanceResource(): Resource {
  const slot = providerDataSlot("rackform_acceptance");
  const need = slot.get;
  /**
   * passed and the measured values as the backend reports them now, for read and update. `seen` is what the last
   * full read recorded in private state: when the machine's test results carry the same mark, the gate's evidence
   * cannot have changed and is not read again (one request a node less in every plan).
   */
  async function refresh(
    ctx: Context,
    st: ObjectValue,
    base: ObjectValue,
    ms: number,
    diags: Diagnostics,
    priv: PrivateState,
    hold?: { state: Value; diagnostics: Diagnostics },
  ) {
    const m = parseMachineId(getString(st, "machine_id") ?? "");
    if (!m) {
      diags.error("Invalid machine_id in state", `Got ${JSON.stringify(st.machine_id)}.`);
      return undefined;
    }
    const seen = hold ? seenIn(priv) : undefined;
    try {
      const b = backendFor(need(), m.backend);
      return await bounded(ctx, ms, "read", `re-checking ${m.id}`, async (signal) => {
        const f = await b.read(m.id, signal);
        if (!f) return null;
        const healthy = !UNHEALTHY.has(f.state);
        if (seen && f.testsMark === seen.mark) {
          const passed = healthy && (seen.verdict ?? getBool(st, "passed") === true);
          return keepEvidence(base, st, `${m.backend}:${m.id}`, passed);
        }
        const e = await b.lastAcceptance(m.id, signal);
        const v = e ? judge(e, thresholdsOf(base)) : undefined;
        remember(priv, f.testsMark, v ? v.passed : null);
        const passed = healthy && (v ? v.passed : getBool(st, "passed") === true);
        if (e) return withEvidence(base, `${m.backend}:${m.id}`, passed, e, v);
        return keepEvidence(base, st, `${m.backend}:${m.id}`, passed);
      });
    } catch (e) {
      // A read that failed for a passing reason keeps the recorded verdict (hold is the read's response).
      if (hold && holdOnTransientRead(hold, st, e, `${LABEL[m.backend]} machine ${m.id} (its gate)`)) {
        return st;
      }
      reportBackendError(diags, e, "re-check the machine", machineIdSite(m.backend, m.id));
      return undefined;
    }
  }

  return {
    typeName: "rackform_acceptance",
    schema: acceptanceSchema,

    configure: slot.configure,

    modifyPlan(req, resp) {
      if (req.state === null || req.plan === null) return;
      const st = req.state as ObjectValue;
      // A degraded node: re-run the gate. (A tainted failed run is replaced by the engine anyway.)
      if (st.passed === false) {
        resp.plan = { ...(req.plan as ObjectValue), passed: UNKNOWN };
        resp.requiresReplace.push(path("passed"));
        return;
      }
      planPolicyEdit(st, req.plan as ObjectValue, resp);
    },

    async create(req, resp) {
      const s = await create(req.context, need(), req.plan, resp.diagnostics, resp.private);
      if (s) resp.state = s;
      // A quarantined node will not rejoin in this run: its drain slot goes to the next node.
      if (resp.diagnostics.hasError()) {
        await need().budget.releaseFailed(
          [getString(req.plan, "machine_id")],
          "failed its acceptance gate",
          req.context.log,
          resp.diagnostics,
        );
      }
    },

    async update(req, resp) {
      // A policy edit the recorded evidence covers was judged at plan, which kept the verdict and evidence: record it
      // as planned, without asking the backend (the next refresh re-reads the gate as always).
      if (!containsUnknown(req.plan)) {
        resp.state = req.plan;
        return;
      }
      // Otherwise an update records timeouts, or thresholds first seen after an import: re-read and judge the gate.
      const ms = timeoutMs(req.plan, "update", DEFAULT_TIMEOUT_MS.update);
      const s = await refresh(req.context, req.state, req.plan, ms, resp.diagnostics, resp.private);
      if (s === null) resp.diagnostics.error("Machine not found", "The machine no longer exists in its backend.");
      else if (s) resp.state = s;
    },

    async read(req, resp) {
      const ms = timeoutMs(req.state, "read", DEFAULT_TIMEOUT_MS.read);
      const s = await refresh(req.context, req.state, req.state, ms, resp.diagnostics, resp.private, resp);
      if (s !== undefined) resp.state = s;
    },

    async delete(req, resp) {
      // The result is forgotten. A quarantine rackform set on a failed gate is rackform's to lift: left behind, it
      // would block the machine's own teardown (Ironic undeploys no node in maintenance) or keep it out of service
      // with no gate to return it. A replacement's create runs the gate again and quarantines anew if it fails.
      const m = parseMachineId(getString(req.state, "machine_id") ?? "");
      if (!m) return;
      const ms = timeoutMs(req.state, "delete", DEFAULT_TIMEOUT_MS.delete);
      try {
        const b = backendFor(need(), m.backend);
        const lifted = await bounded(req.context, ms, "delete", `lifting the quarantine of ${m.id}`, (signal) =>
          b.liftQuarantine(m.id, signal),
        );
        if (lifted) req.context.log.info("lifted rackform's quarantine", { backend: m.backend, id: m.id });
      } catch (e) {
        reportBackendError(resp.diagnostics, e, "lift rackform's quarantine", machineIdSite(m.backend, m.id));
      }
    },

    importState(req, resp) {
      const m = parseMachineId(req.id);
      if (!m) {
        resp.diagnostics.error(
          "Invalid import id for rackform_acceptance",
          `Expected the machine id, e.g. "maas:4y3h7n" or "ironic:<node uuid>"; got ${JSON.stringify(req.id)}.`,
        );
        return;
      }
      const id = `${m.backend}:${m.id}`;
      // No evidence read yet: read fills passed from the latest gate result (false when there is none).
      resp.state = { ...resp.state, id, machine_id: id };
    },
  };
}
