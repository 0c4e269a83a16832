/**
 * rackform_image's handlers as top-level functions of (typed request, deps): the image put in place (create, update),
 * re-checked (read), deleted unless MAAS machines run it (delete), planned and imported. Tests call them with fake
 * deps. The backend work itself is in image-store.ts.
 */
import { isClientError } from "../../clients/errors.js";
import { abortableSleep } from "../../clients/http/retry.js";
import {
  type ApplyRequest,
  type Context,
  type Diagnostics,
  isUnknownValue,
  type PlanChange,
  type PlanRequest,
  path,
  type TypedRequest,
  timeoutMs,
  UNKNOWN,
  type Unknowable,
} from "../../framework/index.js";
import { withoutUserinfo } from "../backends/index.js";
import { addClientError } from "../errors/client-errors.js";
import { bounded } from "../shared/timeouts.js";
import type { ImageDeps } from "./image-deps.js";
import {
  checkImageConfig,
  IMAGE_ID,
  type ImageConfigModel,
  type ImagePlan,
  type ImageState,
  type imageSchema,
  maasImageName,
} from "./image-schema.js";
import {
  checkForIronic,
  deleteFromMaas,
  ensureInMaas,
  ImageChecksumMismatch,
  type ImageConfig,
  type ImageFound,
  machinesUsing,
  readFromMaas,
} from "./image-store.js";

/** Codes the diagnostics carry (docs/errors.md). */
const IMAGE_IN_USE = "RACKFORM_ERR_IMAGE_IN_USE";
const IMAGE_CHECKSUM = "RACKFORM_ERR_IMAGE_CHECKSUM";

const DEFAULT_TIMEOUT_MS = { create: 60 * 60_000, read: 2 * 60_000, update: 60 * 60_000, delete: 5 * 60_000 };

type Op = keyof typeof DEFAULT_TIMEOUT_MS;

function ms(m: ImagePlan | ImageState, op: Op): number {
  return timeoutMs({ timeouts: m.timeouts }, op, DEFAULT_TIMEOUT_MS[op]);
}

/** A value known at apply (a default), or the fallback. */
const known = <T>(v: Unknowable<T | null>, fallback: T): T => (isUnknownValue(v) || v === null ? fallback : v);

function configOf(v: ImagePlan | ImageState): ImageConfig {
  return {
    backend: v.backend as "maas" | "ironic",
    name: v.name,
    version: v.version,
    sha256: (v.sha256 ?? "").toLowerCase(),
    url: v.url,
    sourceFile: v.source_file,
    architecture: known(v.architecture, "amd64/generic"),
    filetype: known(v.filetype, "tgz"),
  };
}

/** The image's id, as deployments name it to wait for its upload. */
export const imageId = (c: Pick<ImageConfig, "backend" | "name" | "version">) => `${c.backend}:${c.name}/${c.version}`;

function backendImage(c: Pick<ImageConfig, "backend" | "name" | "version" | "url">): string {
  return c.backend === "maas" ? maasImageName(c.name, c.version) : withoutUserinfo(c.url ?? "");
}

function label(c: ImageConfig): string {
  return c.backend === "maas"
    ? `MAAS boot resource ${maasImageName(c.name, c.version)}`
    : `image ${c.name} ${c.version}`;
}

/** One diagnostic for a failed ensure or check, on the attribute to fix. */
function report(diags: Diagnostics, e: unknown, c: ImageConfig, action: string): void {
  const srcPath = path(c.url !== null ? "url" : "source_file");
  if (e instanceof ImageChecksumMismatch) {
    diags.error(
      "Image checksum does not match",
      `${e.where} announces sha256 ${e.announced}, not the configured ${c.sha256}; nothing was uploaded. Correct ` +
        `sha256, or publish the image it names. (${IMAGE_CHECKSUM})`,
      path("sha256"),
    );
  } else if (isClientError(e, "RACKFORM_ERR_MAAS_CHECKSUM")) {
    diags.error(
      "Image checksum does not match",
      `MAAS refused ${maasImageName(c.name, c.version)} when its last byte arrived: the bytes from ` +
        `${c.url !== null ? withoutUserinfo(c.url) : c.sourceFile} do not hash to ${c.sha256}. The incomplete boot ` +
        `resource was deleted. Correct sha256, or publish the image it names. (${IMAGE_CHECKSUM})`,
      path("sha256"),
    );
  } else {
    addClientError(diags, e, action, {
      what: label(c),
      notFoundPath: srcPath,
      endpointPath: c.backend === "ironic" ? path("url") : undefined,
      endpointSetting: c.backend === "maas" ? "maas.url" : undefined,
    });
  }
}

/**
 * The MAAS machines that still run the image once this process's teardown of nodes (if any) has released them: while
 * nodes are being torn down in this apply (a destroy of the rack: nothing orders the image after its deployments,
 * image-work.ts) it looks again until none runs it or the caller's bound ends; otherwise it answers at once.
 */
async function usersAfterTeardown(deps: ImageDeps, c: ImageConfig, signal: AbortSignal): Promise<string[]> {
  const started = deps.now();
  for (;;) {
    const users = await machinesUsing(deps, c.name, c.version);
    const waiting = deps.work.teardownSeen || deps.now() - started < deps.teardownGraceMs;
    if (users.length === 0 || !waiting) return users;
    await abortableSleep(deps.teardownPollMs, signal);
  }
}

function stateOf(v: ImagePlan | ImageState, c: ImageConfig, f: ImageFound): ImageState {
  return {
    id: imageId(c),
    backend: v.backend,
    name: v.name,
    version: v.version,
    sha256: v.sha256,
    url: v.url,
    source_file: v.source_file,
    architecture: c.architecture,
    filetype: c.filetype,
    backend_image: backendImage(c),
    size_bytes: f.sizeBytes,
    verified_sha256: f.verifiedSha256,
    timeouts: v.timeouts,
  };
}

/** Puts the image in place (MAAS) or checks it (Ironic), as deployments of this process wait for it. */
function putInPlace(ctx: Context, deps: ImageDeps, c: ImageConfig, bound: { ms: number; op: string }) {
  return bounded(ctx, bound.ms, bound.op, `putting ${label(c)} in place`, async (signal) => {
    if (c.backend === "ironic") return checkForIronic(deps, c, signal);
    const out = await ensureInMaas({ deps, signal, log: (msg, fields) => ctx.log.info(msg, fields) }, c);
    ctx.log.info("image present in MAAS", {
      name: maasImageName(c.name, c.version),
      how: out.how,
      sent: out.sentBytes,
    });
    return { verifiedSha256: out.resource.file?.sha256 ?? "", sizeBytes: out.resource.file?.size ?? null };
  });
}

/** Ensures the image where its backend needs it; the new state, or undefined after a diagnostic. */
async function ensure(r: ApplyRequest & { plan: ImagePlan }, deps: ImageDeps, op: "create" | "update") {
  const { plan, diagnostics: diags } = r;
  checkImageConfig(plan, diags);
  if (diags.hasError()) return undefined;
  const c = configOf(plan);
  try {
    const work = putInPlace(r.context, deps, c, { ms: ms(plan, op), op });
    // Deployments of this process wait for it (image-work.ts: they do not depend on the image in the graph).
    const found: ImageFound = await deps.work.track(imageId(c), work);
    return stateOf(plan, c, found);
  } catch (e) {
    report(diags, e, c, c.backend === "maas" ? "upload the image to MAAS" : "check the image URL");
    return undefined;
  }
}

/** Cross-attribute checks of the config, before the provider is configured. */
export function validateImage(r: TypedRequest & { config: ImageConfigModel }): void {
  checkImageConfig(r.config, r.diagnostics);
}

/**
 * Plans the id, the backend's name for the image and the sha256 to verify once the image's identity is known; the
 * size stays the recorded one while nothing about the bytes changed.
 */
export function planImage(r: PlanRequest<typeof imageSchema>): PlanChange<typeof imageSchema> | undefined {
  const p = r.plan;
  if (p === null || isUnknownValue(p as Unknowable<object>)) return undefined;
  const { backend, name, version, sha256, url } = p;
  if (
    isUnknownValue(backend) ||
    isUnknownValue(name) ||
    isUnknownValue(version) ||
    isUnknownValue(sha256) ||
    isUnknownValue(url)
  )
    return undefined;
  const c = { backend: backend as "maas" | "ironic", name, version, url };
  const verified = (sha256 ?? "").toLowerCase();
  const prior = r.state;
  const same =
    prior !== null &&
    prior.version === version &&
    prior.sha256 === sha256 &&
    prior.url === url &&
    prior.source_file === p.source_file &&
    prior.verified_sha256 === verified;
  return {
    plan: {
      ...p,
      id: imageId(c),
      backend_image: backendImage(c),
      verified_sha256: verified,
      size_bytes: same ? prior.size_bytes : UNKNOWN,
    },
  };
}

/** Puts the image in place. */
export function createImage(r: ApplyRequest & { plan: ImagePlan }, deps: ImageDeps) {
  return ensure(r, deps, "create");
}

/**
 * Puts the new image in place; a MAAS version it replaces is deleted when no machine runs it any more, otherwise it
 * stays (they run it), and says so.
 */
export async function updateImage(r: ApplyRequest & { plan: ImagePlan; state: ImageState }, deps: ImageDeps) {
  const s = await ensure(r, deps, "update");
  if (!s) return undefined;
  const old = configOf(r.state);
  const now = configOf(r.plan);
  if (old.backend !== "maas" || old.version === now.version) return s;
  try {
    const users = await machinesUsing(deps, old.name, old.version);
    if (users.length === 0) await deleteFromMaas(deps, old, r.context.signal);
    else r.context.log.info("previous image kept: machines run it", { image: backendImage(old), users });
  } catch (e) {
    r.context.log.debug("could not remove the previous image version", { error: (e as Error)?.message });
  }
  return s;
}

/** What the backend holds of the image now; a MAAS image gone, or a URL that stopped answering, is drift. */
function findNow(deps: ImageDeps, st: ImageState, c: ImageConfig, signal: AbortSignal): Promise<ImageFound> {
  if (c.backend === "maas") return readFromMaas(deps, c, signal);
  if (!c.url) return Promise.resolve({ verifiedSha256: st.verified_sha256 ?? "", sizeBytes: null });
  return checkForIronic(deps, c, signal).catch((e: unknown) => {
    // A URL that no longer answers (or announces other bytes) is drift: the plan re-checks it.
    if (e instanceof ImageChecksumMismatch) return { verifiedSha256: e.announced, sizeBytes: null };
    if (isClientError(e) && e.code === "RACKFORM_ERR_IMAGE_SOURCE") return { verifiedSha256: "", sizeBytes: null };
    throw e;
  });
}

/** Re-checks the image where its backend needs it; a failure keeps the recorded state. */
export async function readImage(r: ApplyRequest & { state: ImageState }, deps: ImageDeps): Promise<ImageState> {
  const st = r.state;
  const c = configOf(st);
  if (!c.name || !c.version) return st;
  try {
    const found = await bounded(r.context, ms(st, "read"), "read", `reading ${label(c)}`, (signal) =>
      findNow(deps, st, c, signal),
    );
    // An import knows no sha256 yet: take what MAAS verified.
    const imported = st.sha256 === null && found.verifiedSha256 !== "";
    const next = stateOf(st, c, found);
    return imported ? { ...next, sha256: found.verifiedSha256 } : next;
  } catch (e) {
    report(r.diagnostics, e, c, "read the image");
    return st;
  }
}

/** The refusal of a destroy while MAAS machines run the image. */
function reportInUse(diags: Diagnostics, c: ImageConfig, users: readonly string[]): void {
  const shown = users.slice(0, 5).join(", ") + (users.length > 5 ? ` and ${users.length - 5} more` : "");
  diags.error(
    `Image in use: ${maasImageName(c.name, c.version)}`,
    `MAAS machines are deployed with ${maasImageName(c.name, c.version)}: ${shown}. Deleting it would make ` +
      "their next redeploy fail, so nothing was deleted. Destroy or reimage the rackform_deployment " +
      "resources that use it first (in one configuration, depends_on = [this image] on each deployment " +
      "makes the engine do that), or run `terraform state rm` on this image to keep it in MAAS. " +
      `(${IMAGE_IN_USE})`,
  );
}

/** Deletes a MAAS image unless machines run it (Ironic: nothing was uploaded, nothing to delete). */
export async function deleteImage(r: ApplyRequest & { state: ImageState }, deps: ImageDeps): Promise<void> {
  const c = configOf(r.state);
  if (c.backend !== "maas") return;
  try {
    await bounded(r.context, ms(r.state, "delete"), "delete", `deleting ${label(c)}`, async (signal) => {
      const users = await usersAfterTeardown(deps, c, signal);
      if (users.length > 0) {
        reportInUse(r.diagnostics, c, users);
        return;
      }
      await deleteFromMaas(deps, c, signal);
    });
  } catch (e) {
    report(r.diagnostics, e, c, "delete the image from MAAS");
  }
}

/** `<backend>:<name>/<version>` names the image. */
export function importImage(r: TypedRequest & { id: string }): Partial<ImageState> | undefined {
  const m = IMAGE_ID.exec(r.id.trim());
  if (!m) {
    r.diagnostics.error(
      "Invalid import id for rackform_image",
      `Expected <backend>:<name>/<version>, e.g. "maas:ubuntu-gpu/2026.06.2"; got ${JSON.stringify(r.id)}.`,
    );
    return undefined;
  }
  return {
    id: r.id.trim(),
    backend: m[1],
    name: m[2],
    version: m[3],
    architecture: "amd64/generic",
    filetype: "tgz",
  };
}
