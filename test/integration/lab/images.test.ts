// The lab image server as Ironic, IPA, an operator's MAAS upload and a firmware baseline see it: a static web server
// on loopback.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ImageServer, labFirmwareFile, labFirmwareImage, startImageServer } from "../../../src/lab/index.js";

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

describe("lab image server: firmware images", () => {
  it("serves firmware-<component>-<version>.rfimg as labFirmwareFile's bytes and sha256, -badsig with a wrong SIG", async () => {
    const good = labFirmwareFile("bios", "2.3.1");
    expect(good.name).toBe("firmware-bios-2.3.1.rfimg");
    expect(good.bytes).toEqual(labFirmwareImage({ component: "bios", version: "2.3.1" }));
    const r = await get(good.name);
    expect([r.status, sha256(r.body)]).toEqual([200, good.sha256]);
    expect(good.sha256).toBe(sha256(good.bytes));
    const head = await get("firmware-bmc-7.20.10.00.rfimg", { method: "HEAD" });
    expect(Number(head.headers.get("content-length"))).toBe(labFirmwareFile("bmc", "7.20.10.00").bytes.length);

    const bad = labFirmwareFile("bios", "2.3.1", { badSignature: true });
    expect(bad.name).toBe("firmware-bios-2.3.1-badsig.rfimg");
    expect(bad.bytes).toEqual(labFirmwareImage({ component: "bios", version: "2.3.1", signature: "wrong" }));
    expect(bad.sha256).not.toBe(good.sha256);
    const rb = await get(bad.name);
    expect([rb.status, sha256(rb.body)]).toEqual([200, bad.sha256]);
    expect(rb.body.toString("latin1").split("\n")[0]).toBe("RFIMG component=bios version=2.3.1");
  });

  it("answers 404 for an unknown component or a malformed name, and refuses versions that cannot be file names", async () => {
    expect((await get("firmware-psu-1.0.rfimg")).status).toBe(404);
    expect((await get("firmware-bios-.rfimg")).status).toBe(404);
    expect((await get("firmware-bios-2.3.1.bin")).status).toBe(404);
    expect(() => labFirmwareFile("bios", "U59 v2.30")).toThrow(/cannot name a lab firmware file/);
    expect(() => labFirmwareFile("psu" as "bios", "1.0")).toThrow(/no lab firmware for component "psu"/);
  });
});
