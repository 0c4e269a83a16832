/**
 * Attribute and block validators: tiny self-describing objects. The server runs them on known, non-null config
 * values only, so a validator never has to think about unknowns at the top level. Diagnostics carry `req.path`.
 */
import { type AttributePath, type Diagnostics, formatPath } from "./diagnostics.js";
import { BigNumber, isUnknown, type Value } from "./values.js";

/** What a validator sees. */
export interface ValidatorRequest {
  /** The attribute's config value: never null, never wholly unknown (elements may be unknown). */
  readonly value: Value;
  /** Where the value sits; put it on every diagnostic. */
  readonly path: AttributePath;
  /** The object holding this attribute (for cross-attribute checks). */
  readonly parent: { readonly [key: string]: Value };
  /** The whole configuration. */
  readonly config: Value;
}

/** Where a validator reports. */
export interface ValidatorResponse {
  readonly diagnostics: Diagnostics;
}

/** A validator; `description` is plain English for generated docs ("length between 1 and 63"). */
export interface Validator {
  readonly description: string;
  validate(req: ValidatorRequest, resp: ValidatorResponse): void | Promise<void>;
}

/** A custom validator from a description and a function. */
export function validator(description: string, fn: Validator["validate"]): Validator {
  return { description, validate: fn };
}

function show(v: Value): string {
  return typeof v === "string" ? JSON.stringify(v) : String(v);
}

/** String length (in characters) within [min, max]. */
export function stringLength(bounds: { min?: number; max?: number }): Validator {
  const { min = 0, max = Number.POSITIVE_INFINITY } = bounds;
  const description =
    max === Number.POSITIVE_INFINITY ? `length at least ${min}` : `length between ${min} and ${max} characters`;
  return validator(description, (req, resp) => {
    if (typeof req.value !== "string") return;
    const n = [...req.value].length;
    if (n < min || n > max) {
      resp.diagnostics.error(
        "Invalid attribute value length",
        `${formatPath(req.path)} must have ${description}, got ${n}.`,
        req.path,
      );
    }
  });
}

/** String matches a regular expression; `message` says in words what is expected ("a DNS label"). */
export function stringMatches(pattern: RegExp, message: string): Validator {
  return validator(`must be ${message}`, (req, resp) => {
    if (typeof req.value !== "string") return;
    if (!pattern.test(req.value)) {
      resp.diagnostics.error(
        "Invalid attribute value",
        `${formatPath(req.path)} must be ${message} (matching ${pattern}), got ${show(req.value)}.`,
        req.path,
      );
    }
  });
}

/** String is one of the given values. */
export function stringOneOf(...allowed: string[]): Validator {
  const list = allowed.map((a) => JSON.stringify(a)).join(", ");
  return validator(`one of ${list}`, (req, resp) => {
    if (typeof req.value !== "string") return;
    if (!allowed.includes(req.value)) {
      resp.diagnostics.error(
        "Invalid attribute value",
        `${formatPath(req.path)} must be one of ${list}, got ${show(req.value)}.`,
        req.path,
      );
    }
  });
}

/** Number within [min, max] inclusive. */
export function numberBetween(min: number, max: number): Validator {
  return validator(`between ${min} and ${max}`, (req, resp) => {
    const v = req.value;
    const n = v instanceof BigNumber ? Number(v.text) : v;
    if (typeof n !== "number") return;
    if (!(n >= min && n <= max)) {
      resp.diagnostics.error(
        "Invalid attribute value",
        `${formatPath(req.path)} must be between ${min} and ${max}, got ${String(v)}.`,
        req.path,
      );
    }
  });
}

/** Number of elements of a list, set or map (or blocks of a nested block) within [min, max]. */
export function listSize(bounds: { min?: number; max?: number }): Validator {
  const { min = 0, max = Number.POSITIVE_INFINITY } = bounds;
  const description =
    max === Number.POSITIVE_INFINITY ? `at least ${min} elements` : `between ${min} and ${max} elements`;
  return validator(description, (req, resp) => {
    const v = req.value;
    if (v === null || typeof v !== "object" || isUnknown(v) || v instanceof BigNumber) return;
    const n = Array.isArray(v) ? v.length : Object.keys(v).length;
    if (n < min || n > max) {
      resp.diagnostics.error(
        "Invalid attribute value size",
        `${formatPath(req.path)} must have ${description}, got ${n}.`,
        req.path,
      );
    }
  });
}

/** The attribute cannot be set together with any of the named sibling attributes. */
export function conflictsWith(...siblings: string[]): Validator {
  return validator(`conflicts with ${siblings.join(", ")}`, (req, resp) => {
    for (const s of siblings) {
      if (req.parent[s] !== null && req.parent[s] !== undefined) {
        resp.diagnostics.error(
          "Conflicting configuration arguments",
          `${formatPath(req.path)} cannot be set together with "${s}"; remove one of them.`,
          req.path,
        );
      }
    }
  });
}
