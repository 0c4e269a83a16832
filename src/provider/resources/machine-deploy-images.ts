/**
 * rackform_machine's deploy_kernel/deploy_ramdisk: the Ironic deploy (IPA) images rackform wrote into the node's
 * driver_info, from the provider's ironic block. Each plan takes them from the provider configuration, so a change
 * there is an in-place update that writes the new images (nothing replaced). When the block names none, rackform does
 * not manage them: the state's values stand and driver_info is left as it is (the conductor's defaults, or images
 * set by hand).
 */
import { isUnknownValue, UNKNOWN, type Unknowable } from "../../framework/index.js";
import type { MachineFacts } from "../backends/index.js";
import type { DeployImages } from "../config/config.js";

/** The two attributes, in driver_info's names, as a model holds them. */
export interface DeployImageAttrs<T = string | null> {
  readonly deploy_kernel: T;
  readonly deploy_ramdisk: T;
}

/** The attributes as a plan holds them: unknown until the provider configuration is. */
export type PlannedDeployImages = DeployImageAttrs<Unknowable<string | null>>;

const unknownImages: PlannedDeployImages = { deploy_kernel: UNKNOWN, deploy_ramdisk: UNKNOWN };

/**
 * The values a plan records for a machine on `backend` (the state's when the provider names none). `configured` is
 * the provider's ironic deploy images (undefined when it names none).
 */
export function plannedDeployImages(
  configured: DeployImages | undefined,
  backend: Unknowable<string>,
  state: DeployImageAttrs | null,
): PlannedDeployImages {
  const kept = { deploy_kernel: state?.deploy_kernel ?? null, deploy_ramdisk: state?.deploy_ramdisk ?? null };
  if (isUnknownValue(backend)) return unknownImages;
  if (backend !== "ironic") return { deploy_kernel: null, deploy_ramdisk: null };
  if (configured === "unknown") return unknownImages;
  if (!configured) return kept;
  return { deploy_kernel: configured.kernel, deploy_ramdisk: configured.ramdisk };
}

/** True when apply must write the planned images into the node's driver_info. */
export function deployImagesChanged(state: DeployImageAttrs, plan: PlannedDeployImages): boolean {
  const [k, r] = [plan.deploy_kernel, plan.deploy_ramdisk];
  if (k === null || r === null) return false;
  return isUnknownValue(k) || isUnknownValue(r) || k !== state.deploy_kernel || r !== state.deploy_ramdisk;
}

/**
 * What a refresh records: the state's values, or, when none are recorded (an import, or a state from before these
 * attributes), the images the node's driver_info holds now, so the next plan writes them only when they differ.
 */
export function refreshedDeployImages(state: DeployImageAttrs, f: MachineFacts): DeployImageAttrs {
  const [k, r] = [state.deploy_kernel, state.deploy_ramdisk];
  if (k !== null || r !== null) return { deploy_kernel: k, deploy_ramdisk: r };
  return { deploy_kernel: f.deployImages?.kernel ?? null, deploy_ramdisk: f.deployImages?.ramdisk ?? null };
}
