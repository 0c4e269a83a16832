/**
 * rackform_deployment at plan: the config checks (before any backend call), a host found off planned back on in place,
 * and the replacements — a changed image, user data or MAAS/Ironic setting, or an image changed out of band.
 */
import {
  type AttributePath,
  isUnknownValue,
  type PlanChange,
  type PlanRequest,
  path,
  type TypedRequest,
  UNKNOWN,
  valuesEqual,
} from "../../framework/index.js";
import { imageLabel } from "../backends/index.js";
import {
  checkDeploymentConfig,
  type DeploymentConfig,
  type DeploymentState,
  type deploymentSchema,
  IMAGE_IDENTITY,
  imageSpecOf,
  knownImageSource,
  parseMachineId,
  REPLACE_ATTRIBUTES,
  recordedImage,
} from "./deployment-schema.js";

type Schema = typeof deploymentSchema;

/** Power is state: a deployed host that is off, or whose BMC did not answer, is planned back on in place. */
function planPowerOn(state: DeploymentState, plan: DeploymentConfig): DeploymentConfig {
  const held = state.power_state;
  return held === "off" || held === "unknown" ? { ...plan, power_state: "on" } : plan;
}

/** The paths of `REPLACE_ATTRIBUTES` and image identity that differ between state and plan. */
function replacePaths(state: DeploymentState, plan: DeploymentConfig): AttributePath[] {
  const out: AttributePath[] = [];
  const si = recordedImage(state);
  for (const a of REPLACE_ATTRIBUTES) {
    // Right after an import only machine_id is known; recording the rest of the config must not reimage.
    if (a !== "machine_id" && si === null) continue;
    if (!valuesEqual(plan[a] ?? null, state[a] ?? null)) out.push(path(a));
  }
  const pi = plan.image ?? null;
  if (si === null || pi === null || isUnknownValue(pi)) return out;
  for (const k of IMAGE_IDENTITY) {
    if (!valuesEqual(pi[k] ?? null, si[k] ?? null)) out.push(path("image", k));
  }
  return out;
}

/**
 * The plan of an update: a host found off is powered on in place; a changed image identity, user data or backend
 * setting replaces; an image the backend reports other than the one this state deployed (or, right after an import,
 * than the configured one) replaces too, through deployed_image.
 */
export function planDeployment(r: PlanRequest<Schema>): PlanChange<Schema> | undefined {
  const { state } = r;
  if (state === null || r.plan === null) return undefined;
  const plan = planPowerOn(state, r.plan);
  const requiresReplace = replacePaths(state, plan);
  // Out-of-band reimage: the backend reports another image than the one this state deployed (or, right after
  // an import, than the configured one). A configured image change is already a replacement above.
  const reported = state.deployed_image;
  const m = parseMachineId(state.machine_id ?? "");
  if (!m || reported === null) return { plan, requiresReplace };
  const basis = knownImageSource(recordedImage(state) !== null ? state : plan);
  if (!basis) return { plan, requiresReplace };
  if (reported === imageLabel(m.backend, imageSpecOf(basis))) return { plan, requiresReplace };
  const planned = knownImageSource(plan);
  return {
    plan: { ...plan, deployed_image: planned ? imageLabel(m.backend, imageSpecOf(planned)) : UNKNOWN },
    requiresReplace: [...requiresReplace, path("deployed_image")],
  };
}

/** The cross-attribute config checks, before the provider is configured. */
export function validateDeployment(r: TypedRequest & { config: DeploymentConfig }): void {
  checkDeploymentConfig(r.config, r.diagnostics);
}
