/**
 * What rackform_image's handlers use (`ImageDeps`), built from the configured provider by `imageDeps`: MAAS's boot
 * resources and machine list, the image's source (a URL through the provider's HTTP core, or a local file), the
 * process's image work, and the clock and periods of the in-use wait. Tests hand fakes instead.
 */
import { fileImageSource, type ImageSourceInfo, urlImageSource } from "../../clients/images/source.js";
import { type MaasCatalog, MaasClient, type MachineCache } from "../../clients/maas/index.js";
import { BackendNotConfiguredError } from "../backends/index.js";
import type { ProviderData } from "../config/config.js";
import type { ImageWork } from "../shared/image-work.js";

/** What an image needs of MAAS: its boot resources, and the machines (which run it). */
export interface ImageMaas {
  readonly catalog: MaasCatalog;
  readonly machines: Pick<MachineCache, "all">;
}

/** What rackform_image's handlers use. */
export interface ImageDeps {
  /** This process's MAAS; throws BackendNotConfiguredError when the provider block has no maas block. */
  maas(): ImageMaas;
  /** The image at an http(s) URL: its size, any sha256 its server announces, its bytes. */
  urlSource(url: string, signal: AbortSignal): Promise<ImageSourceInfo>;
  /** The image in a local file. */
  fileSource(path: string): Promise<ImageSourceInfo>;
  /** Image uploads and node teardowns under way in this process (image-work.ts). */
  readonly work: Pick<ImageWork, "track" | "teardownSeen">;
  /** The clock of a destroy's wait for machines to stop running the image. */
  now(): number;
  /** How often that wait looks again at the machines running the image. */
  readonly teardownPollMs: number;
  /** How long a destroy that finds machines on the image waits for a teardown of this process to begin. */
  readonly teardownGraceMs: number;
}

const clients = new WeakMap<ProviderData, MaasClient>();

/** This process's MAAS client for images (its own, on the provider's HTTP core). */
export function maasClientOf(data: ProviderData): MaasClient {
  const hit = clients.get(data);
  if (hit) return hit;
  const s = data.backends.maas;
  if (!s) throw new BackendNotConfiguredError("maas");
  const c = new MaasClient({ url: s.url, apiKey: s.apiKey, core: data.core });
  clients.set(data, c);
  return c;
}

/** The deps of the configured provider. */
export function imageDeps(providerData: unknown): ImageDeps {
  const data = providerData as ProviderData;
  return {
    maas: () => maasClientOf(data),
    urlSource: (url, signal) => urlImageSource(data.core, url, signal),
    fileSource: (path) => fileImageSource(path),
    work: data.images,
    now: () => Date.now(),
    teardownPollMs: 2_000,
    teardownGraceMs: 4_000,
  };
}
