/**
 * Golden image sources read as streams: an http(s) URL (HEAD for the size and any digest the server offers, then a
 * GET from an offset with `Range: bytes=N-`) or a local file (stat, then a read stream from the offset). Nothing is
 * held whole in memory. Credentials in a URL (user:password@) are sent as HTTP basic auth and never shown.
 */
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { isClientError, RackformClientError } from "../errors.js";
import type { HttpCore } from "../http/index.js";
import { safeUrl } from "../redact.js";

/** The size of an image and a stream of its bytes from an offset; `sha256` when the server offered one. */
export interface ImageSourceInfo {
  readonly size: number;
  /** sha256 the server announced (Repr-Digest/Digest sha-256, x-amz-checksum-sha256, X-Checksum-Sha256), lower-case hex. */
  readonly sha256?: string;
  /** The bytes from `offset` to the end. */
  open(offset: number, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>>;
}

function sourceError(message: string, ctx: { url?: string; status?: number } = {}): RackformClientError {
  return new RackformClientError("RACKFORM_ERR_IMAGE_SOURCE", message, { method: "GET", ...ctx });
}

/** The sha256 a response's headers announce, as lower-case hex; undefined when none. */
export function announcedSha256(headers: Readonly<Record<string, string>>): string | undefined {
  // RFC 9530 Repr-Digest (and RFC 3230 Digest): sha-256=:BASE64: (or sha-256=BASE64).
  for (const h of [headers["repr-digest"], headers.digest]) {
    const m = h ? /sha-256=:?([A-Za-z0-9+/=]+):?/i.exec(h) : null;
    if (m) {
      const hex = Buffer.from(m[1], "base64").toString("hex");
      if (hex.length === 64) return hex;
    }
  }
  const amz = headers["x-amz-checksum-sha256"];
  if (amz) {
    const hex = Buffer.from(amz, "base64").toString("hex");
    if (hex.length === 64) return hex;
  }
  const plain = headers["x-checksum-sha256"];
  if (plain && /^[0-9a-f]{64}$/i.test(plain)) return plain.toLowerCase();
  return undefined;
}

/**
 * Splits user:password@ off an image URL into a basic authorization header, added to the core's redactor (a URL with
 * only a user part, https://TOKEN@host/…, carries a token there).
 */
export function credentialsOf(core: HttpCore, raw: string): { url: URL; headers: Record<string, string> } {
  const url = new URL(raw);
  const headers: Record<string, string> = { accept: "*/*" };
  if (url.username || url.password) {
    const user = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    core.redactor.addBasicAuth(user, password).add(password || user, url.password || url.username);
    headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
    url.username = "";
    url.password = "";
  }
  return { url, headers };
}

/** HEADs an image URL: its size (Content-Length) and any sha256 it announces; throws RACKFORM_ERR_IMAGE_SOURCE. */
export async function urlImageSource(core: HttpCore, raw: string, signal?: AbortSignal): Promise<ImageSourceInfo> {
  const { url, headers } = credentialsOf(core, raw);
  const shown = safeUrl(url);
  const head = await core.request({ method: "HEAD", url, headers, signal, okStatus: () => true });
  if (head.status < 200 || head.status >= 300) {
    throw sourceError(`HEAD ${shown} answered HTTP ${head.status}`, { url: shown, status: head.status });
  }
  const size = Number(head.headers["content-length"]);
  if (!Number.isSafeInteger(size) || size < 0) {
    throw sourceError(`HEAD ${shown} announced no Content-Length; serve the image with its size`, { url: shown });
  }
  return {
    size,
    sha256: announcedSha256(head.headers),
    async open(offset, s) {
      const range: Record<string, string> = offset > 0 ? { range: `bytes=${offset}-` } : {};
      const res = await core.stream({ url, headers: { ...headers, ...range }, signal: s });
      if (res.status !== 200 && res.status !== 206) {
        res.body.destroy();
        throw sourceError(`GET ${shown} answered HTTP ${res.status}`, { url: shown, status: res.status });
      }
      // A server that ignores Range sends the whole file: skip what MAAS already holds.
      return res.status === 200 && offset > 0 ? skip(res.body, offset) : res.body;
    },
  };
}

async function* skip(body: AsyncIterable<Uint8Array>, n: number): AsyncIterable<Uint8Array> {
  let left = n;
  for await (const piece of body) {
    if (left >= piece.length) {
      left -= piece.length;
      continue;
    }
    yield left > 0 ? piece.subarray(left) : piece;
    left = 0;
  }
}

/** A local image file: its size now, and a read stream from an offset; throws RACKFORM_ERR_IMAGE_SOURCE. */
export async function fileImageSource(path: string): Promise<ImageSourceInfo> {
  let size: number;
  try {
    const st = await stat(path);
    if (!st.isFile()) throw sourceError(`${path} is not a regular file`);
    size = st.size;
  } catch (e) {
    if (isClientError(e)) throw e;
    throw sourceError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  return {
    size,
    async open(offset, signal) {
      return createReadStream(path, { start: offset, highWaterMark: 1 << 20, signal });
    },
  };
}
