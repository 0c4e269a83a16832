/**
 * Firmware images pushed through MultipartHttpPushUri (DSP0266 multipart push) to the DMTF public-rackmount1 mockup:
 * the image checked against its sha256 before anything is sent, the form's two parts, staging for the next reset,
 * and the task followed to its end.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { fileImageSource } from "../../../src/clients/images/source.js";
import { RedfishClient } from "../../../src/clients/redfish/client.js";
import { ImageDigestError, pushTarget, verifyImage } from "../../../src/clients/redfish/firmware-push.js";
import { fixture, type MockupServer, requireFixtures, startMockup } from "../../support/clients/mockup-server.js";

const cleanup: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

/** A firmware image file: a text header (version inside) and filler. */
function imageFile(text: string): { path: string; sha256: string } {
  const dir = mkdtempSync(join(tmpdir(), "rf-fw-"));
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, "bmc-7.20.bin");
  writeFileSync(path, text);
  return { path, sha256: createHash("sha256").update(text).digest("hex") };
}

async function rackmount(opts: Parameters<typeof startMockup>[1] = {}) {
  const server: MockupServer = await startMockup(join(requireFixtures(), "dmtf", "mockups", "public-rackmount1"), opts);
  const client = new RedfishClient({ baseUrl: server.url, username: "admin", password: "secret" });
  cleanup.push(
    () => server.close(),
    () => client.close(),
  );
  server.override("/redfish/v1/UpdateService", (j) => ({ ...j, MultipartHttpPushUri: "/redfish/v1/multipart-push" }));
  return { server, client };
}

describe("firmware push", () => {
  it("refuses an image whose sha256 differs, naming both hashes", async () => {
    const img = imageFile("RFIMG version=7.20\n".padEnd(4096, "x"));
    const source = await fileImageSource(img.path);
    await expect(verifyImage(source, img.sha256.toUpperCase())).resolves.toBeUndefined();
    const wrong = "0".repeat(64);
    const err = await verifyImage(source, wrong).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageDigestError);
    expect(err).toMatchObject({ code: "RACKFORM_ERR_IMAGE_DIGEST", expected: wrong, actual: img.sha256 });
  });

  it("sends UpdateParameters and the image as multipart parts, staged OnReset, and follows the task", async () => {
    const { server, client } = await rackmount();
    const text = "RFIMG version=7.20\n".padEnd(70_000, "y");
    const img = imageFile(text);
    const targets = ["/redfish/v1/UpdateService/FirmwareInventory/BMC"];
    const done = await client.pushFirmware(
      { source: await fileImageSource(img.path), filename: "bmc-7.20.bin", targets },
      { sleep: async () => undefined },
    );
    expect(done).toMatchObject({ state: "Completed", messages: ["The update of BMC completed."] });
    const post = server.seen.find((s) => s.method === "POST" && s.path === "/redfish/v1/multipart-push");
    const boundary = /boundary=(\S+)/.exec(String(post?.headers["content-type"]))?.[1];
    expect(boundary).toBeTruthy();
    expect(Number(post?.headers["content-length"])).toBe(Buffer.byteLength(post?.body ?? ""));
    const parts = (post?.body ?? "").split(`--${boundary}`).slice(1, -1);
    expect(parts).toHaveLength(2);
    expect(parts[0]).toContain('name="UpdateParameters"');
    expect(JSON.parse(parts[0].split("\r\n\r\n")[1])).toEqual({
      Targets: targets,
      "@Redfish.OperationApplyTime": "OnReset",
    });
    expect(parts[1]).toContain('name="UpdateFile"; filename="bmc-7.20.bin"');
    expect(parts[1].split("\r\n\r\n")[1]).toBe(`${text}\r\n`);
  });

  it("asks for OnReset only where the service allows it, and reports a service without multipart push", async () => {
    const svc = fixture("dmtf/mockups/public-rackmount1/UpdateService/index.json");
    expect(pushTarget(svc)).toEqual({ onReset: true });
    const immediateOnly = {
      ...svc,
      MultipartHttpPushUri: "/up",
      HttpPushUriOptions: { HttpPushUriApplyTime: { "ApplyTime@Redfish.AllowableValues": ["Immediate"] } },
    };
    expect(pushTarget(immediateOnly)).toEqual({ multipartUri: "/up", onReset: false });
    const { server, client } = await rackmount();
    server.override("/redfish/v1/UpdateService", (j) => ({ ...j, MultipartHttpPushUri: undefined }));
    const img = imageFile("RFIMG version=1\n");
    const err = await client
      .pushFirmware({ source: await fileImageSource(img.path), filename: "x.bin", targets: [] })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "RACKFORM_ERR_REDFISH_ACTION_UNSUPPORTED" });
  });
});
