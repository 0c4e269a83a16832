/**
 * The SPDM transcript parser on its own: the fields it reads from each message of a transcript built per DSP0274, and
 * a clear error (offset, what was expected) for each way the bytes can be wrong.
 */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { parseTranscript, verifyAnswer } from "../../../../src/clients/attest/index.js";
import { isClientError } from "../../../../src/clients/errors.js";
import { buildTranscript, labBlocks, makePki, measurementPair, vca } from "../../../support/attest/spdm-builder.js";

let pki: Awaited<ReturnType<typeof makePki>>;
beforeAll(async () => {
  pki = await makePki();
});
const nonce = () => randomBytes(32).toString("hex");

function transcriptError(b64: string): string {
  try {
    parseTranscript(b64);
  } catch (e) {
    expect(isClientError(e, "RACKFORM_ERR_ATTEST_TRANSCRIPT")).toBe(true);
    return (e as Error).message;
  }
  throw new Error("expected a transcript error");
}

describe("parseTranscript", () => {
  it("reads ALGORITHMS, the request's nonce and slot, the blocks, opaque data and signature", () => {
    const n = nonce();
    const t = buildTranscript({
      signer: pki.leaf.privateKey,
      nonceHex: n,
      blocks: labBlocks("1.2.3"),
      slotId: 2,
      opaque: Buffer.from("opaque!"),
    });
    const p = parseTranscript(t.b64);
    expect(p.version).toBe(0x12);
    expect(p.algorithms).toEqual({ measurementSpecSel: 1, measurementHashAlgo: 4, baseAsymSel: 0x80, baseHashSel: 2 });
    const { request, response } = p.pairs[0];
    expect(request).toMatchObject({ signatureRequested: true, operation: 0xff, slotId: 2 });
    expect(request.nonce?.toString("hex")).toBe(n);
    expect(response.slotId).toBe(2);
    expect(response.blocks.map((b) => [b.index, b.type, b.raw])).toEqual([
      [1, 0, false],
      [2, 1, false],
      [3, 2, false],
      [4, 3, false],
      [5, 6, true],
    ]);
    expect(response.opaque.toString()).toBe("opaque!");
    expect(response.signature).toHaveLength(96);
    expect(p.signatureOffset).toBe(t.bytes.length - 96);
  });

  it("walks earlier unsigned exchanges before the signed one, all under the signature", async () => {
    const n = nonce();
    const early = measurementPair({ nonceHex: n, blocks: labBlocks("9.9").slice(0, 2), unsigned: true });
    const t = buildTranscript({
      signer: pki.leaf.privateKey,
      nonceHex: n,
      blocks: labBlocks("1.0").slice(2),
      before: early,
    });
    expect(parseTranscript(t.b64).pairs.map((x) => x.request.signatureRequested)).toEqual([false, true]);
    const r = await verifyAnswer({
      transcriptB64: t.b64,
      nonceHex: n,
      chainPem: pki.chainPem,
      trustAnchorsPem: pki.root.pem,
      now: new Date("2026-11-27T00:00:00Z"),
    });
    expect(r.problems).toEqual([]);
    expect(r.measurements.map((m) => m.index)).toEqual([1, 2, 3, 4, 5]);
  });

  it("fails each malformed part with its offset and what was expected", () => {
    const n = nonce();
    const good = buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0") }).bytes;
    const vcaLength = vca("P-384").length;
    expect(transcriptError("not base64!")).toBe("SPDM transcript: SignedMeasurements is not base64");
    expect(transcriptError(Buffer.from([0x12, 0x99, 0, 0]).toString("base64"))).toBe(
      "SPDM transcript, offset 1: expected GET_VERSION (0x84) or GET_MEASUREMENTS (0xE0), found code 0x99",
    );
    // A block whose MeasurementSpecification is not DMTF.
    const spec = Buffer.from(good);
    spec[vcaLength + 4 + 33 + 8 + 1] = 0x02;
    expect(transcriptError(spec.toString("base64"))).toMatch(
      new RegExp(
        `^SPDM transcript, offset ${vcaLength + 45}: block 1 \\(index 1\\) uses MeasurementSpecification 0x02`,
      ),
    );
    // A signature one byte short of what ALGORITHMS (P-384: 96 bytes) implies.
    expect(transcriptError(good.subarray(0, good.length - 1).toString("base64"))).toMatch(
      /expected a 96-byte Signature \(per ALGORITHMS\) ending the transcript, found 95 bytes/,
    );
    // GET_CAPABILITIES in a version VERSION did not offer (1.3).
    const v13 = Buffer.from(good);
    v13[14] = 0x13;
    expect(transcriptError(v13.toString("base64"))).toMatch(
      /offset 14: GET_CAPABILITIES uses version 1.3, which VERSION did not offer/,
    );
    // A message in another version than the negotiated one.
    const mixed = Buffer.from(good);
    mixed[vcaLength] = 0x11;
    expect(transcriptError(mixed.toString("base64"))).toBe(
      `SPDM transcript, offset ${vcaLength}: GET_MEASUREMENTS carries SPDMVersion 0x11, the negotiated version is 0x12`,
    );
    expect(transcriptError(good.subarray(0, vcaLength).toString("base64"))).toMatch(
      /expected GET_MEASUREMENTS after the VCA/,
    );
  });

  it("refuses bytes after a signed MEASUREMENTS in a transcript without ALGORITHMS (1.1)", () => {
    const t = buildTranscript({
      signer: pki.leaf.privateKey,
      nonceHex: nonce(),
      blocks: labBlocks("1.0"),
      version: 0x11,
    });
    // Without ALGORITHMS the signature is whatever follows the opaque data: the parser takes it whole.
    expect(parseTranscript(t.b64).pairs[0].response.signature).toHaveLength(96);
    const unsigned = buildTranscript({
      signer: pki.leaf.privateKey,
      nonceHex: nonce(),
      blocks: labBlocks("1.0"),
      version: 0x11,
      unsigned: true,
    });
    expect(transcriptError(Buffer.concat([unsigned.bytes, Buffer.from([0x11])]).toString("base64"))).toMatch(
      /expected GET_MEASUREMENTS: RequestResponseCode/,
    );
  });
});
