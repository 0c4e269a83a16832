/**
 * The SPDM transcript parser and verifier against transcripts this test builds from DSP0274's layouts with node:crypto
 * (test/support/attest/spdm-builder.ts): a good answer, and each way an answer must fail — a tampered measurement, a
 * replayed nonce, an unknown CA, an expired leaf, a truncated transcript, a non-CA anchor — and a 1.1 answer without VCA.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { parseTranscript, verifyAnswer } from "../../../../src/clients/attest/index.js";
import { isClientError } from "../../../../src/clients/errors.js";
import { buildTranscript, labBlocks, makePki, valueOffset } from "../../../support/attest/spdm-builder.js";

type Pki = Awaited<ReturnType<typeof makePki>>;
let pki: Pki;
const NOW = new Date("2026-11-27T12:00:00Z");
const nonce = () => randomBytes(32).toString("hex");

beforeAll(async () => {
  pki = await makePki();
});

describe("SPDM 1.2 answer", () => {
  it("verifies a good answer: nonce, signature over prefix || SHA-384(L2), chain to the anchor; reads the blocks", async () => {
    const n = nonce();
    const blocks = labBlocks("96.00.5E.00.01");
    const t = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks });
    const r = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: n,
      chainPem: pki.chainPem,
      trustAnchorsPem: pki.root.pem,
      now: NOW,
    });
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
    expect(r.version).toBe("1.2");
    expect(r.leafSubject).toBe("CN=GPU0 serial 1234, O=GPU Vendor");
    expect(r.measurements.map((m) => m.index)).toEqual([1, 2, 3, 4, 5]);
    expect(r.measurements[1]).toEqual({
      index: 2,
      type: 1,
      raw: false,
      valueHex: blocks[1].value.toString("hex"),
      alg: "sha-384",
    });
    expect(r.measurements[4]).toMatchObject({ index: 5, type: 6, raw: true, text: "96.00.5E.00.01" });
  });

  it("trusts an intermediate CA given as the anchor, and a chain in root-first order", async () => {
    const n = nonce();
    const t = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0") });
    const rootFirst = pki.root.pem + pki.vendor.pem + pki.leaf.pem;
    const r = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: n,
      chainPem: rootFirst,
      trustAnchorsPem: [pki.vendor.pem],
      now: NOW,
    });
    expect(r.problems).toEqual([]);
  });

  it("fails a tampered measurement byte: the signature does not verify", async () => {
    const n = nonce();
    const blocks = labBlocks("1.0");
    const t = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks });
    const tampered = Buffer.from(t.bytes);
    tampered[valueOffset(blocks, 2)] ^= 0x01;
    const r = await verifyAnswer({
      transcriptB64: tampered.toString("base64"),
      nonceHex: n,
      chainPem: pki.chainPem,
      trustAnchorsPem: pki.root.pem,
      now: NOW,
      component: "GPU_0",
    });
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([expect.objectContaining({ kind: "signature", component: "GPU_0" })]);
  });

  it("fails an answer carrying another requester nonce as a replay, naming both nonces", async () => {
    const old = nonce();
    const sent = nonce();
    const t = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: old, blocks: labBlocks("1.0") });
    const r = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: sent,
      chainPem: pki.chainPem,
      trustAnchorsPem: pki.root.pem,
      now: NOW,
    });
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([expect.objectContaining({ kind: "replay", expected: sent, measured: old })]);
  });

  it("fails a chain rooted in a CA the user does not trust", async () => {
    const other = await makePki({ rootName: "Unknown Root CA" });
    const n = nonce();
    const t = buildTranscript({ signer: other.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0") });
    const r = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: n,
      chainPem: other.chainPem,
      trustAnchorsPem: pki.root.pem,
      now: NOW,
    });
    expect(r.ok).toBe(false);
    expect(r.problems).toEqual([expect.objectContaining({ kind: "chain" })]);
    expect(r.problems[0].detail).toContain("CN=Unknown Root CA");
  });

  it("fails a signature by a key other than the leaf's", async () => {
    const other = await makePki();
    const n = nonce();
    const t = buildTranscript({ signer: other.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0") });
    const r = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: n,
      chainPem: pki.chainPem,
      trustAnchorsPem: pki.root.pem,
      now: NOW,
    });
    expect(r.problems.map((p) => p.kind)).toEqual(["signature"]);
  });

  it("fails an expired leaf (validity at `now`)", async () => {
    const expired = await makePki({ leafNotAfter: new Date("2026-06-01T00:00:00Z") });
    const n = nonce();
    const t = buildTranscript({ signer: expired.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0") });
    const input = { transcriptB64: t.b64, nonceHex: n, chainPem: expired.chainPem, trustAnchorsPem: expired.root.pem };
    const r = await verifyAnswer({ ...input, now: NOW });
    expect(r.problems).toEqual([expect.objectContaining({ kind: "validity" })]);
    expect(r.problems[0].detail).toMatch(/leaf certificate .*expired at 2026-06-01/);
    expect((await verifyAnswer({ ...input, now: new Date("2026-03-01T00:00:00Z") })).ok).toBe(true);
  });

  it("fails an unsigned answer", async () => {
    const n = nonce();
    const t = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0"), unsigned: true });
    const r = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: n,
      chainPem: pki.chainPem,
      trustAnchorsPem: pki.root.pem,
      now: NOW,
    });
    expect(r.problems.map((p) => p.kind)).toEqual(["unsigned"]);
  });

  it("verifies P-256 with SHA-256 where ALGORITHMS selects it", async () => {
    const p256 = await makePki({ curve: "P-256" });
    const n = nonce();
    const t = buildTranscript({ signer: p256.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0"), curve: "P-256" });
    const r = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: n,
      chainPem: p256.chainPem,
      trustAnchorsPem: p256.root.pem,
      now: NOW,
    });
    expect(r.problems).toEqual([]);
  });
});

describe("malformed transcripts and bad inputs", () => {
  it("reports a truncated transcript as a transcript problem naming the offset and what was expected", async () => {
    const n = nonce();
    const t = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0") });
    const cut = t.bytes.subarray(0, t.bytes.length - 150);
    const r = await verifyAnswer({
      transcriptB64: cut.toString("base64"),
      nonceHex: n,
      chainPem: pki.chainPem,
      trustAnchorsPem: pki.root.pem,
      now: NOW,
    });
    expect(r.ok).toBe(false);
    expect(r.problems).toHaveLength(1);
    expect(r.problems[0].kind).toBe("transcript");
    expect(r.problems[0].detail).toMatch(/^SPDM transcript, offset \d+: expected MEASUREMENTS: \w+/);
    expect(() => parseTranscript(cut.toString("base64"))).toThrow(/offset \d+/);
  });

  it("names the message whose Length disagrees with its fields", () => {
    const n = nonce();
    const t = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0") });
    const bad = Buffer.from(t.bytes);
    // GET_VERSION (4) + VERSION (10) + GET_CAPABILITIES (20) + CAPABILITIES (20): NEGOTIATE_ALGORITHMS' Length at +4.
    bad.writeUInt16LE(bad.readUInt16LE(58) + 4, 58);
    expect(() => parseTranscript(bad.toString("base64"))).toThrow(/offset 58: NEGOTIATE_ALGORITHMS Length says/);
  });

  it("refuses a trust anchor that is not a CA certificate, naming it (an input error, thrown)", async () => {
    const n = nonce();
    const t = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0") });
    const e = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: n,
      chainPem: pki.chainPem,
      trustAnchorsPem: [pki.root.pem, pki.leaf.pem],
      now: NOW,
    }).catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_ATTEST_INPUT")).toBe(true);
    expect((e as Error).message).toMatch(
      /^trust anchor 2 \(CN=GPU0 serial 1234, O=GPU Vendor\) is not a CA certificate/,
    );
  });
});

describe("SPDM 1.1 answer (GET_MEASUREMENTS || MEASUREMENTS, no VCA)", () => {
  it("verifies the signature over L1 without prefix, the hash taken from the answer's HashingAlgorithm", async () => {
    const n = nonce();
    const t = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks: labBlocks("2.0"), version: 0x11 });
    expect(t.bytes[0]).toBe(0x11);
    expect(t.bytes[1]).toBe(0xe0);
    const r = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: n,
      chainPem: pki.chainPem,
      trustAnchorsPem: pki.root.pem,
      now: NOW,
      hashingAlgorithm: "TPM_ALG_SHA_384",
    });
    expect(r.problems).toEqual([]);
    expect(r.version).toBe("1.1");
    // Without ALGORITHMS the measurement hash is not known: digests carry no alg.
    expect(r.measurements[0].alg).toBeUndefined();
  });

  it("refuses a 1.2 transcript that starts without VCA", () => {
    const t = buildTranscript({
      signer: pki.leaf.privateKey,
      nonceHex: nonce(),
      blocks: labBlocks("2.0"),
      version: 0x11,
    });
    const as12 = Buffer.from(t.bytes);
    as12[0] = 0x12;
    expect(() => parseTranscript(as12.toString("base64"))).toThrow(/SPDM 1.2 transcript starts without VCA/);
  });
});
