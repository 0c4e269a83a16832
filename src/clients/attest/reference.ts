/**
 * Reference values the user pins, and the comparison of measurements with them.
 *
 * The document is a JSON subset of what CoRIM (draft-ietf-rats-corim) expresses as reference-value triples: each
 * reference is one triple whose environment is a class (`vendor`, `model`) and whose measurements are measurement-maps
 * keyed by the SPDM measurement index (`mkey` as an unsigned integer), each with a `digests` entry (one algorithm and
 * value), all under the firmware `version` (CoRIM's version-map) the component reports. Left out: CBOR and the COSE
 * signature of a signed CoRIM, instance and group identifiers, SVNs, raw values, flags, endorsements and conditional
 * endorsements — a document that is pinned by its sha256 needs no signature of its own.
 *
 * ```json
 * {"rackform_reference_values": 1,
 *  "references": [{"vendor": "NVIDIA", "model": "GH100", "version": "96.00.5E.00.01",
 *                  "measurements": [{"index": 1, "alg": "sha-384", "digest": "…96 hex digits…"}]}]}
 * ```
 */
import { AttestError } from "../errors.js";
import type { AttestProblem, Measured } from "./problems.js";

/** A digest algorithm of a reference value. */
export type ReferenceAlg = "sha-384" | "sha-256";

/** One reference digest: the measurement at `index` must equal `digest` (lower-case hex). */
export interface ReferenceMeasurement {
  readonly index: number;
  readonly alg: ReferenceAlg;
  readonly digest: string;
}

/** The reference for one firmware version of one (or any) vendor and model. */
export interface ReferenceEntry {
  readonly vendor?: string;
  readonly model?: string;
  readonly version: string;
  readonly measurements: readonly ReferenceMeasurement[];
}

/** A parsed reference-values document. */
export interface ReferenceValues {
  readonly references: readonly ReferenceEntry[];
}

const DIGEST_HEX: Readonly<Record<ReferenceAlg, number>> = { "sha-384": 96, "sha-256": 64 };

const bad = (path: string, what: string): never => {
  throw new AttestError("RACKFORM_ERR_ATTEST_INPUT", `reference values: ${path} ${what}`, { path });
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function only(obj: Record<string, unknown>, path: string, keys: readonly string[]): void {
  for (const k of Object.keys(obj))
    if (!keys.includes(k)) bad(`${path}.${k}`, `is not a known field (${keys.join(", ")})`);
}

function text(v: unknown, path: string, required: boolean): string | undefined {
  if (v === undefined && !required) return undefined;
  if (typeof v !== "string" || v.trim() === "") return bad(path, "must be a non-empty string");
  return v;
}

/** Parses and validates a document (JSON text or parsed); errors name the JSON path ("$.references[0].version"). */
export function parseReferenceValues(doc: unknown): ReferenceValues {
  let json = doc;
  if (typeof doc === "string") {
    try {
      json = JSON.parse(doc);
    } catch (e) {
      bad("$", `is not JSON: ${(e as Error).message}`);
    }
  }
  if (!isObject(json)) return bad("$", "must be an object");
  only(json, "$", ["rackform_reference_values", "references"]);
  if (json.rackform_reference_values !== 1) bad("$.rackform_reference_values", "must be 1 (the format's version)");
  if (!Array.isArray(json.references)) return bad("$.references", "must be an array");
  const seen = new Set<string>();
  const references = json.references.map((r, i) => {
    const entry = parseEntry(r, `$.references[${i}]`);
    const key = JSON.stringify([entry.vendor, entry.model, entry.version]);
    if (seen.has(key)) bad(`$.references[${i}]`, "repeats the vendor, model and version of an earlier entry");
    seen.add(key);
    return entry;
  });
  return { references };
}

function parseEntry(r: unknown, path: string): ReferenceEntry {
  if (!isObject(r)) return bad(path, "must be an object");
  only(r, path, ["vendor", "model", "version", "measurements"]);
  const vendor = text(r.vendor, `${path}.vendor`, false);
  const model = text(r.model, `${path}.model`, false);
  const version = text(r.version, `${path}.version`, true) as string;
  if (!Array.isArray(r.measurements) || r.measurements.length === 0) {
    return bad(`${path}.measurements`, "must be a non-empty array");
  }
  const indices = new Set<number>();
  const measurements = r.measurements.map((m, j): ReferenceMeasurement => {
    const p = `${path}.measurements[${j}]`;
    if (!isObject(m)) return bad(p, "must be an object");
    only(m, p, ["index", "alg", "digest"]);
    const index = m.index;
    if (typeof index !== "number" || !Number.isInteger(index) || index < 1 || index > 254) {
      return bad(`${p}.index`, "must be an SPDM measurement index (an integer 1–254)");
    }
    if (indices.has(index)) bad(`${p}.index`, `repeats index ${index}`);
    indices.add(index);
    const alg = m.alg;
    if (alg !== "sha-384" && alg !== "sha-256") return bad(`${p}.alg`, 'must be "sha-384" or "sha-256"');
    const digest = typeof m.digest === "string" ? m.digest.toLowerCase() : "";
    if (!new RegExp(`^[0-9a-f]{${DIGEST_HEX[alg]}}$`).test(digest)) {
      bad(`${p}.digest`, `must be ${DIGEST_HEX[alg]} hex digits (a ${alg} digest)`);
    }
    return { index, alg, digest };
  });
  return { ...(vendor ? { vendor } : {}), ...(model ? { model } : {}), version, measurements };
}

/** The firmware version a component reports: the raw measurement of type 6 (DSP0274 "mutable firmware's version"). */
export function measuredVersion(measured: readonly Measured[]): string | undefined {
  return measured.find((m) => m.raw && m.type === 6)?.text;
}

/**
 * Compares measurements with the reference for the version they report (an entry with a model applies only when it
 * equals `opts.model`; such an entry is preferred to one without): every index the reference lists must be measured
 * with the same algorithm and digest. Returns the problems, none when all match.
 */
export function compareReference(
  measured: readonly Measured[],
  refs: ReferenceValues,
  opts: { readonly model?: string; readonly component?: string } = {},
): AttestProblem[] {
  const c = opts.component ? { component: opts.component } : {};
  const version = measuredVersion(measured);
  if (version === undefined) {
    return [
      {
        kind: "no-reference",
        ...c,
        detail: "the component reports no firmware version (no raw measurement of type 6)",
      },
    ];
  }
  const fits = refs.references.filter(
    (r) => r.version === version && (r.model === undefined || r.model === opts.model),
  );
  const ref = fits.find((r) => r.model !== undefined) ?? fits[0];
  if (!ref) {
    const forModel = opts.model ? ` and model ${opts.model}` : "";
    return [
      { kind: "no-reference", ...c, version, detail: `no reference values for firmware version ${version}${forModel}` },
    ];
  }
  const problems: AttestProblem[] = [];
  for (const want of ref.measurements) {
    const got = measured.find((m) => m.index === want.index);
    const base = { kind: "measurement" as const, ...c, index: want.index, expected: want.digest };
    if (!got) {
      problems.push({
        ...base,
        detail: `index ${want.index}: not measured; the reference expects ${want.alg} ${want.digest}`,
      });
    } else if (got.raw || (got.alg !== undefined && got.alg !== want.alg)) {
      const how = got.raw ? "a raw value" : `a ${got.alg} digest`;
      problems.push({
        ...base,
        measured: got.valueHex,
        detail: `index ${want.index}: measured ${how}, the reference holds a ${want.alg} digest`,
      });
    } else if (got.valueHex !== want.digest) {
      problems.push({
        ...base,
        measured: got.valueHex,
        detail: `index ${want.index}: measured ${got.valueHex}, the reference for ${version} expects ${want.digest}`,
      });
    }
  }
  return problems;
}
