/**
 * Unit: the lab's attestation pieces on their own — the DER certificates it writes read back with @peculiar/x509 as
 * RFC 5280 says they should (a CA with basicConstraints cA and keyCertSign, a leaf without), measurements derive
 * deterministically from (vendor, model, version, index), and the reference document lists each firmware once.
 */
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { describe, expect, it } from "vitest";
import { measurementBlock, measurementDigest, referenceDocument } from "../../../src/lab/attest/measurements.js";
import { LabPki } from "../../../src/lab/attest/pki.js";
import { combinedPrefix } from "../../../src/lab/attest/spdm.js";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const blocks = (pem: string) => pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];

describe("lab attestation building blocks", () => {
  it("writes a chain @peculiar/x509 reads: root and intermediate are CAs, the leaf is not, each signed by the next", async () => {
    const pki = new LabPki();
    const device = { id: "n1/GPU_1", manufacturer: "NVIDIA", commonName: "NVIDIA H100 80GB HBM3 1650000000001" };
    const [leaf, inter, root] = blocks(pki.chainPem(device)).map((p) => new x509.X509Certificate(p));
    expect(new x509.X509Certificate(pki.rootPem()).equal(root)).toBe(true);
    expect(leaf.subject).toContain("CN=NVIDIA H100 80GB HBM3 1650000000001");
    expect(leaf.issuer).toBe(inter.subject);
    expect(inter.issuer).toBe(root.subject);
    expect(leaf.signatureAlgorithm).toMatchObject({ name: "ECDSA", hash: { name: "SHA-384" } });
    expect(leaf.publicKey.algorithm).toMatchObject({ name: "ECDSA", namedCurve: "P-384" });
    for (const [cert, issuer] of [
      [leaf, inter],
      [inter, root],
      [root, root],
    ] as const)
      expect(await cert.verify({ publicKey: issuer.publicKey, signatureOnly: true })).toBe(true);
    expect(root.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(true);
    expect(inter.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(true);
    expect(leaf.getExtension(x509.BasicConstraintsExtension)?.ca).toBe(false);
    expect(inter.getExtension(x509.KeyUsagesExtension)?.usages).toBe(
      x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
    );
    expect(leaf.getExtension(x509.KeyUsagesExtension)?.usages).toBe(x509.KeyUsageFlags.digitalSignature);
    const aki = leaf.getExtension(x509.AuthorityKeyIdentifierExtension)?.keyId;
    expect(aki).toBe(inter.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId);
    // The same device keeps its certificate; a second lab has another root.
    expect(pki.chainPem(device)).toBe(pki.chainPem(device));
    expect(new LabPki().rootPem()).not.toBe(pki.rootPem());
    // The rogue chain: same device key, another root.
    const rogue = blocks(pki.chainPem(device, true)).map((p) => new x509.X509Certificate(p));
    expect(rogue[2].equal(root)).toBe(false);
    expect(Buffer.from(rogue[0].publicKey.rawData).equals(Buffer.from(leaf.publicKey.rawData))).toBe(true);
  });

  it("measurements derive from (vendor, model, version, index): an update moves indices 2 and 4, not 1 and 3", () => {
    const a = { vendor: "NVIDIA", model: "H100", version: "96.00.89.00.01" };
    const b = { ...a, version: "97.00.01" };
    expect(measurementDigest(a, 2).equals(measurementDigest({ ...a }, 2))).toBe(true);
    expect(measurementDigest(a, 2).equals(measurementDigest(b, 2))).toBe(false);
    expect(measurementDigest(a, 4).equals(measurementDigest(b, 4))).toBe(false);
    expect(measurementDigest(a, 1).equals(measurementDigest(b, 1))).toBe(true);
    expect(measurementDigest(a, 3).equals(measurementDigest({ ...a, model: "B200" }, 3))).toBe(false);
    expect(measurementDigest(a, 2)).toHaveLength(48);
    expect(measurementBlock(a, 5)).toEqual({ index: 5, type: 0x86, value: Buffer.from("96.00.89.00.01") });
    const doc = referenceDocument([b, a, a]);
    expect(doc.rackform_reference_values).toBe(1);
    expect(doc.references.map((r) => r.version)).toEqual(["96.00.89.00.01", "97.00.01"]);
    expect(doc.references[0].measurements.map((m) => m.index)).toEqual([1, 2, 3, 4]);
  });

  it("the combined SPDM 1.2 prefix is 100 bytes: four version strings, zero padding, the context", () => {
    const p = combinedPrefix();
    expect(p).toHaveLength(100);
    expect(p.subarray(0, 64).toString()).toBe("dmtf-spdm-v1.2.*".repeat(4));
    expect(p.subarray(64, 70).equals(Buffer.alloc(6))).toBe(true);
    expect(p.subarray(70).toString()).toBe("responder-measurements signing");
  });
});
