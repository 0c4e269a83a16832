/** Reference values: the document's validation (errors name the JSON path) and the comparison with measurements. */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { compareReference, type Measured, parseReferenceValues } from "../../../../src/clients/attest/index.js";
import { isClientError } from "../../../../src/clients/errors.js";

const d384 = (s: string) => createHash("sha384").update(s).digest("hex");
const digest = (index: number, seed: string): Measured => ({
  index,
  type: index - 1,
  raw: false,
  valueHex: d384(seed),
  alg: "sha-384",
});
const version = (text: string): Measured => ({
  index: 5,
  type: 6,
  raw: true,
  valueHex: Buffer.from(text).toString("hex"),
  text,
});

const measured = [digest(1, "rom"), digest(2, "fw"), digest(3, "hw"), digest(4, "cfg"), version("96.00.5E.00.01")];

const doc = (references: unknown[]) => ({ rackform_reference_values: 1, references });
const entry = (over: Record<string, unknown> = {}) => ({
  version: "96.00.5E.00.01",
  measurements: [
    { index: 1, alg: "sha-384", digest: d384("rom") },
    { index: 2, alg: "sha-384", digest: d384("fw").toUpperCase() },
    { index: 3, alg: "sha-384", digest: d384("hw") },
    { index: 4, alg: "sha-384", digest: d384("cfg") },
  ],
  ...over,
});

function inputError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(isClientError(e, "RACKFORM_ERR_ATTEST_INPUT")).toBe(true);
    return (e as Error).message;
  }
  throw new Error("expected an input error");
}

describe("reference values document", () => {
  it("parses a document (JSON text too), digests lower-cased", () => {
    const refs = parseReferenceValues(JSON.stringify(doc([entry({ vendor: "NVIDIA", model: "GH100" })])));
    expect(refs.references[0]).toMatchObject({ vendor: "NVIDIA", model: "GH100", version: "96.00.5E.00.01" });
    expect(refs.references[0].measurements[1].digest).toBe(d384("fw"));
  });

  it("fails a bad document naming the JSON path", () => {
    expect(inputError(() => parseReferenceValues("{"))).toMatch(/^reference values: \$ is not JSON/);
    expect(inputError(() => parseReferenceValues({ ...doc([]), rackform_reference_values: 2 }))).toMatch(
      /\$\.rackform_reference_values must be 1/,
    );
    const shortDigest = entry();
    (shortDigest.measurements[2] as { digest: string }).digest = "abcd";
    expect(inputError(() => parseReferenceValues(doc([entry(), shortDigest])))).toBe(
      "reference values: $.references[1].measurements[2].digest must be 96 hex digits (a sha-384 digest)",
    );
    expect(inputError(() => parseReferenceValues(doc([entry({ version: "" })])))).toMatch(
      /\$\.references\[0\]\.version must be a non-empty string/,
    );
    expect(inputError(() => parseReferenceValues(doc([entry({ digests: [] })])))).toMatch(
      /\$\.references\[0\]\.digests is not a known field/,
    );
    const md5 = entry();
    (md5.measurements[0] as { alg: string }).alg = "md5";
    expect(inputError(() => parseReferenceValues(doc([md5])))).toMatch(
      /measurements\[0\]\.alg must be "sha-384" or "sha-256"/,
    );
    expect(inputError(() => parseReferenceValues(doc([entry(), entry()])))).toMatch(/\$\.references\[1\] repeats/);
  });
});

describe("compareReference", () => {
  it("finds no problem when every referenced index matches", () => {
    expect(compareReference(measured, parseReferenceValues(doc([entry()])))).toEqual([]);
  });

  it("reports each mismatch with its index, expected and measured digests", () => {
    const tampered = measured.map((m) => (m.index === 2 ? digest(2, "evil") : m));
    const problems = compareReference(tampered, parseReferenceValues(doc([entry()])), { component: "GPU_0" });
    expect(problems).toEqual([
      expect.objectContaining({
        kind: "measurement",
        component: "GPU_0",
        index: 2,
        expected: d384("fw"),
        measured: d384("evil"),
      }),
    ]);
  });

  it("reports a version with no reference", () => {
    const other = measured.map((m) => (m.index === 5 ? version("97.00.00.00.00") : m));
    expect(compareReference(other, parseReferenceValues(doc([entry()])))).toEqual([
      expect.objectContaining({ kind: "no-reference", version: "97.00.00.00.00" }),
    ]);
    expect(compareReference(measured.slice(0, 4), parseReferenceValues(doc([entry()])))[0]).toMatchObject({
      kind: "no-reference",
    });
  });

  it("applies an entry with a model only to that model, and prefers it to a model-less one", () => {
    const refs = parseReferenceValues(
      doc([
        entry({ model: "GH100" }),
        entry({ model: "GB200", measurements: [{ index: 1, alg: "sha-384", digest: d384("other rom") }] }),
      ]),
    );
    expect(compareReference(measured, refs, { model: "GH100" })).toEqual([]);
    expect(compareReference(measured, refs, { model: "GB200" })).toEqual([
      expect.objectContaining({ kind: "measurement", index: 1 }),
    ]);
    expect(compareReference(measured, refs, { model: "H200" })).toEqual([
      expect.objectContaining({ kind: "no-reference" }),
    ]);
    expect(compareReference(measured, refs)).toEqual([expect.objectContaining({ kind: "no-reference" })]);
    const withGeneric = parseReferenceValues(
      doc([entry({ measurements: [{ index: 1, alg: "sha-384", digest: d384("x") }] }), entry({ model: "GH100" })]),
    );
    expect(compareReference(measured, withGeneric, { model: "GH100" })).toEqual([]);
  });

  it("reports an index the reference lists but the component did not measure, and a digest of another algorithm", () => {
    const refs = parseReferenceValues(doc([entry()]));
    const missing = compareReference(
      measured.filter((m) => m.index !== 3),
      refs,
    );
    expect(missing).toEqual([expect.objectContaining({ kind: "measurement", index: 3, expected: d384("hw") })]);
    expect(missing[0].measured).toBeUndefined();
    const sha256 = measured.map((m) => (m.index === 4 ? { ...m, alg: "sha-256" as const } : m));
    expect(compareReference(sha256, refs)).toEqual([expect.objectContaining({ kind: "measurement", index: 4 })]);
  });
});
