/**
 * Pushing a firmware image to a BMC (DSP0266 "Multipart HTTP push updates"): one POST to the UpdateService's
 * `MultipartHttpPushUri` with two form parts — `UpdateParameters` (JSON: `Targets`, `@Redfish.OperationApplyTime`) and
 * `UpdateFile` (the image) — streamed from the image source, never held whole. Before anything is sent the image is
 * hashed in one streamed pass and compared with the sha256 the user gave: a mismatch sends nothing.
 */
import { createHash, randomBytes } from "node:crypto";
import { isClientError, RackformClientError, RedfishError } from "../errors.js";
import type { HttpCore, HttpResponse } from "../http/core.js";
import { abortableSleep, parseRetryAfter } from "../http/retry.js";
import type { ImageSourceInfo } from "../images/source.js";
import { isObj, str } from "./parse.js";
import type { RedfishTransport } from "./transport.js";
import type { RedfishJson, TaskSnapshot } from "./types.js";
import { followUpdate, listTasks, type SimpleUpdateOptions } from "./update.js";

/** The sha256 (lower-case hex) of a whole image, read as a stream. */
export async function hashImage(source: ImageSourceInfo, signal?: AbortSignal): Promise<string> {
  const h = createHash("sha256");
  for await (const chunk of await source.open(0, signal)) h.update(chunk);
  return h.digest("hex");
}

/** The image does not hash to the sha256 the configuration gives: nothing was sent. */
export class ImageDigestError extends RackformClientError {
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(
      "RACKFORM_ERR_IMAGE_DIGEST",
      `the image hashes to sha256 ${actual}, not the ${expected} the configuration gives`,
    );
    this.name = "ImageDigestError";
  }
}

/** Hashes the image and throws ImageDigestError when it is not `sha256`. */
export async function verifyImage(source: ImageSourceInfo, sha256: string, signal?: AbortSignal): Promise<void> {
  const actual = await hashImage(source, signal);
  if (actual !== sha256.toLowerCase()) throw new ImageDigestError(sha256.toLowerCase(), actual);
}

/** Where and how a BMC takes pushed images. */
export interface PushTarget {
  /** MultipartHttpPushUri, when the service offers it. */
  readonly multipartUri?: string;
  /** Whether a pushed image may be told to wait for the next reset (OperationApplyTime OnReset). */
  readonly onReset: boolean;
}

/** How the UpdateService at hand takes a pushed image. */
export function pushTarget(updateService: RedfishJson): PushTarget {
  const multipartUri = str(updateService.MultipartHttpPushUri);
  const opts = isObj(updateService.HttpPushUriOptions) ? updateService.HttpPushUriOptions : {};
  const apply = isObj(opts.HttpPushUriApplyTime) ? opts.HttpPushUriApplyTime : {};
  const allowed = apply["ApplyTime@Redfish.AllowableValues"];
  // Unstated allowable values: OperationApplyTime is the standard's way to ask, so it is sent.
  const onReset = !Array.isArray(allowed) || allowed.includes("OnReset");
  return { ...(multipartUri ? { multipartUri } : {}), onReset };
}

/** One image to push. */
export interface PushRequest {
  readonly source: ImageSourceInfo;
  /** File name sent in the UpdateFile part. */
  readonly filename: string;
  /** FirmwareInventory URIs the image is for (empty: the BMC decides from the image). */
  readonly targets: readonly string[];
}

/** The multipart body of a push: parameters, then the image bytes, then the closing boundary. */
function multipart(req: PushRequest, onReset: boolean) {
  const boundary = `rackform-${randomBytes(12).toString("hex")}`;
  const params = {
    ...(req.targets.length ? { Targets: [...req.targets] } : {}),
    ...(onReset ? { "@Redfish.OperationApplyTime": "OnReset" } : {}),
  };
  const safeName = req.filename.replace(/["\r\n]/g, "_");
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="UpdateParameters"\r\n` +
      `Content-Type: application/json\r\n\r\n${JSON.stringify(params)}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="UpdateFile"; filename="${safeName}"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + req.source.size + tail.length;
  const body = () =>
    (async function* () {
      yield head;
      yield* await req.source.open(0);
      yield tail;
    })();
  return { boundary, length, body };
}

/**
 * Pushes an image through MultipartHttpPushUri and follows the task it starts. With `onReset` the BMC stages the
 * image for the next reset (so several components share one reboot); otherwise it applies it as it chooses.
 */
export async function runMultipartPush(
  t: RedfishTransport,
  core: HttpCore,
  target: PushTarget,
  req: PushRequest,
  opts: SimpleUpdateOptions,
): Promise<TaskSnapshot> {
  if (!target.multipartUri) {
    throw new RedfishError(
      "RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED",
      `the UpdateService at ${t.origin} offers no MultipartHttpPushUri`,
    );
  }
  const { boundary, length, body } = multipart(req, target.onReset);
  const before = await listTasks(t);
  const uri = target.multipartUri;
  const post = () =>
    t.send("POST", uri, {
      body,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": String(length) },
      totalTimeoutMs: opts.timeoutMs ?? 1_800_000,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
  return followUpdate(t, core, await postUntilTaken(t, core, post, opts), before, opts);
}

/** Pushes sent again at most this often after the BMC refused them as busy. */
const BUSY_ATTEMPTS = 6;

/**
 * Sends a push until the BMC takes it. The core repeats no POST (a push that dropped mid-upload may have started an
 * update), but a refusal — 503 or 429, or a documented "busy" MessageId such as ResourceInUse while another update
 * runs — started nothing: it is sent again (the body is opened afresh) after the BMC's Retry-After, else the poll
 * interval.
 */
async function postUntilTaken(
  t: RedfishTransport,
  core: HttpCore,
  post: () => Promise<HttpResponse>,
  opts: SimpleUpdateOptions,
): Promise<HttpResponse> {
  const sleep = opts.sleep ?? abortableSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await post();
    } catch (e) {
      const refused =
        isClientError(e) && (e.status === 503 || e.status === 429 || e.code === "RACKFORM_ERR_REDFISH_BMC_BUSY");
      if (!refused || attempt >= BUSY_ATTEMPTS) throw e;
      const wait =
        parseRetryAfter(e.headers?.["retry-after"], (opts.now ?? Date.now)()) ?? opts.pollIntervalMs ?? 5_000;
      core.log(`redfish ${t.origin}: the push was refused (${e.status ?? e.code}); sending it again in ${wait} ms`);
      await sleep(Math.min(wait, 120_000), opts.signal);
    }
  }
}
