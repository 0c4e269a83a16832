// The lab image server as Ironic, IPA and an operator's MAAS upload see it: a static web server on loopback.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ImageServer, startImageServer } from "../../../src/lab/index.js";

let images: ImageServer;
beforeAll(async () => {
  images = await startImageServer();
});
afterAll(async () => images?.close());

const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest("hex");
const get = async (file: string, init: RequestInit = {}) => {
  const r = await fetch(`${images.url}${file}`, init);
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
};

describe("lab image server", () => {
  it("serves a demo golden image with the sha256 the demo writes, and the IPA kernel and ramdisk", async () => {
    const r = await get("ubuntu-gpu-2026.06.2.qcow2");
    expect(r.status).toBe(200);
    expect(sha256(r.body)).toBe("762af2a3c180385ab91b1ae939b9f4a73a621fd01ac43a2ab212826e610acf39");
    expect((await get("ipa.kernel")).status).toBe(200);
    expect((await get("ipa.initramfs")).status).toBe(200);
  });

  it("answers HEAD with the length and no body, a range with 206, and an unknown file with 404", async () => {
    const head = await get("ubuntu-gpu-2026.06.2.qcow2", { method: "HEAD" });
    expect([head.status, head.headers.get("content-length"), head.body.length]).toEqual([200, "20", 0]);
    const part = await get("ubuntu-gpu-2026.06.2.qcow2", { headers: { Range: "bytes=0-0" } });
    expect([part.status, part.headers.get("content-range"), part.body.toString()]).toEqual([206, "bytes 0-0/20", "u"]);
    expect((await get("nothing-here.img")).status).toBe(404);
    expect((await get("ubuntu-gpu-2026.06.2.qcow2", { method: "DELETE" })).status).toBe(405);
  });

  it("serves what a test puts, 404s what it removes, and can refuse HEAD as some object stores do", async () => {
    images.put("ubuntu-gpu-2026.06.2.qcow2", "a tampered build");
    expect((await get("ubuntu-gpu-2026.06.2.qcow2")).body.toString()).toBe("a tampered build");
    images.remove("ubuntu-gpu-2026.06.2.qcow2");
    expect((await get("ubuntu-gpu-2026.06.2.qcow2")).status).toBe(404);
    images.refuseHead(true);
    expect((await get("ubuntu-gpu-2026.07.1.qcow2", { method: "HEAD" })).status).toBe(405);
    expect((await get("ubuntu-gpu-2026.07.1.qcow2")).status).toBe(200);
    images.refuseHead(false);
    expect(images.requests.at(-1)).toMatchObject({ method: "GET", status: 200 });
  });
});
