/**
 * rackform_deployment's read-side check that the image a running deployment came from is still there: MAAS still
 * lists its boot resource (one boot-resource list shared by every read of a plan), or Ironic's image.url still
 * answers (one probe per URL and plan). A running node does not need its image, so a missing one changes nothing in
 * the plan; it is a warning naming the node, the image and the fix, because the next redeploy of that node (a new
 * version, a machine released by hand, a replacement) would fail. The check never fails a read: when the backend or
 * the image server cannot be asked, it says nothing.
 */

import type { HttpCore } from "../../clients/http/index.js";
import { abortableSleep } from "../../clients/http/retry.js";
import type { Context, Diagnostics } from "../../framework/index.js";
import { path } from "../../framework/index.js";
import { type Backend, type ImageSpec, imageLabel, type MachineFacts } from "../backends/index.js";
import { BACKEND_TRAITS } from "../backends/traits.js";
import { BACKEND_LABEL as LABEL } from "../errors/backend-errors.js";
import type { DeploymentDeps } from "./deployment-deps.js";
import { type DeploymentState, imageSpecOf, recordedImage } from "./deployment-schema.js";
import { IMAGE_URL_CHECK_TIMEOUT_MS, probeImageUrl, shownUrl } from "./image-url.js";

/** How long one probe of an image URL answers for every deployment of a plan that uses it. */
const PROBE_MAX_AGE_MS = 60_000;

/**
 * What is wrong with a URL (undefined when it answers), asked once per URL for a while: one probe per URL and plan
 * however many deployments use it. One cache per configured provider (the deps builder makes one).
 */
export function cachedImageUrlProbe(core: HttpCore): (url: string) => Promise<string | undefined> {
  const byUrl = new Map<string, { at: number; answer: Promise<string | undefined> }>();
  return (url) => {
    const hit = byUrl.get(url);
    if (hit && Date.now() - hit.at < PROBE_MAX_AGE_MS) return hit.answer;
    const answer = probeImageUrl(core, url, AbortSignal.timeout(IMAGE_URL_CHECK_TIMEOUT_MS));
    byUrl.set(url, { at: Date.now(), answer });
    return answer;
  };
}

/** What the image check of a read looks at: the deployment in state and the machine it runs on. */
export interface ImageGoneCheck {
  readonly context: Context;
  readonly diagnostics: Diagnostics;
  readonly backend: Backend;
  readonly state: DeploymentState;
  readonly facts: MachineFacts;
}

/**
 * Adds a warning when the image of the deployment in state (running on the machine of `facts`) is gone from its
 * backend; says nothing when it is there, when the state has no whole image, or when nobody could be asked.
 */
export async function warnIfImageGone(r: ImageGoneCheck, deps: Pick<DeploymentDeps, "imageUrlProblem">): Promise<void> {
  const { backend: b, facts: f, diagnostics: diags } = r;
  const img = recordedImage(r.state);
  if (img === null || typeof img.name !== "string" || typeof img.version !== "string") return;
  const spec = imageSpecOf({ ...r.state, image: img });
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
    const url = img.url;
    if (!url || img.check_url === false) return;
    const problem = await deps.imageUrlProblem(url);
    if (problem === undefined) return;
    diags.warning(
      `Image URL no longer answers: ${node}`,
      `${machine} was deployed from image.url ${shownUrl(url)}, which no longer answers (${problem}). ${later} ` +
        "Restore the image at that URL, or set image.url to where it is served now.",
      path("image", "url"),
    );
  } catch (e) {
    r.context.log.debug("could not check the deployment's image", { id: f.id, error: (e as Error)?.message });
  }
}

/** How long a deploy whose image its backend lacks waits for this process to begin putting it in place. */
export const UPLOAD_START_GRACE_MS = 60_000;
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
  deps: Pick<DeploymentDeps, "images" | "imageUploadGraceMs">,
  b: Backend,
  spec: ImageSpec,
  signal: AbortSignal,
): Promise<void> {
  if (!b.imageAvailable) return;
  const id = `${b.name}:${spec.name}/${spec.version}`;
  const started = Date.now();
  const grace = deps.imageUploadGraceMs;
  for (let i = 0; ; i++) {
    const upload = deps.images.upload(id);
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
