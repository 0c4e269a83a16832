import { isTransient } from "../../clients/classify.js";
import { isClientError } from "../../clients/errors.js";
import { abortableSleep } from "../../clients/http/retry.js";
import {
  type Context,
  type Diagnostics,
  getList,
  getString,
  isUnknown,
  type Logger,
  type ObjectValue,
  path,
  type Resource,
  timeoutMs,
  type Value,
} from "../../framework/index.js";
import {
  BACKEND_NAMES,
  type Backend,
  type BackendName,
  backendFor,
  type EnrollSpec,
  type MachineFacts,
  normalMac,
} from "../backends/index.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import type { ProviderData } from "../config/config.js";
import {
  type BackendSite,
  factsAfterFailure,
  BACKEND_LABEL as LABEL,
  reportBackendError,
} from "../errors/backend-errors.js";
import { providerDataSlot } from "../shared/data-slot.js";
import { checkEndpointScheme, sameEndpoint } from "../shared/endpoint.js";
import { holdOnTransientRead } from "../shared/read-hold.js";
import { bounded } from "../shared/timeouts.js";
import {
  credentialsChanged,
  currentFingerprint,
  FINGERPRINT,
  plannedFingerprint,
  powerCredentials,
} from "./machine-credentials.js";
import {
  deployImagesChanged,
  KERNEL,
  plannedDeployImages,
  RAMDISK,
  refreshedDeployImages,
} from "./machine-deploy-images.js";
import { checkMachineConfig, machineSchema } from "./machine-schema.js";

const DEFAULT_TIMEOUT_MS = { create: 60 * 60_000, read: 2 * 60_000, update: 2 * 60_000, delete: 30 * 60_000 };
const IMPORT_ID = new RegExp(`^(${BACKEND_NAMES.join("|")}):(.+)$`);

/** A machine selected by its name in the backend the `backend` attribute names. */
const nameSite = (backend: BackendName, name: string): BackendSite => ({
  backend,
  what: `machine ${JSON.stringify(name)}`,
  selector: path("backend"),
  object: path("name"),
});

/** The value with the backend's facts; the name stays the planned one unless `name` says otherwise (read, import). */
function withFacts(v: ObjectValue, backend: BackendName, f: MachineFacts, name?: string): ObjectValue {
  return {
    ...v,
    id: `${backend}:${f.id}`,
    machine_id: f.id,
    ...(name !== undefined ? { name } : {}),
    status: f.status,
    state: f.state,
  };
}

/** The enroll spec from the plan and the provider's redfish block; undefined after a diagnostic. */
function enrollSpec(data: ProviderData, v: ObjectValue, diags: Diagnostics): EnrollSpec | undefined {
  const creds = powerCredentials(data, getString(v, "bmc_endpoint")!, diags);
  if (!creds) return undefined;
  return {
    ...creds,
    name: getString(v, "name")!,
    macs: getList(v, "macs").map((m) => normalMac(String(m))),
    architecture: getString(v, "architecture") ?? "amd64/generic",
    resourceClass: getString(v, "resource_class") ?? undefined,
  };
}

/**
 * Find-before-create: adopts the machine a killed run left behind (same name and a MAC or the BMC), else enrolls it.
 * Refuses, with a diagnostic and no change, when the match is ambiguous (other name, or the name on other hardware).
 * `adopted` says the machine was found, not enrolled by this run.
 */
async function adoptOrEnroll(
  b: Backend,
  spec: EnrollSpec,
  backendName: BackendName,
  log: Logger,
  signal: AbortSignal,
  diags: Diagnostics,
  retried = false,
): Promise<{ id: string; adopted: boolean } | undefined> {
  const name = spec.name;
  const found = await b.find(spec, signal);
  if (found && !found.matchedBy.includes("name")) {
    const by = found.matchedBy.map((m) => (m === "mac" ? "a MAC address" : "the BMC address")).join(" and ");
    diags.error(
      "Node already enrolled under another name",
      `${LABEL[backendName]} machine ${found.facts.id} (${JSON.stringify(found.facts.name)}) has ${by} of ` +
        `${JSON.stringify(name)}. Import it (terraform import … ${backendName}:${found.facts.id}) with its name, ` +
        "or remove it from the backend.",
      found.matchedBy.includes("mac") ? path("macs") : path("bmc_endpoint"),
    );
    return undefined;
  }
  if (found && found.matchedBy.length === 1 && spec.macs.length > 0 && found.facts.macs.length > 0) {
    // Same name, none of the MACs: another piece of hardware holds the name; adopting it would be a guess.
    diags.error(
      "Name already used by other hardware",
      `${LABEL[backendName]} machine ${found.facts.id} is named ${JSON.stringify(name)} but has none of these MACs ` +
        `(it has ${found.facts.macs.join(", ")}). Rename one of them, or correct macs.`,
      path("macs"),
    );
    return undefined;
  }
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
  } catch (e) {
    if (retried || !answerLost(e)) throw e;
    // The backend may have enrolled it (a region busy with a fleet's enrolments answers late): give it time to commit,
    // look again, and enroll once more only if it is still not there. The look-up adopts it like a crashed run's.
    log.warn("the enrolment's answer was lost; looking for the node before enrolling again", {
      error: (e as Error).message,
    });
    await abortableSleep(ENROLL_RECHECK_MS, signal);
    return adoptOrEnroll(b, spec, backendName, log, signal, diags, true);
  }
  log.info("enrolled; commissioning", { id });
  return { id, adopted: false };
}

/** How long a lost enrolment is given to land before the look-up that decides whether to enroll again. */
const ENROLL_RECHECK_MS = 5_000;

/** A write whose answer never came (timeout, dropped connection, MAAS's outcome unknown) or came as 5xx/429. */
const answerLost = (e: unknown): boolean => isClientError(e, "RACKFORM_ERR_MAAS_OUTCOME_UNKNOWN") || isTransient(e);

/** Commissions; a failure keeps the machine with its evidence and returns a known state the engine records tainted. */
async function commissionOrTaint(
  b: Backend,
  id: string,
  plan: ObjectValue,
  backendName: BackendName,
  log: Logger,
  signal: AbortSignal,
  diags: Diagnostics,
): Promise<ObjectValue> {
  const name = getString(plan, "name")!;
  const out = await b.commission(id, { log: log.with({ id }), signal });
  if (out.kind === "failed") {
    diags.error(
      "Commissioning failed",
      `${LABEL[backendName]} machine ${out.facts.id} (${name}): ${out.message}\nThe machine is kept in ` +
        `${LABEL[backendName]} with its evidence and recorded as tainted: fix the cause, then apply again to ` +
        "replace it (or destroy to remove it).",
    );
  }
  return withFacts(plan, backendName, out.facts);
}

async function create(ctx: Context, data: ProviderData, plan: ObjectValue, ms: number, diags: Diagnostics) {
  const backendName = getString(plan, "backend") as BackendName;
  const name = getString(plan, "name")!;
  // Values unknown at validation (e.g. from another resource) are checked again here, before any backend call.
  if (!(BACKEND_NAMES as readonly string[]).includes(backendName)) {
    diags.error(
      "Unknown backend",
      `backend must be one of ${BACKEND_NAMES.map((n) => JSON.stringify(n)).join(", ")}, got ${JSON.stringify(backendName)}.`,
      path("backend"),
    );
    return undefined;
  }
  checkMachineConfig(plan, diags);
  if (!data.redfish.allowHttp) checkEndpointScheme(plan.bmc_endpoint ?? null, false, path("bmc_endpoint"), diags);
  if (diags.hasError()) return undefined;
  const spec = enrollSpec(data, plan, diags);
  if (!spec) return undefined;
  let b: Backend;
  try {
    b = backendFor(data, backendName);
  } catch (e) {
    reportBackendError(diags, e, "reach the backend", nameSite(backendName, name));
    return undefined;
  }
  const log = ctx.log.with({ resource: "rackform_machine", backend: backendName, name });
  let id: string | undefined;
  try {
    return await bounded(ctx, ms, "create", `enrolling and commissioning ${name}`, async (signal) => {
      const got = await adoptOrEnroll(b, spec, backendName, log, signal, diags);
      if (got === undefined) return undefined;
      id = got.id;
      const state = await commissionOrTaint(b, id, plan, backendName, log, signal, diags);
      // An adopted machine may hold older BMC credentials than the ones the state is about to record a fingerprint
      // of. They are handed over once it has settled: backends refuse updates during a state transition (Ironic 409
      // "can not be updated while a state transition is in progress"), and a killed run leaves it in one.
      if (got.adopted && !diags.hasError()) await b.setPowerCredentials(id, spec, signal);
      return state;
    });
  } catch (e) {
    reportBackendError(diags, e, "enroll and commission the machine", nameSite(backendName, name));
    if (id === undefined) return undefined;
    const f = await factsAfterFailure(b, ctx, id);
    diags.error(
      "Machine kept as tainted",
      `${LABEL[backendName]} machine ${id} (${name}) was enrolled before the failure; it is recorded as tainted and ` +
        "the next apply replaces it.",
    );
    return withFacts(plan, backendName, f);
  }
}

/** The rackform_machine resource; one instance per provider process. */
export function machineResource(): Resource {
  const slot = providerDataSlot("rackform_machine");
  const need = slot.get;
  return {
    typeName: "rackform_machine",
    schema: machineSchema,

    configure: slot.configure,

    validateConfig(req, resp) {
      checkMachineConfig(req.config, resp.diagnostics);
    },

    modifyPlan(req, resp) {
      if (req.plan === null || isUnknown(req.plan)) return;
      const plan = req.plan as ObjectValue;
      const allowHttp = need().redfish.allowHttp;
      checkEndpointScheme(plan.bmc_endpoint ?? null, allowHttp, path("bmc_endpoint"), resp.diagnostics);
      const state = req.state as ObjectValue | null;
      const images = plannedDeployImages(need(), plan.backend ?? null, state);
      resp.plan = { ...plan, ...images, ...(state && { [FINGERPRINT]: plannedFingerprint(need(), state) }) };
    },

    async create(req, resp) {
      const ms = timeoutMs(req.plan, "create", DEFAULT_TIMEOUT_MS.create);
      const data = need();
      const s = await create(req.context, data, req.plan, ms, resp.diagnostics);
      // The backend got the credentials (and the deploy images) at enrollment, or when an adopted machine was given them.
      if (s) {
        const images = plannedDeployImages(data, s.backend ?? null, null);
        resp.state = { ...s, ...images, [FINGERPRINT]: currentFingerprint(data, null) ?? null };
      }
    },

    async update(req, resp) {
      // The other identity attributes replace the machine, so an update hands the backend rotated BMC credentials or
      // a re-addressed BMC, records the plan (timeouts, or the attributes first seen after an import) and refreshes
      // the status.
      const backendName = getString(req.state, "backend") as BackendName;
      const id = getString(req.state, "machine_id")!;
      const name = getString(req.plan, "name")!;
      const ms = timeoutMs(req.plan, "update", DEFAULT_TIMEOUT_MS.update);
      const data = need();
      const recorded = getString(req.state, FINGERPRINT);
      let fingerprint = recorded;
      let step = "read the machine";
      // An address unknown at plan is judged now (the plan judged a known one).
      if (!data.redfish.allowHttp)
        checkEndpointScheme(req.plan.bmc_endpoint ?? null, false, path("bmc_endpoint"), resp.diagnostics);
      if (resp.diagnostics.hasError()) {
        resp.state = req.state;
        return;
      }
      try {
        const b = backendFor(data, backendName);
        const moved = bmcMoved(req.state, req.plan);
        if (credentialsChanged(req.state, req.plan) || moved) {
          const creds = powerCredentials(data, getString(req.plan, "bmc_endpoint")!, resp.diagnostics);
          if (!creds) return;
          step = moved ? "hand the backend the BMC's new address" : "hand the backend the new BMC credentials";
          await bounded(req.context, ms, "update", `sending ${name}'s BMC address and credentials`, (s) =>
            b.setPowerCredentials(id, creds, s),
          );
          req.context.log.info("handed the backend the BMC's address and credentials", {
            backend: backendName,
            id,
            name,
            bmc: creds.bmcAddress,
          });
          fingerprint = currentFingerprint(data, recorded) ?? null;
          step = "read the machine";
        }
        let images: Record<string, Value> = {
          [KERNEL]: req.state[KERNEL] ?? null,
          [RAMDISK]: req.state[RAMDISK] ?? null,
        };
        if (deployImagesChanged(req.state, req.plan) && b.setDeployImages) {
          step = "write the deploy kernel and ramdisk into the node's driver_info";
          const set = b.setDeployImages.bind(b);
          await bounded(req.context, ms, "update", `writing ${name}'s deploy images`, (s) => set(id, s));
          req.context.log.info("wrote the deploy kernel and ramdisk", { backend: backendName, id, name });
          images = plannedDeployImages(data, backendName, req.state);
          step = "read the machine";
        }
        const f = await bounded(req.context, ms, "update", `reading ${name}`, (s) => b.read(id, s));
        if (!f) {
          notFound(resp.diagnostics, backendName, id, name);
          return;
        }
        resp.state = { ...withFacts(req.plan, backendName, f), ...images, [FINGERPRINT]: fingerprint };
      } catch (e) {
        reportBackendError(resp.diagnostics, e, step, nameSite(backendName, name));
        // What the backend holds is not known to have changed: the next plan tries again.
        resp.state = req.state;
      }
    },

    async read(req, resp) {
      const st = req.state;
      const backendName = getString(st, "backend") as BackendName;
      const id = getString(st, "machine_id")!;
      const ms = timeoutMs(st, "read", DEFAULT_TIMEOUT_MS.read);
      try {
        const b = backendFor(need(), backendName);
        const f = await bounded(req.context, ms, "read", `reading machine ${id}`, (s) => b.read(id, s));
        // Deleted by hand: null makes the next plan create it again. No fingerprint yet (an import): the backend is
        // taken to hold the current credentials.
        const fp = getString(st, FINGERPRINT) ?? currentFingerprint(need(), null) ?? null;
        resp.state = f
          ? { ...withFacts(st, backendName, f, f.name), ...refreshedDeployImages(st, f), [FINGERPRINT]: fp }
          : null;
        const bmc = getString(st, "bmc_endpoint");
        if (f && bmc) need().sightings.link(`${backendName}:${id}`, bmc);
      } catch (e) {
        const name = getString(st, "name") ?? id;
        if (holdOnTransientRead(resp, st, e, `${LABEL[backendName]} machine ${id} (${name})`, name)) return;
        reportBackendError(resp.diagnostics, e, "read the machine", nameSite(backendName, name));
      }
    },

    async delete(req, resp) {
      const st = req.state;
      const backendName = getString(st, "backend") as BackendName;
      const id = getString(st, "machine_id")!;
      const name = getString(st, "name") ?? id;
      const ms = timeoutMs(st, "delete", DEFAULT_TIMEOUT_MS.delete);
      const log = req.context.log.with({ resource: "rackform_machine", backend: backendName, name, id });
      try {
        const b = backendFor(need(), backendName);
        await bounded(req.context, ms, "delete", `removing ${name}`, (signal) => b.remove(id, { log, signal }));
      } catch (e) {
        reportBackendError(resp.diagnostics, e, "remove the machine", nameSite(backendName, name));
      }
      // The node's chain is torn down (or stuck): it will not rejoin in this run, so a drain slot it held is free.
      const why = resp.diagnostics.hasError() ? "could not be removed" : "was removed";
      need().budget.release([getString(st, "id"), getString(st, "name")], why, log);
    },

    importState(req, resp) {
      const m = IMPORT_ID.exec(req.id.trim());
      if (!m) {
        resp.diagnostics.error(
          "Invalid import id for rackform_machine",
          `Expected <backend>:<id>, e.g. ${Object.values(BACKEND_TRAITS)
            .map((t) => t.exampleId)
            .join(" or ")}; got ${JSON.stringify(req.id)}.`,
        );
        return;
      }
      resp.state = { ...resp.state, id: `${m[1]}:${m[2]}`, backend: m[1], machine_id: m[2] };
    },
  };
}

/** True when the plan gives the backend another BMC address than the one it holds (not after an import). */
function bmcMoved(state: ObjectValue, plan: ObjectValue): boolean {
  const was = getString(state, "bmc_endpoint");
  return was !== null && !sameEndpoint(was, plan.bmc_endpoint ?? null);
}

function notFound(d: Diagnostics, backend: BackendName, id: string, name: string): void {
  d.error(
    "Machine not found",
    `${LABEL[backend]} machine ${id} (${name}) no longer exists; refresh (terraform apply -refresh-only) or apply to enroll it again.`,
  );
}
