/**
 * A custom image put into MAAS as MAAS takes it (src/maasserver/api/boot_resources.py): `POST boot-resources/` with
 * name, title, architecture, filetype, sha256 and size (no content), then the bytes in pieces, each a `PUT` to the
 * upload_uri the new file reports. The bytes are streamed from a source and sent a chunk at a time, so no more than
 * one chunk is ever held. An incomplete upload with the same sha256 (a run killed mid-way) is resumed from the bytes
 * MAAS reports holding; a resume MAAS refuses is started over once, after deleting the incomplete resource.
 */
import { isClientError, RackformClientError } from "../errors.js";
import type { MaasCatalog } from "./catalog.js";
import { bytesHeld } from "./parse.js";
import type { MaasBootResource } from "./types.js";

/** What the maas CLI sends per request (maascli/actions/boot_resources_create.py: CHUNK_SIZE = 1 << 22). */
export const UPLOAD_CHUNK_BYTES = 1 << 22;

/** Where the bytes come from: their size, and a stream of them from an offset. */
export interface ImageByteSource {
  readonly size: number;
  /** The bytes from `offset` to the end. */
  open(offset: number, signal?: AbortSignal): Promise<AsyncIterable<Uint8Array>>;
}

/** The custom image to ensure. */
export interface UploadSpec {
  /** The boot resource name, e.g. "custom/ubuntu-gpu-2026.06.2". */
  readonly name: string;
  readonly title?: string;
  /** e.g. "amd64/generic". */
  readonly architecture: string;
  /** e.g. "ddgz" (MAAS's default is "tgz"). */
  readonly filetype: string;
  /** 64 hex digits, lower case. */
  readonly sha256: string;
}

/** What ensureUploadedImage did. */
export interface UploadOutcome {
  /** The boot resource as MAAS reports it afterwards (complete). */
  readonly resource: MaasBootResource;
  /** "present": MAAS already held it, complete with this sha256; "resumed": an incomplete upload was finished. */
  readonly how: "present" | "uploaded" | "resumed";
  /** Bytes sent by this call. */
  readonly sentBytes: number;
  /** Where the upload started (0 unless resumed). */
  readonly fromByte: number;
}

/** Options of ensureUploadedImage. */
export interface UploadOptions {
  readonly chunkBytes?: number;
  readonly signal?: AbortSignal;
  /** Progress lines (no secrets). */
  readonly log?: (msg: string, fields: Record<string, unknown>) => void;
}

const withPrefix = (n: string): string => (n.includes("/") ? n : `custom/${n}`);

/** The uploaded boot resource named `name` for `architecture` (MAAS may list a custom image without "custom/"). */
export async function findUploadedImage(
  catalog: MaasCatalog,
  name: string,
  architecture: string,
  signal?: AbortSignal,
): Promise<MaasBootResource | undefined> {
  const arch = architecture.split("/")[0];
  const hit = (await catalog.listBootResources(signal)).find(
    (b) =>
      b.type.toLowerCase() === "uploaded" &&
      withPrefix(b.name) === withPrefix(name) &&
      b.architecture.split("/")[0] === arch,
  );
  return hit ? catalog.getBootResource(hit.id, signal) : undefined;
}

/** Makes MAAS hold `spec` complete with its sha256: present already, resumed, or uploaded from `source`. */
export async function ensureUploadedImage(
  catalog: MaasCatalog,
  spec: UploadSpec,
  source: () => Promise<ImageByteSource>,
  o: UploadOptions = {},
): Promise<UploadOutcome> {
  const found = await findUploadedImage(catalog, spec.name, spec.architecture, o.signal);
  const f = found?.file;
  if (found && f && f.sha256 === spec.sha256) {
    if (f.complete) return { resource: found, how: "present", sentBytes: 0, fromByte: 0 };
    if (f.uploadUri) {
      const src = await source();
      if (src.size === f.size) {
        const from = bytesHeld(f, await catalog.version(o.signal));
        o.log?.("resuming the image upload to MAAS", { name: spec.name, from, size: f.size });
        try {
          const sent = await sendFrom(catalog, f.uploadUri, src, from, o);
          return {
            resource: await catalog.getBootResource(found.id, o.signal),
            how: "resumed",
            sentBytes: sent,
            fromByte: from,
          };
        } catch (e) {
          // A wrong offset shows as "Too much data" or a checksum refusal at the last byte: start over, once.
          if (!isClientError(e, "RACKFORM_ERR_MAAS_BAD_REQUEST") && !isClientError(e, "RACKFORM_ERR_MAAS_CHECKSUM"))
            throw e;
          o.log?.("MAAS refused the resumed upload; uploading from the start", { name: spec.name, error: e.message });
        }
      }
      await catalog.deleteBootResource(found.id);
    }
  }
  const src = await source();
  const created = await catalog.createUploadedBootResource({ ...spec, size: src.size }, o.signal);
  const uri = created.file?.uploadUri;
  let sent = 0;
  if (uri && !created.file?.complete) {
    o.log?.("uploading the image to MAAS", { name: spec.name, size: src.size });
    sent = await sendFrom(catalog, uri, src, 0, o);
  }
  return {
    resource: await catalog.getBootResource(created.id, o.signal),
    how: "uploaded",
    sentBytes: sent,
    fromByte: 0,
  };
}

/** Streams the source from `from` into upload_uri, one chunk per PUT; the bytes sent. */
async function sendFrom(
  catalog: MaasCatalog,
  uri: string,
  src: ImageByteSource,
  from: number,
  o: UploadOptions,
): Promise<number> {
  const chunkBytes = o.chunkBytes ?? UPLOAD_CHUNK_BYTES;
  let pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let sent = 0;
  const flush = async (n: number): Promise<void> => {
    const all = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    await catalog.uploadChunk(uri, all.subarray(0, n), o.signal);
    sent += n;
    const rest = all.subarray(n);
    pending = rest.length > 0 ? [rest] : [];
    pendingBytes = rest.length;
  };
  for await (const piece of await src.open(from, o.signal)) {
    if (piece.length === 0) continue;
    pending.push(piece);
    pendingBytes += piece.length;
    while (pendingBytes >= chunkBytes) await flush(chunkBytes);
  }
  if (pendingBytes > 0) await flush(pendingBytes);
  if (from + sent !== src.size) {
    throw new RackformClientError(
      "RACKFORM_ERR_IMAGE_SOURCE",
      `the image source ended after ${from + sent} of the ${src.size} bytes it announced`,
    );
  }
  return sent;
}
