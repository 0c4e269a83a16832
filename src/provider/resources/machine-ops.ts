/**
 * rackform_machine's handlers besides create (machine-create.ts) as top-level functions of (typed request, deps):
 * plan, read, update, delete, import and the config checks. Tests call them with fake deps.
 */
import {
  type ApplyRequest,
  type Diagnostics,
  type PlanChange,
  type PlanRequest,
  path,
  type TypedRequest,
} from "../../framework/index.js";
import { BACKEND_NAMES, type Backend, type BackendName, type PowerCredentials } from "../backends/index.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import { BACKEND_LABEL as LABEL, reportBackendError } from "../errors/backend-errors.js";
import { checkEndpointScheme, sameEndpoint } from "../shared/endpoint.js";
import { warnTransientRead } from "../shared/read-hold.js";
import { bounded } from "../shared/timeouts.js";
import { credentialsChanged, currentFingerprint, plannedFingerprint, powerCredentials } from "./machine-credentials.js";
import {
  type DeployImageAttrs,
  deployImagesChanged,
  plannedDeployImages,
  refreshedDeployImages,
} from "./machine-deploy-images.js";
import { type MachineDeps, machineMs, machineState, nameSite, orNull } from "./machine-deps.js";
import {
  checkMachineConfig,
  type MachineConfig,
  type MachinePlan,
  type MachineState,
  type machineSchema,
} from "./machine-schema.js";

const IMPORT_ID = new RegExp(`^(${BACKEND_NAMES.join("|")}):(.+)$`);

/** Cross-attribute checks of the config, before the provider is configured. */
export function validateMachine(r: TypedRequest & { config: MachineConfig }): void {
  checkMachineConfig(r.config, r.diagnostics);
}

/** Plans the BMC endpoint's scheme, the deploy images and the credentials' fingerprint from the provider's config. */
export function planMachine(
  r: PlanRequest<typeof machineSchema>,
  deps: MachineDeps,
): PlanChange<typeof machineSchema> | undefined {
  const plan = r.plan;
  if (plan === null) return undefined;
  checkEndpointScheme(plan.bmc_endpoint, deps.allowHttp, path("bmc_endpoint"), r.diagnostics);
  const state = r.state;
  const images = plannedDeployImages(deps.deployImages, plan.backend, state);
  return {
    plan: {
      ...plan,
      ...images,
      ...(state && {
        bmc_credentials_fingerprint: plannedFingerprint(deps.fingerprints, state.bmc_credentials_fingerprint),
      }),
    },
  };
}

/** Refreshes the machine from its backend; null when it was deleted by hand (the next plan creates it again). */
export async function readMachine(
  r: ApplyRequest & { state: MachineState },
  deps: MachineDeps,
): Promise<MachineState | null> {
  const st = r.state;
  const backendName = st.backend as BackendName;
  const id = st.machine_id ?? "";
  try {
    const b = deps.backend(backendName);
    const f = await bounded(r.context, machineMs(st, "read"), "read", `reading machine ${id}`, (s) => b.read(id, s));
    if (!f) return null;
    // No fingerprint yet (an import): the backend is taken to hold the current credentials.
    const fp = st.bmc_credentials_fingerprint ?? currentFingerprint(deps.fingerprints, null) ?? null;
    const next = machineState(st, backendName, {
      facts: f,
      name: f.name,
      ...refreshedDeployImages(st, f),
      bmc_credentials_fingerprint: fp,
    });
    if (st.bmc_endpoint) deps.sightings.link(`${backendName}:${id}`, st.bmc_endpoint);
    return next;
  } catch (e) {
    const name = st.name ?? id;
    if (warnTransientRead(r.diagnostics, e, `${LABEL[backendName]} machine ${id} (${name})`, name)) return st;
    reportBackendError(r.diagnostics, e, "read the machine", nameSite(backendName, name));
    return st;
  }
}

/** True when the plan gives the backend another BMC address than the one it holds (not after an import). */
function bmcMoved(state: MachineState, plan: MachinePlan): boolean {
  const was = state.bmc_endpoint;
  return was !== null && !sameEndpoint(was, plan.bmc_endpoint);
}

function notFound(d: Diagnostics, backend: BackendName, id: string, name: string): void {
  d.error(
    "Machine not found",
    `${LABEL[backend]} machine ${id} (${name}) no longer exists; refresh (terraform apply -refresh-only) or apply to enroll it again.`,
  );
}

/** An update's request, its machine, and the step under way (what a failure names). */
interface Updating {
  readonly r: ApplyRequest & { plan: MachinePlan; state: MachineState };
  readonly deps: MachineDeps;
  readonly backendName: BackendName;
  readonly id: string;
  readonly name: string;
  readonly ms: number;
  step: string;
}

/** Hands the backend the BMC's address and credentials; the fingerprint to record. */
async function sendCredentials(u: Updating, b: Backend, creds: PowerCredentials, moved: boolean) {
  const { r, id, name, backendName } = u;
  u.step = moved ? "hand the backend the BMC's new address" : "hand the backend the new BMC credentials";
  await bounded(r.context, u.ms, "update", `sending ${name}'s BMC address and credentials`, (s) =>
    b.setPowerCredentials(id, creds, s),
  );
  r.context.log.info("handed the backend the BMC's address and credentials", {
    backend: backendName,
    id,
    name,
    bmc: creds.bmcAddress,
  });
  u.step = "read the machine";
  return currentFingerprint(u.deps.fingerprints, r.state.bmc_credentials_fingerprint) ?? null;
}

/** Writes the planned deploy images into the node's driver_info when they changed; the images to record. */
async function sendDeployImages(u: Updating, b: Backend): Promise<DeployImageAttrs> {
  const { r, id, name, backendName } = u;
  const kept = { deploy_kernel: r.state.deploy_kernel, deploy_ramdisk: r.state.deploy_ramdisk };
  if (!deployImagesChanged(r.state, r.plan) || !b.setDeployImages) return kept;
  u.step = "write the deploy kernel and ramdisk into the node's driver_info";
  const set = b.setDeployImages.bind(b);
  await bounded(r.context, u.ms, "update", `writing ${name}'s deploy images`, (s) => set(id, s));
  r.context.log.info("wrote the deploy kernel and ramdisk", { backend: backendName, id, name });
  const images = plannedDeployImages(u.deps.deployImages, backendName, r.state);
  u.step = "read the machine";
  return { deploy_kernel: orNull(images.deploy_kernel), deploy_ramdisk: orNull(images.deploy_ramdisk) };
}

/** The update's backend calls; the new state, or undefined after a diagnostic that leaves the plan. */
async function updateInBackend(u: Updating, b: Backend): Promise<MachineState | undefined> {
  const { r, id, name, backendName } = u;
  let fingerprint = r.state.bmc_credentials_fingerprint;
  const moved = bmcMoved(r.state, r.plan);
  if (credentialsChanged(fingerprint, r.plan.bmc_credentials_fingerprint) || moved) {
    const creds = powerCredentials(u.deps.redfish, r.plan.bmc_endpoint, r.diagnostics);
    if (!creds) return undefined;
    fingerprint = await sendCredentials(u, b, creds, moved);
  }
  const images = await sendDeployImages(u, b);
  const f = await bounded(r.context, u.ms, "update", `reading ${name}`, (s) => b.read(id, s));
  if (!f) {
    notFound(r.diagnostics, backendName, id, name);
    return undefined;
  }
  return machineState(r.plan, backendName, { facts: f, ...images, bmc_credentials_fingerprint: fingerprint });
}

/**
 * The other identity attributes replace the machine, so an update hands the backend rotated BMC credentials or a
 * re-addressed BMC, records the plan (timeouts, or the attributes first seen after an import) and refreshes the
 * status. A backend failure keeps the prior state: what the backend holds is not known to have changed.
 */
export async function updateMachine(
  r: ApplyRequest & { plan: MachinePlan; state: MachineState },
  deps: MachineDeps,
): Promise<MachineState | undefined> {
  const backendName = r.state.backend as BackendName;
  const name = r.plan.name;
  // An address unknown at plan is judged now (the plan judged a known one).
  if (!deps.allowHttp) checkEndpointScheme(r.plan.bmc_endpoint, false, path("bmc_endpoint"), r.diagnostics);
  if (r.diagnostics.hasError()) return r.state;
  const id = r.state.machine_id ?? "";
  const u: Updating = { r, deps, backendName, id, name, ms: machineMs(r.plan, "update"), step: "read the machine" };
  try {
    return await updateInBackend(u, deps.backend(backendName));
  } catch (e) {
    reportBackendError(r.diagnostics, e, u.step, nameSite(backendName, name));
    return r.state;
  }
}

/** Removes the machine from its backend, and frees the drain slot its node held in this run. */
export async function deleteMachine(r: ApplyRequest & { state: MachineState }, deps: MachineDeps): Promise<void> {
  const st = r.state;
  const backendName = st.backend as BackendName;
  const id = st.machine_id ?? "";
  const name = st.name ?? id;
  const log = r.context.log.with({ resource: "rackform_machine", backend: backendName, name, id });
  try {
    const b = deps.backend(backendName);
    await bounded(r.context, machineMs(st, "delete"), "delete", `removing ${name}`, (signal) =>
      b.remove(id, { log, signal }),
    );
  } catch (e) {
    reportBackendError(r.diagnostics, e, "remove the machine", nameSite(backendName, name));
  }
  // The node's chain is torn down (or stuck): it will not rejoin in this run, so a drain slot it held is free.
  const why = r.diagnostics.hasError() ? "could not be removed" : "was removed";
  deps.budget.release([st.id, st.name], why, log);
}

/** `<backend>:<id>` names the backend and the machine's id there. */
export function importMachine(r: TypedRequest & { id: string }): Partial<MachineState> | undefined {
  const m = IMPORT_ID.exec(r.id.trim());
  if (!m) {
    r.diagnostics.error(
      "Invalid import id for rackform_machine",
      `Expected <backend>:<id>, e.g. ${Object.values(BACKEND_TRAITS)
        .map((t) => t.exampleId)
        .join(" or ")}; got ${JSON.stringify(r.id)}.`,
    );
    return undefined;
  }
  return { id: `${m[1]}:${m[2]}`, backend: m[1], machine_id: m[2] };
}
