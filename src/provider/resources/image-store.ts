/**
 * What rackform_image does in each backend: MAAS (find, upload or resume, verify, in-use check, delete) and Ironic
 * (the URL's HEAD: size and any announced sha256). Throws client errors; image-ops.ts turns them into diagnostics.
 */
import { isClientError } from "../../clients/errors.js";
import type { ImageSourceInfo } from "../../clients/images/source.js";
import { ensureUploadedImage, findUploadedImage, type UploadOutcome } from "../../clients/maas/image-upload.js";
import { MAAS_STATUS } from "../../clients/maas/index.js";
import { withoutUserinfo } from "../backends/index.js";
import type { ImageDeps } from "./image-deps.js";
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

/** Where the image's bytes come from (url, else source_file) and how a message names it. */
function sourceOf(c: ImageConfig): { url: string } | { file: string } {
  return c.url !== null ? { url: c.url } : { file: c.sourceFile ?? "" };
}

function source(deps: ImageDeps, c: ImageConfig, signal: AbortSignal): Promise<ImageSourceInfo> {
  const s = sourceOf(c);
  return "url" in s ? deps.urlSource(s.url, signal) : deps.fileSource(s.file);
}

/** What a message calls the image's source. */
function shownSource(c: ImageConfig): string {
  return c.url ? withoutUserinfo(c.url) : (c.sourceFile ?? "");
}

/** What ensureInMaas needs besides the image: deps, the bound's signal, progress lines. */
export interface MaasEnsure {
  readonly deps: ImageDeps;
  readonly signal: AbortSignal;
  readonly log: (msg: string, fields: Record<string, unknown>) => void;
}

/** MAAS: uploads (or resumes, or finds present) the image; fails early when the source announces other bytes. */
export async function ensureInMaas(o: MaasEnsure, c: ImageConfig): Promise<UploadOutcome> {
  const { deps, signal, log } = o;
  const catalog = deps.maas().catalog;
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
        const src = await source(deps, c, signal);
        if (src.sha256 && src.sha256 !== c.sha256) throw new ImageChecksumMismatch(shownSource(c), src.sha256);
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
export async function readFromMaas(deps: ImageDeps, c: ImageConfig, signal: AbortSignal): Promise<ImageFound> {
  const found = await findUploadedImage(deps.maas().catalog, maasImageName(c.name, c.version), c.architecture, signal);
  const f = found?.file;
  if (!f?.complete) return { verifiedSha256: "", sizeBytes: f?.size ?? null };
  return { verifiedSha256: f.sha256, sizeBytes: f.size };
}

/** MAAS: host names of the machines deployed (or deploying) with custom/<name>-<version>. */
export async function machinesUsing(deps: ImageDeps, name: string, version: string): Promise<string[]> {
  const series = maasImageName(name, version).slice("custom/".length);
  const inUse = new Set<number>([MAAS_STATUS.DEPLOYED, MAAS_STATUS.DEPLOYING]);
  const list = await deps.maas().machines.all({ fresh: true });
  return list
    .filter((m) => inUse.has(m.status) && m.osystem === "custom" && m.distroSeries === series)
    .map((m) => m.hostname || m.systemId);
}

/** MAAS: deletes the boot resource when it still holds `sha256` (one replaced since is someone else's). */
export async function deleteFromMaas(
  deps: ImageDeps,
  c: Pick<ImageConfig, "name" | "version" | "architecture" | "sha256">,
  signal: AbortSignal,
): Promise<boolean> {
  const catalog = deps.maas().catalog;
  const found = await findUploadedImage(catalog, maasImageName(c.name, c.version), c.architecture, signal);
  if (!found || (found.file && found.file.sha256 !== c.sha256)) return false;
  await catalog.deleteBootResource(found.id);
  return true;
}

/** Ironic: the URL answers with a size (and the sha256, when it announces one); throws otherwise. */
export async function checkForIronic(deps: ImageDeps, c: ImageConfig, signal: AbortSignal): Promise<ImageFound> {
  const url = c.url ?? "";
  const src = await deps.urlSource(url, signal);
  if (src.sha256 && src.sha256 !== c.sha256) throw new ImageChecksumMismatch(withoutUserinfo(url), src.sha256);
  return { verifiedSha256: c.sha256, sizeBytes: src.size };
}
