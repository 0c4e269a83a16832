/**
 * rackform_deployment's read-side check that the image a running deployment came from is still there: MAAS still
 * lists its boot resource (one boot-resource list shared by every read of a plan), or Ironic's image.url still
 * answers (one probe per URL and plan). A running node does not need its image, so a missing one changes nothing in
 * the plan; it is a warning naming the node, the image and the fix, because the next redeploy of that node (a new
 * version, a machine released by hand, a replacement) would fail. The check never fails a read: when the backend or
 * the image server cannot be asked, it says nothing.
 */
import { abortableSleep } from "../../clients/http/retry.js";
import type { Context, Diagnostics, ObjectValue } from "../../framework/index.js";
import { getBool, getObject, getString, path } from "../../framework/index.js";
import { type Backend, type ImageSpec, imageLabel, type MachineFacts } from "../backends/index.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import type { ProviderData } from "../config/config.js";
import { BACKEND_LABEL as LABEL } from "../errors/backend-errors.js";
import { imageSpecOf } from "./deployment-schema.js";
import { IMAGE_URL_CHECK_TIMEOUT_MS, probeImageUrl, shownUrl } from "./image-url.js";

/** How long one probe of an image URL answers for every deployment of a plan that uses it. */
const PROBE_MAX_AGE_MS = 60_000;

const probes = new WeakMap<ProviderData, Map<string, { at: number; answer: Promise<string | undefined> }>>();

/** What is wrong with `url` (undefined when it answers), asked once per URL and provider process for a while. */
function probeOnce(data: ProviderData, url: string): Promise<string | undefined> {
  let byUrl = probes.get(data);
  if (!byUrl) {
    byUrl = new Map();
    probes.set(data, byUrl);
  }
  const hit = byUrl.get(url);
  if (hit && Date.now() - hit.at < PROBE_MAX_AGE_MS) return hit.answer;
  const answer = probeImageUrl(data.core, url, AbortSignal.timeout(IMAGE_URL_CHECK_TIMEOUT_MS));
  byUrl.set(url, { at: Date.now(), answer });
  return answer;
}

/**
 * Adds a warning to `diags` when the image of the deployment in `st` (running on the machine of `f`) is gone from
 * its backend; says nothing when it is there, when the state has no whole image, or when nobody could be asked.
 */
export async function warnIfImageGone(
  ctx: Context,
  data: ProviderData,
  b: Backend,
  st: ObjectValue,
  f: MachineFacts,
  diags: Diagnostics,
): Promise<void> {
  const img = getObject(st, "image");
  if (img === null || typeof img.name !== "string" || typeof img.version !== "string") return;
  const spec = imageSpecOf(st);
  const node = f.name || f.id;
  const machine = `${LABEL[b.name]} machine ${f.id}${f.name ? ` (${f.name})` : ""}`;
  const later =
    "The running node is not touched and the plan changes nothing for it, but its next redeploy (a new image " +
    "version, a machine released by hand, a replacement) would fail.";
  try {
    // Backends that hold the image themselves (MAAS boot resources, BCM software images) say whether they still do.
    if (b.imageAvailable) {
      if (await b.imageAvailable(spec)) return;
      const label = imageLabel(b.name, spec);
      const t = BACKEND_TRAITS[b.name];
      diags.warning(
        // The node in the summary: the engines fold warnings of one summary into the first.
        `Image gone from ${t.label}: ${node}`,
        `${machine} runs ${label}, which ${t.label} no longer lists among its ${t.images}. ${later} ` +
          `${t.restoreImage} the image to ${t.label} again (as ${label}, the way it was before the first deploy), ` +
          `or set image to one ${t.label} holds.`,
      );
      return;
    }
    const url = getString(img, "url");
    if (!url || getBool(img, "check_url") === false) return;
    const problem = await probeOnce(data, url);
    if (problem === undefined) return;
    diags.warning(
      `Image URL no longer answers: ${node}`,
      `${machine} was deployed from image.url ${shownUrl(url)}, which no longer answers (${problem}). ${later} ` +
        "Restore the image at that URL, or set image.url to where it is served now.",
      path("image", "url"),
    );
  } catch (e) {
    ctx.log.debug("could not check the deployment's image", { id: f.id, error: (e as Error)?.message });
  }
}

/** How long a deploy whose image its backend lacks waits for this process to begin putting it in place. */
const UPLOAD_START_GRACE_MS = 60_000;
/** Between two looks for an upload, within that grace. */
const UPLOAD_LOOK_MS = 1_000;

/**
 * Before a deploy: waits for the upload of its image when this process is putting it in place (a rackform_image of the
 * same apply, which the deployment does not depend on: image-work.ts). An image its backend already lists needs no
 * wait; one it lacks waits a short while for such an upload to begin, then the deploy goes ahead and the backend
 * reports what is missing. Backends that take the image from a URL (Ironic) have nothing to wait for.
 */
export async function awaitImageUpload(
  ctx: Context,
  data: ProviderData,
  b: Backend,
  spec: ImageSpec,
  signal: AbortSignal,
): Promise<void> {
  if (!b.imageAvailable) return;
  const id = `${b.name}:${spec.name}/${spec.version}`;
  const started = Date.now();
  const grace = data.timings.imageUploadGraceMs ?? UPLOAD_START_GRACE_MS;
  for (let i = 0; ; i++) {
    const upload = data.images.upload(id);
    if (upload) {
      ctx.log.info("waiting for the image being put in place by this apply", { image: id });
      await upload;
      return;
    }
    // Asked again every few seconds: another process (an earlier stack) may be the one putting it in place.
    if (i % 3 === 0 && (await b.imageAvailable(spec, signal).catch(() => false))) return;
    if (Date.now() - started >= grace) return;
    await abortableSleep(Math.min(UPLOAD_LOOK_MS, grace / 5), signal);
  }
}
