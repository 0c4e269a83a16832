/** The AutoMTLS certificate that go-plugin's client pins: self-signed, CA, SAN localhost, server and client auth. */
import { execFileSync } from "node:child_process";
import { X509Certificate } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateCertificate } from "../../../src/protocol/index.js";
import { handshakeCertField } from "../../../src/protocol/tls.js";

describe("generateCertificate", () => {
  it("GIVEN a fresh certificate THEN it verifies against itself and names localhost as go-plugin's client expects", async () => {
    const c = await generateCertificate();
    const x = new X509Certificate(c.certPem);
    expect(x.verify(x.publicKey)).toBe(true);
    expect(x.ca).toBe(true);
    expect(x.checkHost("localhost")).toBe("localhost");
    expect(x.subjectAltName).toBe("DNS:localhost");
    expect(x.raw.equals(c.certDer)).toBe(true);
    expect(new Date(x.validFrom).getTime()).toBeLessThan(Date.now());
    expect(new Date(x.validTo).getTime()).toBeGreaterThan(Date.now() + 365 * 24 * 3600_000);
  });

  it("GIVEN a certificate THEN openssl reads serverAuth and clientAuth usages and a critical CA constraint", async () => {
    const c = await generateCertificate();
    const text = execFileSync("openssl", ["x509", "-noout", "-text"], { input: c.certPem }).toString();
    expect(text).toMatch(/TLS Web Server Authentication, TLS Web Client Authentication/);
    expect(text).toMatch(/Basic Constraints: critical\s+CA:TRUE/);
    expect(text).toContain("ecdsa-with-SHA256");
  });

  it("GIVEN two certificates THEN keys and serials differ (fresh per process)", async () => {
    const [a, b] = [await generateCertificate(), await generateCertificate()];
    expect(a.keyPem).not.toBe(b.keyPem);
    expect(new X509Certificate(a.certPem).serialNumber).not.toBe(new X509Certificate(b.certPem).serialNumber);
  });

  it("GIVEN DER bytes THEN the handshake field is standard base64 without padding", () => {
    expect(handshakeCertField(Buffer.from([1, 2, 3, 4]))).toBe("AQIDBA");
  });
});
