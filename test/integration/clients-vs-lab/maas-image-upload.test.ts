/**
 * A golden image streamed from the lab image server into the lab MAAS as real MAAS takes it (create with sha256 and
 * size, then PUT chunks to upload_uri): several chunks, MAAS's sha256 check at the last byte, and a killed upload
 * resumed from the bytes MAAS reports holding — the rest only, never the whole image again.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { HttpCore } from "../../../src/clients/http/index.js";
import { fileImageSource, urlImageSource } from "../../../src/clients/images/source.js";
import { ensureUploadedImage, findUploadedImage } from "../../../src/clients/maas/image-upload.js";
import { MaasClient } from "../../../src/clients/maas/index.js";
import { bytesHeld } from "../../../src/clients/maas/parse.js";
import { startImageServer } from "../../../src/lab/index.js";
import { createMaasApi, type MaasApi, memoryPowerDriver } from "../../../src/lab/maas/index.js";

const API_KEY = "labconsumer:labtoken:labsecret";
const CHUNK = 64 * 1024;
/** 1 MiB + 123 bytes: 17 chunks of 64 KiB, the last one short. */
const IMAGE = Buffer.alloc(1024 * 1024 + 123, 0);
for (let i = 0; i < IMAGE.length; i++) IMAGE[i] = (i * 31 + 7) & 0xff;
const SHA = createHash("sha256").update(IMAGE).digest("hex");

let maas: MaasApi;
let server: { url: string; close(): Promise<void> };
let images: Awaited<ReturnType<typeof startImageServer>>;
let client: MaasClient;
let core: HttpCore;
let dir: string;

const spec = (name: string, sha256 = SHA) => ({
  name,
  title: name,
  architecture: "amd64/generic",
  filetype: "ddgz",
  sha256,
});
const puts = (): number => maas.requests.filter((r) => r.method === "PUT" && r.path.includes("/upload/")).length;

beforeAll(async () => {
  maas = createMaasApi({ apiKeys: [API_KEY], power: memoryPowerDriver() });
  server = await maas.listen("127.0.0.1", 0);
  images = await startImageServer();
  images.put("big-1.0.qcow2", IMAGE);
  core = new HttpCore();
  client = new MaasClient({ url: server.url, apiKey: API_KEY, core });
  dir = mkdtempSync(join(process.env.TMPDIR ?? "/tmp", "image-upload-"));
});

afterAll(async () => {
  await client?.close();
  await core?.close();
  maas?.stop();
  await server?.close();
  await images?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a golden image uploaded to MAAS from its URL", () => {
  it("sends the image in chunks to upload_uri, and MAAS holds it complete with its sha256", async () => {
    const before = puts();
    const out = await ensureUploadedImage(
      client.catalog,
      spec("custom/big-1.0"),
      () => urlImageSource(core, `${images.url}big-1.0.qcow2`),
      { chunkBytes: CHUNK },
    );
    expect(out).toMatchObject({ how: "uploaded", sentBytes: IMAGE.length, fromByte: 0 });
    expect(out.resource.file).toMatchObject({ complete: true, sha256: SHA, size: IMAGE.length, filetype: "ddgz" });
    expect(puts() - before).toBe(Math.ceil(IMAGE.length / CHUNK));
  });

  it("finds it present the second time and sends nothing", async () => {
    const before = puts();
    const out = await ensureUploadedImage(client.catalog, spec("custom/big-1.0"), () =>
      urlImageSource(core, `${images.url}big-1.0.qcow2`),
    );
    expect(out).toMatchObject({ how: "present", sentBytes: 0 });
    expect(puts()).toBe(before);
  });

  it("fails with MAAS's own checksum error when the bytes do not hash to the sha256", async () => {
    const wrong = createHash("sha256").update("another build").digest("hex");
    const e = await ensureUploadedImage(
      client.catalog,
      spec("custom/big-2.0", wrong),
      () => urlImageSource(core, `${images.url}big-1.0.qcow2`),
      { chunkBytes: CHUNK },
    ).catch((x: unknown) => x);
    expect(isClientError(e) && e.code).toBe("RACKFORM_ERR_MAAS_CHECKSUM");
    expect((e as Error).message).toContain("Saved content does not match given SHA256 value.");
    const left = await findUploadedImage(client.catalog, "custom/big-2.0", "amd64/generic");
    expect(left?.file?.complete).toBe(false);
  });

  it("resumes a killed upload from the bytes MAAS reports holding, sending only the rest", async () => {
    const path = join(dir, "big-3.0.img");
    writeFileSync(path, IMAGE);
    // A run killed after 5 chunks: MAAS holds 5 × 64 KiB of the file.
    const ac = new AbortController();
    let sent = 0;
    const killed = await ensureUploadedImage(
      client.catalog,
      spec("custom/big-3.0"),
      async () => {
        const src = await fileImageSource(path);
        return {
          size: src.size,
          async open(offset: number) {
            const inner = await src.open(offset);
            return (async function* () {
              for await (const piece of inner) {
                for (let at = 0; at < piece.length; at += CHUNK) {
                  yield piece.subarray(at, at + CHUNK);
                  sent += Math.min(CHUNK, piece.length - at);
                  if (sent >= 5 * CHUNK) ac.abort();
                }
              }
            })();
          },
        };
      },
      { chunkBytes: CHUNK, signal: ac.signal },
    ).catch((x: unknown) => x);
    expect(isClientError(killed)).toBe(true);
    const half = await findUploadedImage(client.catalog, "custom/big-3.0", "amd64/generic");
    const held = bytesHeld(half!.file!, await client.catalog.version());
    expect(half?.file?.complete).toBe(false);
    expect(held).toBe(5 * CHUNK);

    const before = puts();
    const out = await ensureUploadedImage(client.catalog, spec("custom/big-3.0"), () => fileImageSource(path), {
      chunkBytes: CHUNK,
    });
    expect(out).toMatchObject({ how: "resumed", fromByte: 5 * CHUNK, sentBytes: IMAGE.length - 5 * CHUNK });
    expect(out.resource.file).toMatchObject({ complete: true, sha256: SHA });
    expect(puts() - before).toBe(Math.ceil((IMAGE.length - 5 * CHUNK) / CHUNK));
  });

  it("resumes from a URL with a ranged GET (Range: bytes=N-)", async () => {
    const ac = new AbortController();
    await ensureUploadedImage(
      client.catalog,
      spec("custom/big-4.0"),
      async () => {
        const src = await urlImageSource(core, `${images.url}big-1.0.qcow2`);
        return {
          size: src.size,
          async open() {
            return (async function* () {
              yield IMAGE.subarray(0, 3 * CHUNK);
              ac.abort();
              yield IMAGE.subarray(3 * CHUNK, 4 * CHUNK);
            })();
          },
        };
      },
      { chunkBytes: CHUNK, signal: ac.signal },
    ).catch(() => undefined);
    const out = await ensureUploadedImage(client.catalog, spec("custom/big-4.0"), () =>
      urlImageSource(core, `${images.url}big-1.0.qcow2`),
    );
    expect(out).toMatchObject({ how: "resumed", fromByte: 3 * CHUNK });
    expect(out.resource.file).toMatchObject({ complete: true, sha256: SHA });
    expect(images.requests.some((r) => r.method === "GET" && r.path.endsWith("big-1.0.qcow2"))).toBe(true);
  });

  it("reads MAAS 2.x's inverted progress (total/held) and 3.4+'s percentage alike", () => {
    const file = { filename: "f", filetype: "ddgz", sha256: SHA, size: 1000, complete: false };
    expect(bytesHeld({ ...file, progress: 1000 / 250 }, "2.9.2")).toBe(250);
    expect(bytesHeld({ ...file, progress: 25 }, "3.5.0")).toBe(250);
    expect(bytesHeld({ ...file, progress: 0 }, "3.3.4")).toBe(0);
  });
});
