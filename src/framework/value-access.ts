/** Small typed getters over object values, for resource code that reads config, plan and state. */
import type { ObjectValue } from "./schema-values.js";
import { isObjectValue } from "./schema-values.js";
import { BigNumber, isUnknown, type Value } from "./values.js";

/** A value had another type than the getter expected: a provider bug, reported as such by the server. */
export class ValueTypeError extends TypeError {
  override readonly name = "ValueTypeError";
  readonly code = "RACKFORM_ERR_FRAMEWORK_VALUE_TYPE";
}

function get(o: Value, name: string): Value {
  if (!isObjectValue(o)) throw new ValueTypeError(`cannot read "${name}" of a non-object value`);
  const v = o[name];
  if (v === undefined) throw new ValueTypeError(`no attribute "${name}" in this object`);
  if (isUnknown(v)) throw new ValueTypeError(`"${name}" is unknown here; check isKnown() first`);
  return v;
}

/** True when the attribute is neither unknown nor missing. */
export function isKnown(o: Value, name: string): boolean {
  return isObjectValue(o) && o[name] !== undefined && !isUnknown(o[name]);
}

/** A string attribute, or null; throws ValueTypeError when unknown or not a string. */
export function getString(o: Value, name: string): string | null {
  const v = get(o, name);
  if (v !== null && typeof v !== "string") throw new ValueTypeError(`"${name}" is not a string`);
  return v;
}

/** A number attribute as a JS number (big numbers are rounded), or null. */
export function getNumber(o: Value, name: string): number | null {
  const v = get(o, name);
  if (v instanceof BigNumber) return Number(v.text);
  if (v !== null && typeof v !== "number") throw new ValueTypeError(`"${name}" is not a number`);
  return v;
}

/** A bool attribute, or null. */
export function getBool(o: Value, name: string): boolean | null {
  const v = get(o, name);
  if (v !== null && typeof v !== "boolean") throw new ValueTypeError(`"${name}" is not a bool`);
  return v;
}

/** A list or set attribute as an array (null → []). */
export function getList(o: Value, name: string): readonly Value[] {
  const v = get(o, name);
  if (v === null) return [];
  if (!Array.isArray(v)) throw new ValueTypeError(`"${name}" is not a list or set`);
  return v;
}

/** A map, object or single block attribute as a record, or null. */
export function getObject(o: Value, name: string): ObjectValue | null {
  const v = get(o, name);
  if (v === null) return null;
  if (!isObjectValue(v)) throw new ValueTypeError(`"${name}" is not an object or map`);
  return v;
}
