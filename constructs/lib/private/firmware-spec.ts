/**
 * A flavor's firmware baseline and BIOS settings: the JSON Schemas of Flavor's `firmware` and `bios` props, the rule
 * on BIOS attribute names, and what a node's rackform_firmware gets from them. The version's pattern is the provider's
 * (rackform_firmware `components.version`), so a baseline the provider would refuse fails at synth instead.
 */
import { Token } from "cdktf";
import type { FirmwareConfig } from "../../gen/providers/rackform/firmware/index.js";
import type { ValidationProblem } from "../errors.js";
import { isToken } from "./formats.js";
import { type PropsSchema, show } from "./validate.js";

/** A firmware image, as Flavor's `firmware` takes it. */
interface Image {
  readonly version: string;
  readonly url: string;
  readonly sha256: string;
}

/** What rackform_firmware takes from a flavor. */
export type FirmwareSettings = Pick<FirmwareConfig, "components" | "bios" | "secureBoot">;

/** A BIOS attribute name as AttributeRegistry spells them (AttributeName). */
const BIOS_NAME = /^[A-Za-z][A-Za-z0-9_.]*$/;

const IMAGE_SCHEMA: PropsSchema = {
  type: "object",
  additionalProperties: false,
  required: ["version", "url", "sha256"],
  expect: "a firmware version or an image { version, url, sha256 }",
  fix: 'give the version the node must already run, e.g. "2.3.1", or the image to flash: { version, url, sha256 }',
  properties: {
    version: {
      type: "string",
      pattern: "^[A-Za-z0-9][A-Za-z0-9._+:-]{0,127}$",
      expect: "a firmware version",
      fix: 'give the version FirmwareInventory reports once the image runs (letters, digits, . _ + - :), e.g. "2.3.1"',
    },
    url: {
      type: "string",
      format: "http-url",
      expect: "an http(s) URL",
      fix: "give the URL rackform reads the image from, e.g. http://images.example/bios-2.3.1.bin",
    },
    sha256: {
      type: "string",
      format: "sha256",
      expect: "a sha256 digest",
      fix: "write the image's sha256 as 64 hex digits (sha256sum FILE)",
    },
  },
};

/** Schema of a Flavor's `firmware`: per component, a version the BMC checks or an image rackform_firmware flashes. */
export const FIRMWARE_SCHEMA: PropsSchema = {
  type: "object",
  minProperties: 1,
  expect: "a map of at least one firmware component",
  fix: 'name each component as the BMC\'s FirmwareInventory does, e.g. { BIOS: "2.3.1" }, or leave firmware out',
  additionalProperties: {
    // if/then/else rather than anyOf: a bad image field is then reported once, at that field (validate.ts drops `if`).
    if: { type: "string" },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then/else, never awaited
    then: {
      type: "string",
      minLength: 1,
      expect: "a firmware version",
      fix: 'give the exact version, e.g. "2.3.1"',
    },
    else: IMAGE_SCHEMA,
  },
};

/**
 * Schema of a Flavor's `bios`; its names, and that it names any, are checked by biosProblems (the schema sees the
 * props without their number tokens, so a map of one token would look empty to it).
 */
export const BIOS_SCHEMA: PropsSchema = {
  type: "object",
  expect: "a map of BIOS settings",
  fix: 'name each setting as the BIOS\'s AttributeRegistry does, e.g. { ProcVirtualization: "Enabled" }, or leave bios out',
  additionalProperties: {
    anyOf: [{ type: "string" }, { type: "number" }, { type: "boolean" }],
    expect: "a BIOS setting's value (text, a number or true/false)",
    fix: 'give the value the AttributeRegistry allows, e.g. "Enabled", 4 or true',
  },
};

/** `bios`, when given, names at least one setting, each by its AttributeRegistry name: a letter, then [A-Za-z0-9_.]. */
export function biosProblems(base: string, bios: Readonly<Record<string, unknown>> | undefined): ValidationProblem[] {
  if (bios && Object.keys(bios).length === 0) {
    return [
      {
        path: `${base}/bios`,
        problem: "{} names no BIOS setting",
        fix: 'name each setting as the BIOS\'s AttributeRegistry does, e.g. { ProcVirtualization: "Enabled" }, or leave bios out',
      },
    ];
  }
  return Object.keys(bios ?? {})
    .filter((name) => !BIOS_NAME.test(name))
    .map((name) => ({
      path: `${base}/bios`,
      problem: `${show(name)} is not a BIOS attribute name`,
      fix: "use the AttributeName the BIOS's AttributeRegistry lists, e.g. ProcVirtualization (a letter, then letters, digits, _ or .)",
    }));
}

/** A BIOS value as rackform_firmware takes it: text; booleans as "true"/"false", a number token kept a token. */
export const biosText = (v: string | number | boolean): string =>
  typeof v === "number" && isToken(v) ? Token.asString(v) : String(v);

/** The components to flash (the entries given as images), or undefined when there are none. */
export function imagesOf(firmware: Readonly<Record<string, string | Image>>): FirmwareSettings["components"] {
  const images = Object.entries(firmware).flatMap(([name, v]) => (typeof v === "string" ? [] : [[name, { ...v }]]));
  return images.length > 0 ? Object.fromEntries(images) : undefined;
}

/** The versions the BMC checks (the entries given as text). */
export function versionsOf(firmware: Readonly<Record<string, string | Image>>): Record<string, string> {
  return Object.fromEntries(Object.entries(firmware).filter((e): e is [string, string] => typeof e[1] === "string"));
}
