/**
 * rackform_image: a golden image present where its backend needs it, verified by sha256 — a MAAS custom boot
 * resource uploaded (streamed, resumable) or an Ironic image URL checked. Deployments depend on it; its destroy is
 * refused while MAAS machines run it.
 */
import { isClientError } from "../../clients/errors.js";
import { abortableSleep } from "../../clients/http/retry.js";
import {
  type Context,
  type Diagnostics,
  getString,
  isKnown,
  type ObjectValue,
  path,
  type Resource,
  timeoutMs,
  UNKNOWN,
} from "../../framework/index.js";
import { withoutUserinfo } from "../backends/index.js";
import type { ProviderData } from "../config/config.js";
import { addClientError } from "../errors/client-errors.js";
import { providerDataSlot } from "../shared/data-slot.js";
import { bounded } from "../shared/timeouts.js";
import {
  checkForIronic,
  deleteFromMaas,
  ensureInMaas,
  ImageChecksumMismatch,
  type ImageConfig,
  type ImageFound,
  machinesUsing,
  readFromMaas,
} from "./image-ops.js";
import { checkImageConfig, IMAGE_ID, imageSchema, maasImageName } from "./image-schema.js";

/** Codes the diagnostics carry (docs/errors.md). */
const IMAGE_IN_USE = "RACKFORM_ERR_IMAGE_IN_USE";
const IMAGE_CHECKSUM = "RACKFORM_ERR_IMAGE_CHECKSUM";

const DEFAULT_TIMEOUT_MS = { create: 60 * 60_000, read: 2 * 60_000, update: 60 * 60_000, delete: 5 * 60_000 };

function configOf(v: ObjectValue): ImageConfig {
  return {
    backend: getString(v, "backend") as "maas" | "ironic",
    name: getString(v, "name")!,
    version: getString(v, "version")!,
    sha256: (getString(v, "sha256") ?? "").toLowerCase(),
    url: getString(v, "url"),
    sourceFile: getString(v, "source_file"),
    architecture: getString(v, "architecture") ?? "amd64/generic",
    filetype: getString(v, "filetype") ?? "tgz",
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

/** How often an image's destroy looks again at the machines running it while nodes are torn down. */
const TEARDOWN_POLL_MS = 2_000;
/** How long a destroy that finds machines on the image waits for a teardown of this process to begin. */
const TEARDOWN_GRACE_MS = 4_000;

/**
 * The MAAS machines that still run the image once this process's teardown of nodes (if any) has released them: while
 * nodes are being torn down in this apply (a destroy of the rack: nothing orders the image after its deployments,
 * image-work.ts) it looks again until none runs it or the caller's bound ends; otherwise it answers at once.
 */
async function usersAfterTeardown(data: ProviderData, c: ImageConfig, signal: AbortSignal): Promise<string[]> {
  const started = Date.now();
  for (;;) {
    const users = await machinesUsing(data, c.name, c.version);
    const waiting = data.images.teardownSeen || Date.now() - started < TEARDOWN_GRACE_MS;
    if (users.length === 0 || !waiting) return users;
    await abortableSleep(TEARDOWN_POLL_MS, signal);
  }
}

/** Ensures the image where its backend needs it; the new state, or undefined after a diagnostic. */
async function ensure(
  ctx: Context,
  data: ProviderData,
  plan: ObjectValue,
  ms: number,
  op: string,
  diags: Diagnostics,
): Promise<ObjectValue | undefined> {
  checkImageConfig(plan, diags);
  if (diags.hasError()) return undefined;
  const c = configOf(plan);
  try {
    const work = bounded(ctx, ms, op, `putting ${label(c)} in place`, async (signal) => {
      if (c.backend === "ironic") return checkForIronic(data, c, signal);
      const out = await ensureInMaas(data, c, signal, (msg, fields) => ctx.log.info(msg, fields));
      ctx.log.info("image present in MAAS", {
        name: maasImageName(c.name, c.version),
        how: out.how,
        sent: out.sentBytes,
      });
      return { verifiedSha256: out.resource.file?.sha256 ?? "", sizeBytes: out.resource.file?.size ?? null };
    });
    // Deployments of this process wait for it (image-work.ts: they do not depend on the image in the graph).
    const found: ImageFound = await data.images.track(imageId(c), work);
    return stateOf(plan, c, found);
  } catch (e) {
    report(diags, e, c, c.backend === "maas" ? "upload the image to MAAS" : "check the image URL");
    return undefined;
  }
}

function stateOf(v: ObjectValue, c: ImageConfig, f: ImageFound): ObjectValue {
  return {
    ...v,
    id: imageId(c),
    architecture: c.architecture,
    filetype: c.filetype,
    backend_image: backendImage(c),
    size_bytes: f.sizeBytes,
    verified_sha256: f.verifiedSha256,
  };
}

/** The rackform_image resource; one instance per provider process. */
export function imageResource(): Resource {
  const slot = providerDataSlot("rackform_image");
  const need = slot.get;
  return {
    typeName: "rackform_image",
    schema: imageSchema,
    configure: slot.configure,

    validateConfig(req, resp) {
      checkImageConfig(req.config, resp.diagnostics);
    },

    modifyPlan(req, resp) {
      const plan = req.plan;
      if (plan === null || typeof plan !== "object" || Array.isArray(plan)) return;
      const p = plan as ObjectValue;
      const known = ["backend", "name", "version", "sha256", "url"].every((a) => isKnown(p, a));
      if (!known) return;
      const c = configOf(p);
      const prior = req.state as ObjectValue | null;
      const same =
        prior !== null &&
        ["version", "sha256", "url", "source_file"].every((a) => (prior[a] ?? null) === (p[a] ?? null)) &&
        getString(prior, "verified_sha256") === c.sha256;
      resp.plan = {
        ...p,
        id: imageId(c),
        backend_image: backendImage(c),
        verified_sha256: c.sha256,
        size_bytes: same ? (prior.size_bytes ?? null) : UNKNOWN,
      };
    },

    async create(req, resp) {
      const ms = timeoutMs(req.plan, "create", DEFAULT_TIMEOUT_MS.create);
      const s = await ensure(req.context, need(), req.plan, ms, "create", resp.diagnostics);
      if (s) resp.state = s;
    },

    async update(req, resp) {
      const data = need();
      const ms = timeoutMs(req.plan, "update", DEFAULT_TIMEOUT_MS.update);
      const s = await ensure(req.context, data, req.plan, ms, "update", resp.diagnostics);
      if (!s) return;
      resp.state = s;
      const old = configOf(req.state);
      const now = configOf(req.plan);
      if (old.backend !== "maas" || old.version === now.version) return;
      // The previous version goes when no machine runs it any more; otherwise it stays (they run it), and says so.
      try {
        const users = await machinesUsing(data, old.name, old.version);
        if (users.length === 0) await deleteFromMaas(data, old, req.context.signal);
        else req.context.log.info("previous image kept: machines run it", { image: backendImage(old), users });
      } catch (e) {
        req.context.log.debug("could not remove the previous image version", { error: (e as Error)?.message });
      }
    },

    async read(req, resp) {
      const st = req.state;
      const c = configOf(st);
      if (!c.name || !c.version) return;
      const ms = timeoutMs(st, "read", DEFAULT_TIMEOUT_MS.read);
      try {
        const found = await bounded(req.context, ms, "read", `reading ${label(c)}`, async (signal) => {
          if (c.backend === "maas") return readFromMaas(need(), c, signal);
          if (!c.url) return { verifiedSha256: getString(st, "verified_sha256") ?? "", sizeBytes: null };
          return checkForIronic(need(), c, signal).catch((e: unknown) => {
            // A URL that no longer answers (or announces other bytes) is drift: the plan re-checks it.
            if (e instanceof ImageChecksumMismatch) return { verifiedSha256: e.announced, sizeBytes: null };
            if (isClientError(e) && e.code === "RACKFORM_ERR_IMAGE_SOURCE")
              return { verifiedSha256: "", sizeBytes: null };
            throw e;
          });
        });
        // An import knows no sha256 yet: take what MAAS verified.
        const imported = getString(st, "sha256") === null && found.verifiedSha256 !== "";
        const next = stateOf(st, c, found);
        resp.state = imported ? { ...next, sha256: found.verifiedSha256 } : next;
      } catch (e) {
        report(resp.diagnostics, e, c, "read the image");
      }
    },

    async delete(req, resp) {
      const c = configOf(req.state);
      if (c.backend !== "maas") return; // Ironic: nothing was uploaded, nothing to delete.
      const data = need();
      const ms = timeoutMs(req.state, "delete", DEFAULT_TIMEOUT_MS.delete);
      try {
        await bounded(req.context, ms, "delete", `deleting ${label(c)}`, async (signal) => {
          const users = await usersAfterTeardown(data, c, signal);
          if (users.length > 0) {
            const shown = users.slice(0, 5).join(", ") + (users.length > 5 ? ` and ${users.length - 5} more` : "");
            resp.diagnostics.error(
              `Image in use: ${maasImageName(c.name, c.version)}`,
              `MAAS machines are deployed with ${maasImageName(c.name, c.version)}: ${shown}. Deleting it would make ` +
                "their next redeploy fail, so nothing was deleted. Destroy or reimage the rackform_deployment " +
                "resources that use it first (in one configuration, depends_on = [this image] on each deployment " +
                "makes the engine do that), or run `terraform state rm` on this image to keep it in MAAS. " +
                `(${IMAGE_IN_USE})`,
            );
            return;
          }
          await deleteFromMaas(data, c, signal);
        });
      } catch (e) {
        report(resp.diagnostics, e, c, "delete the image from MAAS");
      }
    },

    importState(req, resp) {
      const m = IMAGE_ID.exec(req.id.trim());
      if (!m) {
        resp.diagnostics.error(
          "Invalid import id for rackform_image",
          `Expected <backend>:<name>/<version>, e.g. "maas:ubuntu-gpu/2026.06.2"; got ${JSON.stringify(req.id)}.`,
        );
        return;
      }
      resp.state = {
        ...resp.state,
        id: req.id.trim(),
        backend: m[1],
        name: m[2],
        version: m[3],
        architecture: "amd64/generic",
        filetype: "tgz",
      };
    },
  };
}
