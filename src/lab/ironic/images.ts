/**
 * How the lab Ironic reaches instance_info.image_source, as the real conductor does: a HEAD when the deploy is
 * validated (ironic.common.image_service.HttpImageService.validate_href) and a GET whose sha256 is checked when the
 * image is written (IPA's write_image with image_os_hash_algo/image_os_hash_value, else image_checksum). Only
 * loopback http(s) URLs are fetched: the lab never reaches off the machine, so other hosts are taken on trust.
 */
import { createHash } from "node:crypto";

/** What a fetch of the image found; undefined from `head`/`get` when the URL is not fetched (not loopback). */
export type ImageFetch =
  | { readonly kind: "status"; readonly status: number; readonly body: Buffer }
  | { readonly kind: "error"; readonly reason: string };

/** The seam the conductor uses to reach images (tests inject their own). */
export interface ImageFetcher {
  head(url: string): Promise<ImageFetch | undefined>;
  get(url: string): Promise<ImageFetch | undefined>;
}

const LOOPBACK = /^(127(\.\d{1,3}){3}|localhost|\[::1\])$/i;

/** Whether the lab fetches this URL (http or https on a loopback address). */
export function fetchable(url: string): URL | undefined {
  try {
    const u = new URL(url);
    return (u.protocol === "http:" || u.protocol === "https:") && LOOPBACK.test(u.hostname) ? u : undefined;
  } catch {
    return undefined;
  }
}

/** A requests-style connection error, as Ironic's reason reads for a refused or unreachable server. */
function connectionReason(u: URL, e: unknown): string {
  const cause = (e as { cause?: { code?: string; message?: string } }).cause;
  const code = cause?.code ?? "";
  const what =
    code === "ECONNREFUSED"
      ? "[Errno 111] Connection refused"
      : code.includes("TIMEOUT")
        ? "timed out"
        : (cause?.message ?? (e as Error).message);
  const pool = u.protocol === "https:" ? "HTTPSConnectionPool" : "HTTPConnectionPool";
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  return (
    `${pool}(host='${u.hostname}', port=${port}): Max retries exceeded with url: ${u.pathname}${u.search} ` +
    `(Caused by NewConnectionError('Failed to establish a new connection: ${what}'))`
  );
}

async function fetchImage(url: string, method: "HEAD" | "GET"): Promise<ImageFetch | undefined> {
  const u = fetchable(url);
  if (!u) return undefined;
  // Credentials in the URL go as basic auth, as python-requests sends them.
  const headers: Record<string, string> = {};
  if (u.username || u.password) {
    const pair = `${decodeURIComponent(u.username)}:${decodeURIComponent(u.password)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
    u.username = "";
    u.password = "";
  }
  try {
    const res = await fetch(u, { method, headers, signal: AbortSignal.timeout(30_000), redirect: "follow" });
    const body = method === "GET" ? Buffer.from(await res.arrayBuffer()) : Buffer.alloc(0);
    return { kind: "status", status: res.status, body };
  } catch (e) {
    return { kind: "error", reason: connectionReason(u, e) };
  }
}

/** The default fetcher: node's fetch, loopback only. */
export const loopbackFetcher: ImageFetcher = {
  head: (url) => fetchImage(url, "HEAD"),
  get: (url) => fetchImage(url, "GET"),
};

/** Ironic's ImageRefValidationFailed message for a HEAD that did not answer 200; undefined when it did. */
export async function validateHref(fetcher: ImageFetcher, href: string): Promise<string | undefined> {
  const r = await fetcher.head(href);
  if (!r) return undefined;
  const reason =
    r.kind === "error"
      ? r.reason
      : r.status === 200
        ? undefined
        : `Got HTTP code ${r.status} instead of 200 in response to HEAD request.`;
  return reason === undefined ? undefined : `Validation of image href ${href} failed, reason: ${reason}`;
}

/** The expected digest of instance_info: image_os_hash_value when the algorithm is sha256, else image_checksum. */
function expected(info: Record<string, unknown>): { algo: string; value: string } | undefined {
  const algo = typeof info.image_os_hash_algo === "string" ? info.image_os_hash_algo.toLowerCase() : undefined;
  if (algo && typeof info.image_os_hash_value === "string") return { algo, value: info.image_os_hash_value };
  if (typeof info.image_checksum === "string") {
    // Ironic infers the algorithm of a bare image_checksum from its length (md5 32, sha256 64, sha512 128).
    const v = info.image_checksum;
    const byLength: Record<number, string> = { 32: "md5", 64: "sha256", 128: "sha512" };
    return byLength[v.length] ? { algo: byLength[v.length], value: v } : undefined;
  }
  return undefined;
}

/**
 * Downloads the image and checks its digest as IPA's write_image does; the IPA error text (ImageDownloadError,
 * ImageChecksumError) when it fails, undefined when the image is good or not fetched.
 */
export async function downloadAndVerify(
  fetcher: ImageFetcher,
  info: Record<string, unknown>,
  device: string,
): Promise<string | undefined> {
  const href = String(info.image_source ?? "");
  const r = await fetcher.get(href);
  if (!r) return undefined;
  // Ironic gives IPA the file name of a non-Glance image as its id.
  const id = href.split("/").pop() ?? href;
  if (r.kind === "error") return `Error downloading image: Download of image id ${id} failed: ${r.reason}`;
  if (r.status !== 200) {
    return (
      `Error downloading image: Download of image id ${id} failed: Received status code ${r.status} from ` +
      `${href}, expected 200.`
    );
  }
  const want = expected(info);
  if (!want) return undefined;
  let actual: string;
  try {
    actual = createHash(want.algo).update(r.body).digest("hex");
  } catch {
    return `Error verifying image checksum: unsupported hash algorithm ${want.algo}`;
  }
  if (actual === want.value.toLowerCase()) return undefined;
  return (
    `Image failed to verify against checksum. location: ${id}; image ID: ${device}; image checksum: ` +
    `${want.value}; verification checksum: ${actual}`
  );
}
