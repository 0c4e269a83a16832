/**
 * rackform_machine's deploy_kernel/deploy_ramdisk: the Ironic deploy (IPA) images rackform wrote into the node's
 * driver_info, from the provider's ironic block. Each plan takes them from the provider configuration, so a change
 * there is an in-place update that writes the new images (nothing replaced). When the block names none, rackform does
 * not manage them: the state's values stand and driver_info is left as it is (the conductor's defaults, or images
 * set by hand).
 */
import { getString, isUnknown, type ObjectValue, UNKNOWN, type Value } from "../../framework/index.js";
import type { MachineFacts } from "../backends/index.js";
import type { ProviderData } from "../config/config.js";

/** The two attributes, in driver_info's names. */
export const KERNEL = "deploy_kernel";
export const RAMDISK = "deploy_ramdisk";

/** The values a plan records for a machine on `backend` (the state's when the provider names none). */
export function plannedDeployImages(
  data: ProviderData,
  backend: Value,
  state: ObjectValue | null,
): Record<string, Value> {
  const kept = { [KERNEL]: state?.[KERNEL] ?? null, [RAMDISK]: state?.[RAMDISK] ?? null };
  if (isUnknown(backend)) return { [KERNEL]: UNKNOWN, [RAMDISK]: UNKNOWN };
  if (backend !== "ironic") return { [KERNEL]: null, [RAMDISK]: null };
  const images = data.backends.ironic?.deployImages;
  if (images === "unknown") return { [KERNEL]: UNKNOWN, [RAMDISK]: UNKNOWN };
  if (!images) return kept;
  return { [KERNEL]: images.kernel, [RAMDISK]: images.ramdisk };
}

/** True when apply must write the planned images into the node's driver_info. */
export function deployImagesChanged(state: ObjectValue, plan: ObjectValue): boolean {
  const [k, r] = [plan[KERNEL] ?? null, plan[RAMDISK] ?? null];
  if (k === null || r === null) return false;
  return isUnknown(k) || isUnknown(r) || k !== getString(state, KERNEL) || r !== getString(state, RAMDISK);
}

/**
 * What a refresh records: the state's values, or, when none are recorded (an import, or a state from before these
 * attributes), the images the node's driver_info holds now, so the next plan writes them only when they differ.
 */
export function refreshedDeployImages(state: ObjectValue, f: MachineFacts): Record<string, Value> {
  const [k, r] = [getString(state, KERNEL), getString(state, RAMDISK)];
  if (k !== null || r !== null) return { [KERNEL]: k, [RAMDISK]: r };
  return { [KERNEL]: f.deployImages?.kernel ?? null, [RAMDISK]: f.deployImages?.ramdisk ?? null };
}
