/**
 * Firmware files the image server serves with no setup: `firmware-<component>-<version>.rfimg` is the lab image
 * (redfish/fw-image.ts) of that component and version with a valid signature, `…-badsig.rfimg` the same with a wrong
 * one — so a firmware baseline can name a URL and a sha256 for any version without a test putting files first.
 */
import { createHash } from "node:crypto";
import { labFirmwareImage } from "../redfish/fw-image.js";
import { COMPONENTS, type Component } from "../world/model.js";

/** A firmware file name: component, version (letters, digits, `.`, `_`, `+`, `-`), optional `-badsig`. */
const FIRMWARE_FILE = /^firmware-(bmc|bios|gpu|nic)-([A-Za-z0-9][A-Za-z0-9._+-]*?)(-badsig)?\.rfimg$/;
/** A version that fits both the file name and the image header (`version=\S+`). */
const VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

/** A firmware file of the image server: its name under the server's URL, its bytes and their sha256. */
export interface LabFirmwareFile {
  /** File name, e.g. `firmware-bios-2.3.1.rfimg`: the URL is the image server's URL followed by it. */
  readonly name: string;
  /** Lower-case hex sha256 of `bytes`. */
  readonly sha256: string;
  readonly bytes: Buffer;
}

/**
 * The file the image server serves for `component` at `version`: a lab firmware image with a valid signature, or
 * with `badSignature` one whose SIG line is wrong (a BMC's push task ends in Exception). Throws on a component the
 * lab does not model or a version that cannot be a file name (spaces, `/`, a leading `.`) or ends in `-badsig`.
 */
export function labFirmwareFile(
  component: Component,
  version: string,
  opts: { readonly badSignature?: boolean } = {},
): LabFirmwareFile {
  if (!COMPONENTS.includes(component))
    throw new Error(`no lab firmware for component "${component}" (${COMPONENTS.join(", ")})`);
  if (!VERSION.test(version) || version.endsWith("-badsig"))
    throw new Error(`firmware version "${version}" cannot name a lab firmware file (letters, digits, . _ + - only)`);
  const bytes = labFirmwareImage({ component, version, ...(opts.badSignature ? { signature: "wrong" } : {}) });
  return {
    name: `firmware-${component}-${version}${opts.badSignature ? "-badsig" : ""}.rfimg`,
    sha256: createHash("sha256").update(bytes).digest("hex"),
    bytes,
  };
}

/** The bytes of `file` when it names a firmware file, else undefined. */
export function firmwareFileContent(file: string): Buffer | undefined {
  const m = FIRMWARE_FILE.exec(file);
  if (!m) return undefined;
  return labFirmwareFile(m[1] as Component, m[2], { badSignature: m[3] !== undefined }).bytes;
}
