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
import { plannedRemediation } from "./deployment-remediation.js";
import {
  checkDeploymentConfig,
  type DeploymentConfig,
  type DeploymentState,
  type deploymentSchema,
  IMAGE_IDENTITY,
  imageRefOf,
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

/** The private-data key of a rolling reimage offered but not yet seen done: the image the machine ran before. */
export const PRIVATE_ROLLING_FROM = "rolling_from";

/** image_ref from the plan's image: known when its name, version and sha256 are. */
function withImageRef(plan: DeploymentConfig): DeploymentConfig {
  const img = plan.image;
  if (img === null || isUnknownValue(img)) return { ...plan, image_ref: UNKNOWN };
  const { name, version, sha256 } = img;
  if (isUnknownValue(name) || isUnknownValue(version) || isUnknownValue(sha256)) return { ...plan, image_ref: UNKNOWN };
  return { ...plan, image_ref: imageRefOf({ name, version, sha256 }) };
}

/**
 * A rolling deployment whose image change the member carries out: the image paths leave the replacements. Only once
 * rolling is recorded: the members and gates of a rack switched to rolling in the same change as its image have not
 * recorded image_ref yet, so that change still reimages by replacement.
 */
function rollingPaths(state: DeploymentState, plan: DeploymentConfig, paths: AttributePath[]): AttributePath[] {
  if (plan.rolling !== true || state.rolling !== true || recordedImage(state) === null) return paths;
  return paths.filter((p) => !(p.length === 2 && "attr" in p[0] && p[0].attr === "image"));
}

/**
 * The plan: image_ref from the image; on update a host found off is powered on in place; a changed image identity,
 * user data or backend setting replaces (a rolling deployment's image change is recorded in place); an image the
 * backend reports other than the one this state deployed (or, right after an import, than the configured one)
 * replaces too, through deployed_image — unless it is the image a rolling reimage offered in this state is still to
 * replace, which plans the offer again.
 */
export function planDeployment(r: PlanRequest<Schema>): PlanChange<Schema> | undefined {
  const { state } = r;
  if (r.plan === null) return undefined;
  const remediation = plannedRemediation(state, r.plan, r.private);
  if (state === null) return { plan: { ...withImageRef(r.plan), remediation } };
  const plan = { ...withImageRef(planPowerOn(state, r.plan)), remediation };
  const requiresReplace = rollingPaths(state, plan, replacePaths(state, plan));
  const reported = state.deployed_image;
  const m = parseMachineId(state.machine_id ?? "");
  if (!m || reported === null) return { plan, requiresReplace };
  const from = r.private[PRIVATE_ROLLING_FROM];
  // A rolling reimage not done yet (failed, halted, or its apply killed): the deployment offers it again.
  if (plan.rolling === true && state.rolling === true && typeof from === "string" && from === reported) {
    return { plan: { ...plan, deployed_image: UNKNOWN }, requiresReplace };
  }
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
