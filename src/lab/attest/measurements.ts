/**
 * What a lab device measures, and the reference values its vendor publishes for it. The blocks follow DSP0274 1.2
 * §"Measurement block" with the DMTF measurement specification (DMTFSpecMeasurementValueType): index 1 immutable ROM,
 * 2 mutable firmware, 3 hardware configuration, 4 firmware configuration (SHA-384 digests), 5 the mutable firmware's
 * version as a raw bit stream. The digests are derived, not real: SHA-384 over (vendor, model, version, index) with a
 * fixed label, so a firmware update changes them and a verifier can look each one up in the reference document.
 */
import { createHash } from "node:crypto";

/** A device model at one firmware version. */
export interface MeasuredFirmware {
  /** The component's manufacturer (the reference's `vendor`). */
  readonly vendor: string;
  readonly model: string;
  /** The firmware version the device runs (index 5's text). */
  readonly version: string;
}

/** One DMTF measurement block's content. */
export interface MeasurementBlock {
  readonly index: number;
  /** DMTFSpecMeasurementValueType: bit 7 raw bit stream, bits 6:0 the type. */
  readonly type: number;
  readonly value: Buffer;
}

/** Indices a lab device reports, in order. */
export const MEASUREMENT_INDICES = [1, 2, 3, 4, 5] as const;
/** Indices carrying a SHA-384 digest (the ones a reference lists). */
export const DIGEST_INDICES = [1, 2, 3, 4] as const;
/** DMTFSpecMeasurementValueType per index: ROM 0x00, firmware 0x01, hardware config 0x02, firmware config 0x03. */
const TYPE_OF: Readonly<Record<number, number>> = { 1: 0x00, 2: 0x01, 3: 0x02, 4: 0x03, 5: 0x86 };

/**
 * The SHA-384 digest a device of `fw` reports at `index` (1–4). The immutable ROM (1) and the hardware configuration
 * (3) do not depend on the firmware version; the mutable firmware (2) and its configuration (4) do.
 */
export function measurementDigest(fw: MeasuredFirmware, index: number): Buffer {
  const versioned = index === 2 || index === 4;
  return createHash("sha384")
    .update(`rackform-lab-measurement\0${fw.vendor}\0${fw.model}\0${versioned ? fw.version : "-"}\0${index}`)
    .digest();
}

/** The block a device of `fw` reports at `index` (1–5). */
export function measurementBlock(fw: MeasuredFirmware, index: number): MeasurementBlock {
  const value = index === 5 ? Buffer.from(fw.version, "ascii") : measurementDigest(fw, index);
  return { index, type: TYPE_OF[index], value };
}

/** One reference entry of the lab's reference-values document. */
export interface ReferenceEntry {
  readonly vendor: string;
  readonly model: string;
  readonly version: string;
  readonly measurements: readonly { readonly index: number; readonly alg: "sha-384"; readonly digest: string }[];
}

/** The reference values a vendor publishes for `fw`: indices 1–4 as lower-case hex SHA-384. */
export function referenceEntry(fw: MeasuredFirmware): ReferenceEntry {
  return {
    vendor: fw.vendor,
    model: fw.model,
    version: fw.version,
    measurements: DIGEST_INDICES.map((index) => ({
      index,
      alg: "sha-384" as const,
      digest: measurementDigest(fw, index).toString("hex"),
    })),
  };
}

/** The reference-values document (a CoRIM-like subset; the lab README describes it). */
export interface ReferenceDocument {
  readonly rackform_reference_values: 1;
  readonly references: readonly ReferenceEntry[];
}

/** The document for a set of device firmware, one entry per distinct (vendor, model, version), sorted. */
export function referenceDocument(all: Iterable<MeasuredFirmware>): ReferenceDocument {
  const seen = new Map<string, MeasuredFirmware>();
  for (const fw of all) seen.set(`${fw.vendor}\0${fw.model}\0${fw.version}`, fw);
  const sorted = [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, fw]) => fw);
  return { rackform_reference_values: 1, references: sorted.map(referenceEntry) };
}
