/**
 * The contract the engine enforces (plugin-protocol.md §8), checked before we reply so that a breach is reported
 * as OUR diagnostic naming the attribute, rather than the engine's generic "Provider produced invalid plan".
 */
import { type AttributePath, type Diagnostic, errorDiag, formatPath } from "../framework/diagnostics.js";
import type { Attribute, Block } from "../framework/schema.js";
import { isObjectValue } from "../framework/schema-values.js";
import { BigNumber, type CtyType, Dynamic, isUnknown, type Value } from "../framework/values.js";

/** One breach of the contract. */
export interface Problem {
  readonly path: AttributePath;
  readonly what: string;
}

/** The diagnostic for a contract breach: "Provider bug in <type>", naming the attribute path. */
export function providerBug(typeName: string, phase: string, p: Problem): Diagnostic {
  const where = p.path.length > 0 ? `Attribute ${formatPath(p.path)}` : "The resource object";
  return errorDiag(
    `Provider bug in ${typeName}`,
    `The provider produced an invalid ${phase}. ${where}: ${p.what}. This is always a bug in the provider, please report it.`,
    p.path.length > 0 ? p.path : undefined,
  );
}

/** An attribute of an object value, null when absent. */
export function field(v: Value, name: string): Value {
  return isObjectValue(v) ? (v[name] ?? null) : null;
}

function kindOf(v: Value): string {
  if (Array.isArray(v)) return "an array";
  if (v instanceof BigNumber) return "a number";
  if (v instanceof Dynamic) return "a dynamic value";
  return typeof v === "object" ? "an object" : `a ${typeof v}`;
}

/** Checks that `v` has the shape of `type`: right primitive kinds, objects holding exactly their attributes. */
export function checkType(v: Value, type: CtyType, path: AttributePath, out: Problem[]): void {
  if (v === null || isUnknown(v)) return;
  const bad = (expected: string): void => {
    out.push({ path, what: `expected ${expected}, got ${kindOf(v)}` });
  };
  if (type === "dynamic") {
    if (v instanceof Dynamic) checkType(v.value, v.type, path, out);
    else bad("a dynamic value");
    return;
  }
  if (type === "string") {
    if (typeof v !== "string") bad("a string");
    return;
  }
  if (type === "bool") {
    if (typeof v !== "boolean") bad("a bool");
    return;
  }
  if (type === "number") {
    if (typeof v !== "number" && !(v instanceof BigNumber)) bad("a number");
    return;
  }
  const [kind, inner] = type;
  if (kind === "list" || kind === "set" || kind === "tuple") {
    if (!Array.isArray(v)) {
      bad(`a ${kind}`);
      return;
    }
    if (kind === "tuple" && v.length !== (inner as CtyType[]).length) {
      bad(`a tuple of ${(inner as CtyType[]).length}`);
      return;
    }
    v.forEach((e, i) => {
      const t = kind === "tuple" ? (inner as CtyType[])[i] : (inner as CtyType);
      checkType(e, t, kind === "set" ? path : [...path, { index: i }], out);
    });
    return;
  }
  if (!isObjectValue(v)) {
    bad(kind === "map" ? "a map" : "an object");
    return;
  }
  if (kind === "map") {
    for (const [k, e] of Object.entries(v)) checkType(e, inner as CtyType, [...path, { key: k }], out);
    return;
  }
  const attrs = inner as Record<string, CtyType>;
  for (const k of Object.keys(v)) if (!(k in attrs)) out.push({ path, what: `unsupported attribute "${k}"` });
  for (const [k, t] of Object.entries(attrs)) {
    if (!(k in v)) out.push({ path, what: `attribute "${k}" is missing (objects must hold every attribute)` });
    else checkType(v[k], t, [...path, { attr: k }], out);
  }
}

/** True when the attribute or anything nested in it is sensitive. */
export function hasSensitive(a: Attribute): boolean {
  return !!a.sensitive || (a.kind === "nested" && Object.values(a.attributes).some(hasSensitive));
}

/** True when anything in the block is sensitive. */
export function blockHasSensitive(b: Block): boolean {
  return (
    Object.values(b.attributes).some(hasSensitive) ||
    Object.values(b.blocks ?? {}).some((n) => blockHasSensitive(n.block))
  );
}
