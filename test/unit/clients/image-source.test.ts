/** The sha256 an image server announces, read from the headers real servers and object stores send. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { announcedSha256 } from "../../../src/clients/images/source.js";

const bytes = Buffer.from("ubuntu-gpu-2026.06.2");
const hex = createHash("sha256").update(bytes).digest("hex");
const b64 = createHash("sha256").update(bytes).digest("base64");

describe("announcedSha256", () => {
  it("reads RFC 9530 Repr-Digest and RFC 3230 Digest (base64 sha-256)", () => {
    expect(announcedSha256({ "repr-digest": `sha-512=:abc=:, sha-256=:${b64}:` })).toBe(hex);
    expect(announcedSha256({ digest: `SHA-256=${b64}` })).toBe(hex);
  });

  it("reads S3's x-amz-checksum-sha256 (base64) and Artifactory's X-Checksum-Sha256 (hex)", () => {
    expect(announcedSha256({ "x-amz-checksum-sha256": b64 })).toBe(hex);
    expect(announcedSha256({ "x-checksum-sha256": hex.toUpperCase() })).toBe(hex);
  });

  it("says nothing when the server announces no sha256 (an ETag or an md5 is not one)", () => {
    expect(announcedSha256({ etag: '"abc"', "content-md5": "1B2M2Y8AsgTpgAmY7PhCfg==" })).toBeUndefined();
  });
});
