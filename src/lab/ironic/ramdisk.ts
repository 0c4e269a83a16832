/**
 * The deploy ramdisk a redfish node boots for cleaning and deployment, as Ironic's redfish-virtual-media boot prepares
 * it: the kernel and ramdisk named by driver_info (or `[conductor]` defaults) go through the conductor's master image
 * cache (ironic/drivers/modules/image_cache.py), which asks HttpImageService.show for the image (a HEAD,
 * validate_href) every time and downloads it (a GET) when it does not hold it yet. A failure is Ironic's
 * ImageRefValidationFailed / ImageDownloadFailed text, which the conductor wraps as do_node_deploy's
 * `Failed to prepare to deploy: …` or do_node_clean's `Failed to prepare node <uuid> for cleaning: …`.
 */
import type { ConductorDeployDefaults } from "./conductor-types.js";
import { type ImageFetcher, validateHref } from "./images.js";
import type { NodeRecord } from "./store.js";

/**
 * The deploy kernel/ramdisk a redfish node boots, as Ironic's redfish-virtual-media boot reads them: the node's
 * driver_info when it names either, else both from the conductor's defaults. Absent keys are missing.
 */
export function deployImages(n: NodeRecord, defaults: ConductorDeployDefaults): Record<string, unknown> {
  const own = { deploy_kernel: n.driver_info.deploy_kernel, deploy_ramdisk: n.driver_info.deploy_ramdisk };
  if (own.deploy_kernel || own.deploy_ramdisk) return own;
  return { deploy_kernel: defaults.deployKernel, deploy_ramdisk: defaults.deployRamdisk };
}

/** The conductor's cache of deploy images: what it has downloaded, by URL. */
export class RamdiskCache {
  private readonly held = new Set<string>();

  constructor(private readonly fetcher: ImageFetcher) {}

  /** Fetches the node's kernel then ramdisk; the reason the boot ISO could not be built, or undefined. */
  async prepare(n: NodeRecord, defaults: ConductorDeployDefaults): Promise<string | undefined> {
    const images = deployImages(n, defaults);
    for (const key of ["deploy_kernel", "deploy_ramdisk"]) {
      const href = images[key];
      if (typeof href !== "string" || href === "") continue;
      const bad = await validateHref(this.fetcher, href);
      if (bad) return bad;
      if (this.held.has(href)) continue;
      const r = await this.fetcher.get(href);
      if (r?.kind === "error") return `Failed to download image ${href}, reason: ${r.reason}`;
      if (r?.kind === "status" && r.status !== 200) {
        return `Validation of image href ${href} failed, reason: Got HTTP code ${r.status} instead of 200 in response to GET request.`;
      }
      if (r) this.held.add(href);
    }
    return undefined;
  }
}
