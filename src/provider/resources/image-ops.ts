/**
 * What rackform_image does in each backend: MAAS (find, upload or resume, verify, in-use check, delete) and Ironic
 * (the URL's HEAD: size and any announced sha256). Throws client errors; image.ts turns them into diagnostics.
 */
import { isClientError } from "../../clients/errors.js";
import { fileImageSource, type ImageSourceInfo, urlImageSource } from "../../clients/images/source.js";
import { ensureUploadedImage, findUploadedImage, type UploadOutcome } from "../../clients/maas/image-upload.js";
import { MAAS_STATUS, MaasClient } from "../../clients/maas/index.js";
import { BackendNotConfiguredError, withoutUserinfo } from "../backends/index.js";
import type { ProviderData } from "../config/config.js";
import { maasImageName } from "./image-schema.js";

/** What the backend holds of an image, as state records it. */
export interface ImageFound {
  /** sha256 of the complete image where the backend needs it; "" when missing or incomplete. */
  readonly verifiedSha256: string;
  readonly sizeBytes: number | null;
}

/** The image's configuration, from a wholly known plan or state. */
export interface ImageConfig {
  readonly backend: "maas" | "ironic";
  readonly name: string;
  readonly version: string;
  readonly sha256: string;
  readonly url: string | null;
  readonly sourceFile: string | null;
  readonly architecture: string;
  readonly filetype: string;
}

const clients = new WeakMap<ProviderData, MaasClient>();

/** This process's MAAS client (its own, on the provider's HTTP core). */
export function maasClientOf(data: ProviderData): MaasClient {
  const hit = clients.get(data);
  if (hit) return hit;
  const s = data.backends.maas;
  if (!s) throw new BackendNotConfiguredError("maas");
  const c = new MaasClient({ url: s.url, apiKey: s.apiKey, core: data.core });
  clients.set(data, c);
  return c;
}

/** A checksum the image server announces that is not the configured one. */
export class ImageChecksumMismatch extends Error {
  override readonly name = "ImageChecksumMismatch";
  constructor(
    readonly where: string,
    readonly announced: string,
  ) {
    super(`${where} announces sha256 ${announced}`);
  }
}

function source(data: ProviderData, c: ImageConfig, signal: AbortSignal): Promise<ImageSourceInfo> {
  return c.url !== null ? urlImageSource(data.core, c.url, signal) : fileImageSource(c.sourceFile!);
}

/** MAAS: uploads (or resumes, or finds present) the image; fails early when the source announces other bytes. */
export async function ensureInMaas(
  data: ProviderData,
  c: ImageConfig,
  signal: AbortSignal,
  log: (msg: string, fields: Record<string, unknown>) => void,
): Promise<UploadOutcome> {
  const catalog = maasClientOf(data).catalog;
  const spec = {
    name: maasImageName(c.name, c.version),
    title: `${c.name} ${c.version}`,
    architecture: c.architecture,
    filetype: c.filetype,
    sha256: c.sha256,
  };
  try {
    return await ensureUploadedImage(
      catalog,
      spec,
      async () => {
        const src = await source(data, c, signal);
        if (src.sha256 && src.sha256 !== c.sha256) {
          throw new ImageChecksumMismatch(c.url ? withoutUserinfo(c.url) : c.sourceFile!, src.sha256);
        }
        return src;
      },
      { signal, log },
    );
  } catch (e) {
    // A checksum refusal leaves an unusable file behind: delete it, so the next apply starts clean.
    if (isClientError(e, "RACKFORM_ERR_MAAS_CHECKSUM")) {
      const left = await findUploadedImage(catalog, spec.name, c.architecture, signal).catch(() => undefined);
      if (left && !left.file?.complete) await catalog.deleteBootResource(left.id).catch(() => undefined);
    }
    throw e;
  }
}

/** MAAS: what the region holds of the image now. */
export async function readFromMaas(data: ProviderData, c: ImageConfig, signal: AbortSignal): Promise<ImageFound> {
  const found = await findUploadedImage(
    maasClientOf(data).catalog,
    maasImageName(c.name, c.version),
    c.architecture,
    signal,
  );
  const f = found?.file;
  if (!f?.complete) return { verifiedSha256: "", sizeBytes: f?.size ?? null };
  return { verifiedSha256: f.sha256, sizeBytes: f.size };
}

/** MAAS: host names of the machines deployed (or deploying) with custom/<name>-<version>. */
export async function machinesUsing(data: ProviderData, name: string, version: string): Promise<string[]> {
  const series = maasImageName(name, version).slice("custom/".length);
  const inUse = new Set<number>([MAAS_STATUS.DEPLOYED, MAAS_STATUS.DEPLOYING]);
  const list = await maasClientOf(data).machines.all({ fresh: true });
  return list
    .filter((m) => inUse.has(m.status) && m.osystem === "custom" && m.distroSeries === series)
    .map((m) => m.hostname || m.systemId);
}

/** MAAS: deletes the boot resource when it still holds `sha256` (one replaced since is someone else's). */
export async function deleteFromMaas(
  data: ProviderData,
  c: Pick<ImageConfig, "name" | "version" | "architecture" | "sha256">,
  signal: AbortSignal,
): Promise<boolean> {
  const catalog = maasClientOf(data).catalog;
  const found = await findUploadedImage(catalog, maasImageName(c.name, c.version), c.architecture, signal);
  if (!found || (found.file && found.file.sha256 !== c.sha256)) return false;
  await catalog.deleteBootResource(found.id);
  return true;
}

/** Ironic: the URL answers with a size (and the sha256, when it announces one); throws otherwise. */
export async function checkForIronic(data: ProviderData, c: ImageConfig, signal: AbortSignal): Promise<ImageFound> {
  const src = await urlImageSource(data.core, c.url!, signal);
  if (src.sha256 && src.sha256 !== c.sha256) throw new ImageChecksumMismatch(withoutUserinfo(c.url!), src.sha256);
  return { verifiedSha256: c.sha256, sizeBytes: src.size };
}
