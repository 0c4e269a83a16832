/**
 * rackform_deployment's apply and read handlers as top-level functions of (typed request, deps): deploy, power on,
 * refresh and release a machine through its backend. Tests call them with fake deps (an in-memory backend).
 */
import {
  type ApplyRequest,
  type Context,
  type Diagnostics,
  isUnknownValue,
  path,
  type TypedRequest,
  timeoutMs,
} from "../../framework/index.js";
import {
  type Backend,
  type BackendName,
  type HostPower,
  imageLabel,
  type MachineFacts,
  type MachineState,
  type OperationOptions,
} from "../backends/index.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import {
  factsAfterFailure,
  BACKEND_LABEL as LABEL,
  machineIdSite,
  reportBackendError,
} from "../errors/backend-errors.js";
import { warnTransientRead } from "../shared/read-hold.js";
import type { OfferedStep } from "../shared/rollout-handover.js";
import { bounded } from "../shared/timeouts.js";
import type { DeploymentDeps } from "./deployment-deps.js";
import { awaitImageUpload, warnIfImageGone } from "./deployment-image.js";
import { PRIVATE_ROLLING_FROM } from "./deployment-plan.js";
import { noteRemedyRan, offerRemedy } from "./deployment-remediation.js";
import {
  checkDeploymentConfig,
  type DeploymentPlan,
  type DeploymentState,
  imageRefOf,
  imageSpecOf,
  knownImageSource,
  parseMachineId,
} from "./deployment-schema.js";

const DEFAULT_TIMEOUT_MS = { create: 60 * 60_000, read: 2 * 60_000, update: 2 * 60_000, delete: 60 * 60_000 };
/** States in which the machine holds no deployment any more: read reports the deployment gone. */
const FREE: ReadonlySet<MachineState> = new Set(["ready", "enrolled", "enrolling", "commissioning"]);

type Op = "create" | "read" | "update" | "delete";
type Machine = { backend: BackendName; id: string };

function ms(v: DeploymentPlan | DeploymentState, op: Op): number {
  return timeoutMs({ timeouts: v.timeouts }, op, DEFAULT_TIMEOUT_MS[op]);
}

/** The state from the backend's facts; `power` when it was asked, else the value held (a fresh deployment runs). */
function withFacts(v: DeploymentPlan, m: Machine, f: MachineFacts, power?: HostPower): DeploymentState {
  const held = isUnknownValue(v.power_state) ? null : v.power_state;
  const eraseOnDestroy = isUnknownValue(v.erase_on_destroy) ? null : v.erase_on_destroy;
  return {
    ...v,
    id: `${m.backend}:${f.id}`,
    // Null right after an import, until the first update records the image.
    image_ref: v.image ? imageRefOf(v.image) : null,
    status: f.status,
    deployed_image: f.image ?? "",
    power_state: power ?? held ?? "on",
    erase_on_destroy: eraseOnDestroy,
    remediation: isUnknownValue(v.remediation) ? null : v.remediation,
  };
}

function logOf(ctx: Context, m: Machine) {
  return ctx.log.with({ resource: "rackform_deployment", backend: m.backend, id: m.id });
}

/** The machine a plan deploys on, its config checked and its image.url answering; undefined after a diagnostic. */
async function deployTarget(r: TypedRequest & { plan: DeploymentPlan }, deps: DeploymentDeps) {
  const { plan, diagnostics: diags } = r;
  checkDeploymentConfig(plan, diags);
  const m = parseMachineId(plan.machine_id ?? "");
  if (!m) {
    diags.error("Invalid machine_id", 'Expected a rackform_machine id such as "maas:4y3h7n".', path("machine_id"));
    return undefined;
  }
  if (diags.hasError()) return undefined;
  // Ironic downloads image.url: a URL that does not answer is reported here, before the backend is asked anything.
  if (BACKEND_TRAITS[m.backend].deploysFromUrl) {
    const check = { context: r.context, diagnostics: diags, image: plan.image, backendLabel: LABEL[m.backend] };
    if (!(await deps.imageUrlAnswers(check))) return undefined;
  }
  try {
    return { m, b: deps.backend(m.backend) };
  } catch (e) {
    reportBackendError(diags, e, "reach the backend", machineIdSite(m.backend, m.id));
    return undefined;
  }
}

/** Deploys the plan's image; the state of a deploy that failed once started (tainted), or undefined. */
async function deploy(r: TypedRequest & { plan: DeploymentPlan }, deps: DeploymentDeps) {
  const target = await deployTarget(r, deps);
  if (!target) return undefined;
  const { m, b } = target;
  const { context: ctx, plan, diagnostics: diags } = r;
  const image = imageSpecOf(plan);
  const log = logOf(ctx, m);
  let started = false;
  try {
    const what = `deploying ${image.name} ${image.version} on ${m.id}`;
    return await bounded(ctx, ms(plan, "create"), "create", what, async (signal) => {
      await awaitImageUpload(ctx, deps, b, image, signal);
      started = true;
      const out = await b.deploy(m.id, { image, userData: plan.user_data ?? undefined, log, signal });
      if (out.kind === "complete" && out.found) await powerOnIfFound(b, m, plan, { log, signal });
      if (out.kind === "failed") {
        diags.error(
          "Deployment failed",
          `${LABEL[m.backend]} machine ${m.id} (${out.facts.name}): ${out.message}\nThe machine is kept in ` +
            `${LABEL[m.backend]} with its evidence (status ${JSON.stringify(out.facts.status)}) and the deployment ` +
            "is recorded as tainted: fix the cause, then apply again to release it and deploy afresh.",
        );
      }
      return withFacts(plan, m, out.facts);
    });
  } catch (e) {
    reportBackendError(diags, e, "deploy the machine", machineIdSite(m.backend, m.id));
    if (!started) return undefined;
    const f = await factsAfterFailure(b, ctx, m.id);
    if (FREE.has(f.state)) return undefined;
    diags.error(
      "Deployment kept as tainted",
      `${LABEL[m.backend]} machine ${m.id} may be deploying; the deployment is recorded as tainted and the next ` +
        "apply releases it and deploys again.",
    );
    return withFacts(plan, m, f);
  }
}

/**
 * A deployment a re-apply found already there (its apply was killed) is recorded with its host on, as a fresh deploy
 * leaves it: a host found off meanwhile (its outlet cut, powered off by hand) is powered on, else its node would never
 * boot, and its cluster member would wait for a registration that cannot come.
 */
async function powerOnIfFound(b: Backend, m: Machine, plan: DeploymentPlan, o: OperationOptions): Promise<void> {
  if (!isUnknownValue(plan.power_state) && plan.power_state !== null && plan.power_state !== "on") return;
  if ((await b.powerState(m.id, o.signal)) !== "off") return;
  o.log.info("the deployment found from an earlier apply has its host off; powering it on", { id: m.id });
  await b.powerOn(m.id, o);
}

/** Deploys the golden image; a node that fails gives its drain slot in the disruption budget to the next node. */
export async function createDeployment(
  r: ApplyRequest & { plan: DeploymentPlan },
  deps: DeploymentDeps,
): Promise<DeploymentState | undefined> {
  const s = await deploy(r, deps);
  // A node that cannot be reimaged will not rejoin in this run: its drain slot goes to the next node.
  if (r.diagnostics.hasError()) {
    await deps.budget.releaseFailed([r.plan.machine_id], "failed to deploy", r.context.log, r.diagnostics);
  }
  return s;
}

/**
 * Everything that changes the machine replaces; an update records signature, erase_on_destroy, timeouts (or the
 * config first seen after an import), powers on a host found off, and refreshes the status.
 */
export async function updateDeployment(
  r: ApplyRequest & { plan: DeploymentPlan; state: DeploymentState },
  deps: DeploymentDeps,
): Promise<DeploymentState | undefined> {
  const { plan, state, diagnostics: diags } = r;
  const m = parseMachineId(state.machine_id ?? "");
  if (!m) {
    diags.error("Invalid machine_id in state", `Got ${JSON.stringify(state.machine_id)}.`);
    return undefined;
  }
  try {
    const b = deps.backend(m.backend);
    const log = logOf(r.context, m);
    const powerOn = !isUnknownValue(plan.power_state) && plan.power_state === "on" && state.power_state !== "on";
    const what = `${powerOn ? "powering on" : "reading"} ${m.id}`;
    const f = await bounded(r.context, ms(plan, "update"), "update", what, async (s) => {
      if (powerOn) await b.powerOn(m.id, { log, signal: s });
      return b.read(m.id, s);
    });
    if (!f) {
      diags.error(
        "Machine not found",
        `${LABEL[m.backend]} machine ${m.id} no longer exists; refresh to plan the deployment again.`,
        path("machine_id"),
      );
      return undefined;
    }
    // A new image that would not deploy is refused here, before the member drains anything: nothing is recorded.
    if (!(await offerIfRolling(r, deps, m, f))) return state;
    // The health ladder's rung: its remedy goes to the node's cluster member (deployment-remediation.ts).
    offerRemedy(r, deps, m, () => offerReimage(r, deps, m));
    return withFacts(plan, m, f);
  } catch (e) {
    reportBackendError(diags, e, "read the machine", machineIdSite(m.backend, m.id));
    return undefined;
  }
}

/**
 * A rolling deployment whose machine runs another image than the planned one offers its reimage to the node's
 * cluster member, and remembers (private data) the image it ran, so the next plan offers it again until it is done.
 * The new image is checked first as a deploy would (config, image.url answering): false after a diagnostic, nothing
 * offered.
 */
async function offerIfRolling(
  r: ApplyRequest & { plan: DeploymentPlan; state: DeploymentState },
  deps: DeploymentDeps,
  m: Machine,
  f: MachineFacts,
): Promise<boolean> {
  const { [PRIVATE_ROLLING_FROM]: _, ...rest } = r.private.value;
  const rolling = r.plan.rolling === true && r.state.rolling === true;
  const source = rolling ? knownImageSource(r.plan) : undefined;
  const running = f.image ?? r.state.deployed_image ?? "";
  if (!source || running === imageLabel(m.backend, imageSpecOf(source))) {
    r.private.set(rest);
    return true;
  }
  if (!(await deployTarget(r, deps))) return false;
  deps.rollouts.offerReimage(`${m.backend}:${m.id}`, offerReimage(r, deps, m));
  r.private.set({ ...rest, [PRIVATE_ROLLING_FROM]: running });
  r.context.log.info("reimage offered to the cluster member", { backend: m.backend, id: m.id, from: running });
  return true;
}

/** The machine's facts and host power, or undefined when it holds no deployment any more. */
async function readMachine(r: TypedRequest & { state: DeploymentState }, deps: DeploymentDeps, m: Machine, b: Backend) {
  return bounded(r.context, ms(r.state, "read"), "read", `reading machine ${m.id}`, async (s) => {
    const f = await b.read(m.id, s);
    if (!f || FREE.has(f.state)) return undefined;
    // This plan read the host on through its own BMC moments ago: no need to ask the backend as well.
    const seenOn = deps.sightings.seenOn(`${m.backend}:${m.id}`);
    return { f, power: seenOn ? ("on" as const) : await b.powerState(m.id, s) };
  });
}

/** A rolling reimage offered before is done once the backend reports the recorded image: the mark goes. */
function forgetDoneReimage(r: ApplyRequest & { state: DeploymentState }, m: Machine, f: MachineFacts): void {
  const { [PRIVATE_ROLLING_FROM]: from, ...rest } = r.private.value;
  const source = from === undefined ? undefined : knownImageSource(r.state);
  if (source && f.image === imageLabel(m.backend, imageSpecOf(source))) r.private.set(rest);
}

/** The warnings of a read whose host power the backend could not tell, or whose BMC refused its credentials. */
function warnPower(diags: Diagnostics, m: Machine, got: { f: MachineFacts; power: HostPower | "denied" }): void {
  if (got.power === "denied") {
    diags.warning(
      `BMC refused the backend's credentials: ${got.f.name || m.id}`,
      `${LABEL[m.backend]} could not read the power of machine ${m.id}: its BMC refused the credentials ` +
        `${LABEL[m.backend]} holds (HTTP 401). If the BMC password was rotated, set the new one in the ` +
        "provider's redfish block: rackform_machine's update hands it to the backend.",
    );
  }
}

/**
 * Refreshes the deployment: gone when the machine is free again, else its status, image and host power; a read that
 * fails for a passing reason keeps the recorded state with a warning.
 */
export async function readDeployment(
  r: ApplyRequest & { state: DeploymentState },
  deps: DeploymentDeps,
): Promise<DeploymentState | null> {
  const { state: st, diagnostics: diags } = r;
  const m = parseMachineId(st.machine_id ?? "");
  if (!m) {
    diags.error("Invalid machine_id in state", `Got ${JSON.stringify(st.machine_id)}.`);
    return st;
  }
  try {
    const b = deps.backend(m.backend);
    const got = await readMachine(r, deps, m, b);
    if (!got) return null;
    // Credentials refused: the host's power is not known to have changed; the held value stands.
    const next = withFacts(st, m, got.f, got.power === "denied" ? undefined : got.power);
    forgetDoneReimage(r, m, got.f);
    await noteRemedyRan(r, b, m.id, r.context.signal);
    warnPower(diags, m, got);
    if (got.f.state === "deployed") {
      await warnIfImageGone({ context: r.context, diagnostics: diags, backend: b, state: st, facts: got.f }, deps);
    }
    if (got.power === "unknown") {
      diags.warning(
        // The node in the summary: the engines fold warnings of one summary into the first.
        `Host power unknown: ${got.f.name || m.id}`,
        `${LABEL[m.backend]} could not tell the power state of machine ${m.id} (its BMC did not answer): the plan ` +
          "powers it on through the backend, which changes nothing if it runs. Check the BMC and its PDU outlet.",
      );
    }
    return next;
  } catch (e) {
    if (!warnTransientRead(diags, e, `${LABEL[m.backend]} machine ${m.id} (its deployment)`)) {
      reportBackendError(diags, e, "read the machine", machineIdSite(m.backend, m.id));
    }
    return st;
  }
}

/** Releases the machine (with disk erase unless erase_on_destroy is false); a failure is a diagnostic. */
async function releaseMachine(r: TypedRequest & { state: DeploymentState }, deps: DeploymentDeps, m: Machine) {
  const { state: st, diagnostics: diags } = r;
  const erase = st.erase_on_destroy ?? true;
  const log = logOf(r.context, m);
  try {
    const b = deps.backend(m.backend);
    const out = await bounded(r.context, ms(st, "delete"), "delete", `releasing ${m.id}`, (signal) =>
      b.release(m.id, { erase, log, signal }),
    );
    if (out?.kind === "failed") {
      const named = out.facts.name && out.facts.name !== m.id ? ` (${out.facts.name})` : "";
      diags.error(
        `${BACKEND_TRAITS[m.backend].release} failed: ${out.facts.name || m.id}`,
        `${LABEL[m.backend]} machine ${m.id}${named}: ${out.message}\nThe deployment stays in state; ` +
          (out.fix ??
            `fix the machine in ${LABEL[m.backend]} (its status is ${JSON.stringify(out.facts.status)}), then destroy again.`),
      );
    }
  } catch (e) {
    reportBackendError(diags, e, "release the machine", machineIdSite(m.backend, m.id));
  }
}

/** Releases the machine (with disk erase unless erase_on_destroy is false); a failure keeps it in state. */
export async function deleteDeployment(r: ApplyRequest & { state: DeploymentState }, deps: DeploymentDeps) {
  const m = parseMachineId(r.state.machine_id ?? "");
  if (!m) return;
  deps.images.tearingDown();
  await releaseMachine(r, deps, m);
  if (r.diagnostics.hasError()) deps.budget.release([r.state.machine_id], "failed to release", logOf(r.context, m));
}

/**
 * The reimage a rolling deployment offers its cluster member (rollout-handover.ts): release as a destroy would, then
 * deploy the planned image as a create would, within the member's operation.
 */
export function offerReimage(
  r: { readonly plan: DeploymentPlan; readonly state: DeploymentState },
  deps: DeploymentDeps,
  m: Machine,
): OfferedStep {
  const image = imageSpecOf(r.plan);
  return {
    what: `reimage ${m.id} with ${image.name} ${image.version}`,
    failure: "failed to deploy",
    async run(step) {
      await releaseMachine({ ...step, state: r.state }, deps, m);
      if (step.diagnostics.hasError()) return "failed";
      const s = await deploy({ ...step, plan: r.plan }, deps);
      return s === undefined || step.diagnostics.hasError() ? "failed" : "done";
    },
  };
}

/** The machine id names the deployment; the next refresh reads the rest. */
export function importDeployment(r: TypedRequest & { id: string }): Partial<DeploymentState> | undefined {
  const m = parseMachineId(r.id);
  if (!m) {
    r.diagnostics.error(
      "Invalid import id for rackform_deployment",
      `Expected the machine id, e.g. "maas:4y3h7n" or "ironic:<node uuid>"; got ${JSON.stringify(r.id)}.`,
    );
    return undefined;
  }
  const id = `${m.backend}:${m.id}`;
  return { id, machine_id: id, erase_on_destroy: true };
}
