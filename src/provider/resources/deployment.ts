import {
  type AttributePath,
  type Context,
  type Diagnostics,
  getBool,
  getObject,
  getString,
  isKnown,
  isUnknown,
  type ObjectValue,
  path,
  type Resource,
  timeoutMs,
  UNKNOWN,
  type Value,
  valuesEqual,
} from "../../framework/index.js";
import {
  type Backend,
  type BackendName,
  backendFor,
  type HostPower,
  imageLabel,
  type MachineFacts,
  type MachineState,
} from "../backends/index.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import type { ProviderData } from "../config/config.js";
import {
  factsAfterFailure,
  BACKEND_LABEL as LABEL,
  machineIdSite,
  reportBackendError,
} from "../errors/backend-errors.js";
import { providerDataSlot } from "../shared/data-slot.js";
import { holdOnTransientRead } from "../shared/read-hold.js";
import { bounded } from "../shared/timeouts.js";
import { awaitImageUpload, warnIfImageGone } from "./deployment-image.js";
import {
  checkDeploymentConfig,
  deploymentSchema,
  IMAGE_IDENTITY,
  imageSpecOf,
  parseMachineId,
  REPLACE_ATTRIBUTES,
} from "./deployment-schema.js";
import { imageUrlAnswers } from "./image-url.js";

const DEFAULT_TIMEOUT_MS = { create: 60 * 60_000, read: 2 * 60_000, update: 2 * 60_000, delete: 60 * 60_000 };
/** States in which the machine holds no deployment any more: read reports the deployment gone. */
const FREE: ReadonlySet<MachineState> = new Set(["ready", "enrolled", "enrolling", "commissioning"]);

/** The state from the backend's facts; `power` when it was asked, else the value held (a fresh deployment runs). */
function withFacts(v: ObjectValue, backend: BackendName, f: MachineFacts, power?: HostPower): ObjectValue {
  const held = isKnown(v, "power_state") ? getString(v, "power_state") : null;
  const power_state = power ?? held ?? "on";
  return { ...v, id: `${backend}:${f.id}`, status: f.status, deployed_image: f.image ?? "", power_state };
}

/** Power is state: a deployed host that is off, or whose BMC did not answer, is planned back on in place. */
function planPowerOn(state: ObjectValue, plan: ObjectValue): ObjectValue {
  const held = getString(state, "power_state");
  return held === "off" || held === "unknown" ? { ...plan, power_state: "on" } : plan;
}

async function create(ctx: Context, data: ProviderData, plan: ObjectValue, ms: number, diags: Diagnostics) {
  checkDeploymentConfig(plan, diags);
  const m = parseMachineId(getString(plan, "machine_id") ?? "");
  if (!m) {
    diags.error("Invalid machine_id", 'Expected a rackform_machine id such as "maas:4y3h7n".', path("machine_id"));
    return undefined;
  }
  if (diags.hasError()) return undefined;
  // Ironic downloads image.url: a URL that does not answer is reported here, before the backend is asked anything.
  if (
    BACKEND_TRAITS[m.backend].deploysFromUrl &&
    !(await imageUrlAnswers(ctx, data.core, plan, LABEL[m.backend], diags))
  ) {
    return undefined;
  }
  let b: Backend;
  try {
    b = backendFor(data, m.backend);
  } catch (e) {
    reportBackendError(diags, e, "reach the backend", machineIdSite(m.backend, m.id));
    return undefined;
  }
  const image = imageSpecOf(plan);
  const log = ctx.log.with({ resource: "rackform_deployment", backend: m.backend, id: m.id });
  let started = false;
  try {
    return await bounded(ctx, ms, "create", `deploying ${image.name} ${image.version} on ${m.id}`, async (signal) => {
      await awaitImageUpload(ctx, data, b, image, signal);
      started = true;
      const userData = getString(plan, "user_data") ?? undefined;
      const out = await b.deploy(m.id, { image, userData, log, signal });
      if (out.kind === "failed") {
        diags.error(
          "Deployment failed",
          `${LABEL[m.backend]} machine ${m.id} (${out.facts.name}): ${out.message}\nThe machine is kept in ` +
            `${LABEL[m.backend]} with its evidence (status ${JSON.stringify(out.facts.status)}) and the deployment ` +
            "is recorded as tainted: fix the cause, then apply again to release it and deploy afresh.",
        );
      }
      return withFacts(plan, m.backend, out.facts);
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
    return withFacts(plan, m.backend, f);
  }
}

/** The paths of `REPLACE_ATTRIBUTES` and image identity that differ between state and plan. */
function replacePaths(state: ObjectValue, plan: ObjectValue): AttributePath[] {
  const out: AttributePath[] = [];
  for (const a of REPLACE_ATTRIBUTES) {
    // Right after an import only machine_id is known; recording the rest of the config must not reimage.
    if (a !== "machine_id" && getObject(state, "image") === null) continue;
    if (!valuesEqual(plan[a] ?? null, state[a] ?? null)) out.push(path(a));
  }
  const si = getObject(state, "image");
  const pi: Value = plan.image ?? null;
  if (si === null || pi === null || isUnknown(pi)) return out;
  for (const k of IMAGE_IDENTITY) {
    const pv = (pi as ObjectValue)[k] ?? null;
    if (!valuesEqual(pv, si[k] ?? null)) out.push(path("image", k));
  }
  return out;
}

/** Whether the image and the MAAS naming attributes are known and set (so an image label can be computed). */
function wholeImageKnown(v: ObjectValue): boolean {
  if (!isKnown(v, "image") || v.image === null) return false;
  const img = v.image as ObjectValue;
  return IMAGE_IDENTITY.every((k) => isKnown(img, k)) && ["osystem", "distro_series"].every((k) => isKnown(v, k));
}

/** The rackform_deployment resource; one instance per provider process. */
export function deploymentResource(): Resource {
  const slot = providerDataSlot("rackform_deployment");
  const need = slot.get;
  return {
    typeName: "rackform_deployment",
    schema: deploymentSchema,

    configure: slot.configure,

    validateConfig(req, resp) {
      checkDeploymentConfig(req.config, resp.diagnostics);
    },

    modifyPlan(req, resp) {
      if (req.state === null || req.plan === null || isUnknown(req.plan)) return;
      const state = req.state as ObjectValue;
      const plan = planPowerOn(state, req.plan as ObjectValue);
      resp.plan = plan;
      resp.requiresReplace.push(...replacePaths(state, plan));
      // Out-of-band reimage: the backend reports another image than the one this state deployed (or, right after
      // an import, than the configured one). A configured image change is already a replacement above.
      const reported = getString(state, "deployed_image");
      const m = parseMachineId(getString(state, "machine_id") ?? "");
      if (!m || reported === null) return;
      const basis = getObject(state, "image") !== null ? state : plan;
      if (!wholeImageKnown(basis)) return;
      if (reported === imageLabel(m.backend, imageSpecOf(basis))) return;
      resp.plan = {
        ...plan,
        deployed_image: wholeImageKnown(plan) ? imageLabel(m.backend, imageSpecOf(plan)) : UNKNOWN,
      };
      resp.requiresReplace.push(path("deployed_image"));
    },

    async create(req, resp) {
      const ms = timeoutMs(req.plan, "create", DEFAULT_TIMEOUT_MS.create);
      const s = await create(req.context, need(), req.plan, ms, resp.diagnostics);
      if (s) resp.state = s;
      // A node that cannot be reimaged will not rejoin in this run: its drain slot goes to the next node.
      if (resp.diagnostics.hasError()) {
        await need().budget.releaseFailed(
          [getString(req.plan, "machine_id")],
          "failed to deploy",
          req.context.log,
          resp.diagnostics,
        );
      }
    },

    async update(req, resp) {
      // Everything that changes the machine replaces; an update records signature, erase_on_destroy, timeouts (or
      // the config first seen after an import) and refreshes the status.
      const m = parseMachineId(getString(req.state, "machine_id") ?? "")!;
      const ms = timeoutMs(req.plan, "update", DEFAULT_TIMEOUT_MS.update);
      try {
        const b = backendFor(need(), m.backend);
        const log = req.context.log.with({ resource: "rackform_deployment", backend: m.backend, id: m.id });
        const powerOn =
          isKnown(req.plan, "power_state") &&
          getString(req.plan, "power_state") === "on" &&
          getString(req.state, "power_state") !== "on";
        const f = await bounded(
          req.context,
          ms,
          "update",
          `${powerOn ? "powering on" : "reading"} ${m.id}`,
          async (s) => {
            if (powerOn) await b.powerOn(m.id, { log, signal: s });
            return b.read(m.id, s);
          },
        );
        if (!f) {
          resp.diagnostics.error(
            "Machine not found",
            `${LABEL[m.backend]} machine ${m.id} no longer exists; refresh to plan the deployment again.`,
            path("machine_id"),
          );
          return;
        }
        resp.state = withFacts(req.plan, m.backend, f);
      } catch (e) {
        reportBackendError(resp.diagnostics, e, "read the machine", machineIdSite(m.backend, m.id));
      }
    },

    async read(req, resp) {
      const st = req.state;
      const m = parseMachineId(getString(st, "machine_id") ?? "");
      if (!m) {
        resp.diagnostics.error("Invalid machine_id in state", `Got ${JSON.stringify(st.machine_id)}.`);
        return;
      }
      const ms = timeoutMs(st, "read", DEFAULT_TIMEOUT_MS.read);
      try {
        const b = backendFor(need(), m.backend);
        const got = await bounded(req.context, ms, "read", `reading machine ${m.id}`, async (s) => {
          const f = await b.read(m.id, s);
          if (!f || FREE.has(f.state)) return undefined;
          // This plan read the host on through its own BMC moments ago: no need to ask the backend as well.
          const seenOn = need().sightings.seenOn(`${m.backend}:${m.id}`);
          return { f, power: seenOn ? ("on" as const) : await b.powerState(m.id, s) };
        });
        // Credentials refused: the host's power is not known to have changed; the held value stands.
        resp.state = got ? withFacts(st, m.backend, got.f, got.power === "denied" ? undefined : got.power) : null;
        if (got?.power === "denied") {
          resp.diagnostics.warning(
            `BMC refused the backend's credentials: ${got.f.name || m.id}`,
            `${LABEL[m.backend]} could not read the power of machine ${m.id}: its BMC refused the credentials ` +
              `${LABEL[m.backend]} holds (HTTP 401). If the BMC password was rotated, set the new one in the ` +
              "provider's redfish block: rackform_machine's update hands it to the backend.",
          );
        }
        if (got?.f.state === "deployed") await warnIfImageGone(req.context, need(), b, st, got.f, resp.diagnostics);
        if (got?.power === "unknown") {
          resp.diagnostics.warning(
            // The node in the summary: the engines fold warnings of one summary into the first.
            `Host power unknown: ${got.f.name || m.id}`,
            `${LABEL[m.backend]} could not tell the power state of machine ${m.id} (its BMC did not answer): the plan ` +
              "powers it on through the backend, which changes nothing if it runs. Check the BMC and its PDU outlet.",
          );
        }
      } catch (e) {
        if (holdOnTransientRead(resp, st, e, `${LABEL[m.backend]} machine ${m.id} (its deployment)`)) return;
        reportBackendError(resp.diagnostics, e, "read the machine", machineIdSite(m.backend, m.id));
      }
    },

    async delete(req, resp) {
      const st = req.state;
      const m = parseMachineId(getString(st, "machine_id") ?? "");
      if (!m) return;
      need().images.tearingDown();
      const erase = getBool(st, "erase_on_destroy") ?? true;
      const ms = timeoutMs(st, "delete", DEFAULT_TIMEOUT_MS.delete);
      const log = req.context.log.with({ resource: "rackform_deployment", backend: m.backend, id: m.id });
      try {
        const b = backendFor(need(), m.backend);
        const out = await bounded(req.context, ms, "delete", `releasing ${m.id}`, (signal) =>
          b.release(m.id, { erase, log, signal }),
        );
        if (out?.kind === "failed") {
          const named = out.facts.name && out.facts.name !== m.id ? ` (${out.facts.name})` : "";
          resp.diagnostics.error(
            `${BACKEND_TRAITS[m.backend].release} failed: ${out.facts.name || m.id}`,
            `${LABEL[m.backend]} machine ${m.id}${named}: ${out.message}\nThe deployment stays in state; ` +
              (out.fix ??
                `fix the machine in ${LABEL[m.backend]} (its status is ${JSON.stringify(out.facts.status)}), then destroy again.`),
          );
        }
      } catch (e) {
        reportBackendError(resp.diagnostics, e, "release the machine", machineIdSite(m.backend, m.id));
      }
      if (resp.diagnostics.hasError()) need().budget.release([getString(st, "machine_id")], "failed to release", log);
    },

    importState(req, resp) {
      const m = parseMachineId(req.id);
      if (!m) {
        resp.diagnostics.error(
          "Invalid import id for rackform_deployment",
          `Expected the machine id, e.g. "maas:4y3h7n" or "ironic:<node uuid>"; got ${JSON.stringify(req.id)}.`,
        );
        return;
      }
      const id = `${m.backend}:${m.id}`;
      resp.state = { ...resp.state, id, machine_id: id, erase_on_destroy: true };
    },
  };
}
