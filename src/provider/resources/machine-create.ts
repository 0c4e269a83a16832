/**
 * rackform_machine's create: find-before-create (adopting what a killed run left behind), enroll, commission; a
 * failed commissioning keeps the machine with its evidence, recorded as tainted.
 */
import { isTransient } from "../../clients/classify.js";
import { isClientError } from "../../clients/errors.js";
import { abortableSleep } from "../../clients/http/retry.js";
import { type ApplyRequest, type Diagnostics, type Logger, path } from "../../framework/index.js";
import {
  BACKEND_NAMES,
  type Backend,
  type BackendName,
  type EnrollSpec,
  type MachineFacts,
  normalMac,
} from "../backends/index.js";
import { factsAfterFailure, BACKEND_LABEL as LABEL, reportBackendError } from "../errors/backend-errors.js";
import { checkEndpointScheme } from "../shared/endpoint.js";
import { bounded } from "../shared/timeouts.js";
import { currentFingerprint, powerCredentials } from "./machine-credentials.js";
import { plannedDeployImages } from "./machine-deploy-images.js";
import { type MachineDeps, machineMs, machineState, nameSite, orNull } from "./machine-deps.js";
import { checkMachineConfig, type MachinePlan, type MachineState } from "./machine-schema.js";

/** The enroll spec from the plan and the provider's redfish block; undefined after a diagnostic. */
function enrollSpec(deps: MachineDeps, v: MachinePlan, diags: Diagnostics): EnrollSpec | undefined {
  const creds = powerCredentials(deps.redfish, v.bmc_endpoint, diags);
  if (!creds) return undefined;
  return {
    ...creds,
    name: v.name,
    macs: (v.macs ?? []).map((m) => normalMac(String(m))),
    architecture: orNull(v.architecture) ?? "amd64/generic",
    resourceClass: v.resource_class ?? undefined,
  };
}

/** What adoptOrEnroll works with. */
interface Enrolment {
  readonly b: Backend;
  readonly spec: EnrollSpec;
  readonly backendName: BackendName;
  readonly log: Logger;
  readonly signal: AbortSignal;
  readonly diags: Diagnostics;
  readonly recheckMs: number;
}

/** The machine found is not this node's, or not only this node's: a diagnostic, and false. */
function refuseFound(e: Enrolment, found: Awaited<ReturnType<Backend["find"]>>): boolean {
  if (!found) return true;
  const { backendName, diags } = e;
  const name = e.spec.name;
  if (!found.matchedBy.includes("name")) {
    const by = found.matchedBy.map((m) => (m === "mac" ? "a MAC address" : "the BMC address")).join(" and ");
    diags.error(
      "Node already enrolled under another name",
      `${LABEL[backendName]} machine ${found.facts.id} (${JSON.stringify(found.facts.name)}) has ${by} of ` +
        `${JSON.stringify(name)}. Import it (terraform import … ${backendName}:${found.facts.id}) with its name, ` +
        "or remove it from the backend.",
      found.matchedBy.includes("mac") ? path("macs") : path("bmc_endpoint"),
    );
    return false;
  }
  if (found.matchedBy.length === 1 && e.spec.macs.length > 0 && found.facts.macs.length > 0) {
    // Same name, none of the MACs: another piece of hardware holds the name; adopting it would be a guess.
    diags.error(
      "Name already used by other hardware",
      `${LABEL[backendName]} machine ${found.facts.id} is named ${JSON.stringify(name)} but has none of these MACs ` +
        `(it has ${found.facts.macs.join(", ")}). Rename one of them, or correct macs.`,
      path("macs"),
    );
    return false;
  }
  return true;
}

/**
 * Find-before-create: adopts the machine a killed run left behind (same name and a MAC or the BMC), else enrolls it.
 * Refuses, with a diagnostic and no change, when the match is ambiguous (other name, or the name on other hardware).
 * `adopted` says the machine was found, not enrolled by this run.
 */
async function adoptOrEnroll(e: Enrolment, retried = false): Promise<{ id: string; adopted: boolean } | undefined> {
  const { b, spec, log, signal } = e;
  const found = await b.find(spec, signal);
  if (!refuseFound(e, found)) return undefined;
  if (found) {
    log.info("found the node already enrolled; resuming instead of enrolling again", {
      id: found.facts.id,
      status: found.facts.status,
    });
    return { id: found.facts.id, adopted: true };
  }
  log.info("enrolling the node", { bmc: spec.bmcAddress, macs: spec.macs });
  let id: string;
  try {
    id = await b.enroll(spec, signal);
  } catch (err) {
    if (retried || !answerLost(err)) throw err;
    // The backend may have enrolled it (a region busy with a fleet's enrolments answers late): give it time to commit,
    // look again, and enroll once more only if it is still not there. The look-up adopts it like a crashed run's.
    log.warn("the enrolment's answer was lost; looking for the node before enrolling again", {
      error: (err as Error).message,
    });
    await abortableSleep(e.recheckMs, signal);
    return adoptOrEnroll(e, true);
  }
  log.info("enrolled; commissioning", { id });
  return { id, adopted: false };
}

/** A write whose answer never came (timeout, dropped connection, MAAS's outcome unknown) or came as 5xx/429. */
const answerLost = (e: unknown): boolean => isClientError(e, "RACKFORM_ERR_MAAS_OUTCOME_UNKNOWN") || isTransient(e);

/** Commissions; a failure keeps the machine with its evidence and returns its facts, which the engine records tainted. */
async function commissionOrTaint(e: Enrolment, id: string): Promise<MachineFacts> {
  const out = await e.b.commission(id, { log: e.log.with({ id }), signal: e.signal });
  if (out.kind === "failed") {
    const label = LABEL[e.backendName];
    e.diags.error(
      "Commissioning failed",
      `${label} machine ${out.facts.id} (${e.spec.name}): ${out.message}\nThe machine is kept in ` +
        `${label} with its evidence and recorded as tainted: fix the cause, then apply again to ` +
        "replace it (or destroy to remove it).",
    );
  }
  return out.facts;
}

/** The plan's checks again (values unknown at validation, e.g. from another resource), before any backend call. */
function checkedAtApply(
  plan: MachinePlan,
  deps: MachineDeps,
  diags: Diagnostics,
): plan is MachinePlan & {
  backend: BackendName;
} {
  if (!(BACKEND_NAMES as readonly string[]).includes(plan.backend)) {
    diags.error(
      "Unknown backend",
      `backend must be one of ${BACKEND_NAMES.map((n) => JSON.stringify(n)).join(", ")}, got ${JSON.stringify(plan.backend)}.`,
      path("backend"),
    );
    return false;
  }
  checkMachineConfig(plan, diags);
  if (!deps.allowHttp) checkEndpointScheme(plan.bmc_endpoint, false, path("bmc_endpoint"), diags);
  return !diags.hasError();
}

/** Enrolls (or adopts) and commissions the machine; its facts, or undefined after a diagnostic. */
async function enrollAndCommission(
  r: ApplyRequest & { plan: MachinePlan },
  deps: MachineDeps,
  spec: EnrollSpec,
): Promise<MachineFacts | undefined> {
  const { context: ctx, diagnostics: diags, plan } = r;
  const backendName = plan.backend as BackendName;
  const name = plan.name;
  let b: Backend;
  try {
    b = deps.backend(backendName);
  } catch (e) {
    reportBackendError(diags, e, "reach the backend", nameSite(backendName, name));
    return undefined;
  }
  const log = ctx.log.with({ resource: "rackform_machine", backend: backendName, name });
  let id: string | undefined;
  try {
    return await bounded(
      ctx,
      machineMs(plan, "create"),
      "create",
      `enrolling and commissioning ${name}`,
      async (signal) => {
        const e: Enrolment = { b, spec, backendName, log, signal, diags, recheckMs: deps.enrollRecheckMs };
        const got = await adoptOrEnroll(e);
        if (got === undefined) return undefined;
        id = got.id;
        const facts = await commissionOrTaint(e, id);
        // An adopted machine may hold older BMC credentials than the ones the state is about to record a fingerprint
        // of. They are handed over once it has settled: backends refuse updates during a state transition (Ironic 409
        // "can not be updated while a state transition is in progress"), and a killed run leaves it in one.
        if (got.adopted && !diags.hasError()) await b.setPowerCredentials(id, spec, signal);
        return facts;
      },
    );
  } catch (e) {
    reportBackendError(diags, e, "enroll and commission the machine", nameSite(backendName, name));
    if (id === undefined) return undefined;
    const f = await factsAfterFailure(b, ctx, id);
    diags.error(
      "Machine kept as tainted",
      `${LABEL[backendName]} machine ${id} (${name}) was enrolled before the failure; it is recorded as tainted and ` +
        "the next apply replaces it.",
    );
    return f;
  }
}

/**
 * Creates the machine. The backend got the credentials (and the deploy images) at enrollment, or when an adopted
 * machine was given them, so the state records their fingerprint and the planned images.
 */
export async function createMachine(
  r: ApplyRequest & { plan: MachinePlan },
  deps: MachineDeps,
): Promise<MachineState | undefined> {
  const { plan, diagnostics: diags } = r;
  if (!checkedAtApply(plan, deps, diags)) return undefined;
  const spec = enrollSpec(deps, plan, diags);
  if (!spec) return undefined;
  const facts = await enrollAndCommission(r, deps, spec);
  if (facts === undefined) return undefined;
  const images = plannedDeployImages(deps.deployImages, plan.backend, null);
  return machineState(plan, plan.backend, {
    facts,
    deploy_kernel: orNull(images.deploy_kernel),
    deploy_ramdisk: orNull(images.deploy_ramdisk),
    bmc_credentials_fingerprint: currentFingerprint(deps.fingerprints, null) ?? null,
  });
}
