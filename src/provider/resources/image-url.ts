/**
 * rackform_deployment's image.url: the plan-time check (an http or https URL) and the apply-time check that it answers
 * before the backend is asked to deploy from it. Credentials in the URL (user:password@) are sent as HTTP basic auth,
 * as the backends' downloaders send them, and never shown: every message names the URL without them.
 */
import { isClientError } from "../../clients/errors.js";
import type { HttpCore } from "../../clients/http/index.js";
import { credentialsOf } from "../../clients/images/source.js";
import { safeUrl } from "../../clients/redact.js";
import { type Context, type Diagnostics, path, type Validator, validator } from "../../framework/index.js";
import { parseHttpUrl } from "../config/service-url.js";
import { bounded } from "../shared/timeouts.js";

/** Statuses that mean "this server does not do HEAD": then a one-byte ranged GET asks again. */
const NO_HEAD: ReadonlySet<number> = new Set([405, 501]);
/** The code the diagnostic carries (docs/errors.md). */
const IMAGE_URL_UNREACHABLE = "RACKFORM_ERR_IMAGE_URL_UNREACHABLE";
/** Budget of the whole check (retries of a refused connection included). */
export const IMAGE_URL_CHECK_TIMEOUT_MS = 30_000;

/** The URL without credentials, or a placeholder when it does not parse; safe to print. */
export function shownUrl(raw: string): string {
  const s = safeUrl(raw);
  return s === "<invalid URL>" ? "the value" : JSON.stringify(s);
}

/** image.url must be an http or https URL (what Ironic's image_source and a MAAS upload fetch); never echoes secrets. */
export function imageUrl(): Validator {
  return validator("an http or https URL", (req, resp) => {
    if (typeof req.value !== "string") return;
    // WHATWG parsing would quietly drop or encode white space; a downloader would not.
    const { url: u, problem: bad } = /\s/.test(req.value) ? { problem: "is not a URL" } : parseHttpUrl(req.value);
    const problem = bad ?? (!u?.hostname ? "names no host" : undefined);
    if (problem) {
      resp.diagnostics.error(
        "Invalid image URL",
        `${shownUrl(req.value)} ${problem}. Write where the image is served, e.g. ` +
          '"https://images.example.com/ubuntu-gpu-2026.06.2.qcow2".',
        req.path,
      );
    }
  });
}

const REASON: Readonly<Record<number, string>> = {
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  410: "Gone",
  416: "Range Not Satisfiable",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

const statusText = (s: number): string => `HTTP ${s}${REASON[s] ? ` (${REASON[s]})` : ""}`;

/** A 2xx, or a redirect the backend's downloader follows. */
const answers = (s: number): boolean => s >= 200 && s < 400;

/**
 * Asks the image server whether the image is there: a HEAD, and a one-byte ranged GET (`Range: bytes=0-0`) when the
 * server refuses HEAD (405/501). Resolves with what went wrong in words (status or connection failure, credentials
 * redacted), or undefined when the URL answers.
 */
export async function probeImageUrl(core: HttpCore, raw: string, signal: AbortSignal): Promise<string | undefined> {
  const { url, headers } = credentialsOf(core, raw);
  const shown = safeUrl(url);
  const common = { url, signal, okStatus: () => true, totalTimeoutMs: IMAGE_URL_CHECK_TIMEOUT_MS } as const;
  try {
    const head = await core.request({ ...common, method: "HEAD", headers });
    if (answers(head.status)) return undefined;
    if (!NO_HEAD.has(head.status)) return `HEAD ${shown} answered ${statusText(head.status)}`;
    const get = await core.request({
      ...common,
      method: "GET",
      headers: { ...headers, range: "bytes=0-0" },
      discardBody: true,
    });
    if (answers(get.status)) return undefined;
    return (
      `HEAD ${shown} answered ${statusText(head.status)} and a ranged GET (Range: bytes=0-0) answered ` +
      statusText(get.status)
    );
  } catch (e) {
    if (signal.aborted) throw e;
    // The HTTP core's messages are already redacted and name the URL without credentials.
    if (isClientError(e)) return core.redactor.redact(e.message);
    return core.redactor.redact(`${shown}: ${(e as Error)?.message ?? String(e)}`);
  }
}

/** The part of a deployment's image block the apply-time check reads. */
export interface CheckedImage {
  readonly url: string | null;
  readonly check_url: boolean | null;
}

/** What `imageUrlAnswersFor` checks, and where it reports. */
export interface ImageUrlCheck {
  readonly context: Context;
  readonly core: HttpCore;
  /** The planned image block (null when there is none). */
  readonly image: CheckedImage | null;
  /** The backend that downloads the image, as people name it (e.g. "Ironic"). */
  readonly backendLabel: string;
  readonly diagnostics: Diagnostics;
}

/**
 * The apply-time check of image.url (Ironic deployments, unless image.check_url = false), over a typed image block:
 * true when the URL answers or is not to be checked; else a diagnostic on image.url naming what the server said and
 * the fix, and false.
 */
export async function imageUrlAnswersFor(c: ImageUrlCheck): Promise<boolean> {
  const { core, diagnostics: diags, backendLabel } = c;
  const raw = c.image?.url ?? null;
  if (!raw || c.image?.check_url === false) return true;
  let problem: string | undefined;
  try {
    const what = `checking that image.url ${shownUrl(raw)} answers`;
    problem = await bounded(c.context, IMAGE_URL_CHECK_TIMEOUT_MS, "create", what, (s) => probeImageUrl(core, raw, s));
  } catch (e) {
    problem = core.redactor.redact((e as Error)?.message ?? String(e));
  }
  if (problem === undefined) return true;
  diags.error(
    "Image URL does not answer",
    `${problem}.\n${backendLabel} downloads the image from image.url, so the deploy would fail; nothing was sent to ` +
      `${backendLabel}. Publish the image at that URL or correct image.url, then apply again. If only the ` +
      "backend's provisioning network reaches the URL, set image.check_url = false. " +
      `(${IMAGE_URL_UNREACHABLE})`,
    path("image", "url"),
  );
  return false;
}
