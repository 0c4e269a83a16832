/**
 * Reading the decoded provider block (its model, ModelOf in "config" mode): a value still unknown at plan counts as
 * unset, so the environment or the default stands in, as for a value left out.
 */
import {
  type Block,
  isObjectValue,
  isUnknownValue,
  nullObject,
  type Unknowable,
  type Value,
} from "../../framework/index.js";

/** A known value, or null when it is unset or not known yet. */
export function known<T>(v: Unknowable<T | null>): T | null {
  return isUnknownValue(v) ? null : v;
}

/** Whether a whole block is not known yet (the model's type of a block does not say it may be). */
export function isUnknownBlock(b: unknown): boolean {
  return isUnknownValue(b as Unknowable<unknown>);
}

/** A single block of the model, or null when it is absent or not known yet. */
export function blockOf<T>(b: T | null): T | null {
  return b === null || isUnknownBlock(b) ? null : b;
}

/** `v`, else the environment variable `name` (unset: undefined). */
export function envOr(v: string | null, name: string): string | undefined {
  return v ?? process.env[name] ?? undefined;
}

/**
 * The config with every attribute and block of `b` present, null where one is missing: a configuration built by
 * hand (a test) or by an older schema may lack some, which reads as unset, never as a malformed config.
 */
export function completeConfig(b: Block, v: Value): Value {
  if (!isObjectValue(v)) return v;
  const out: { [name: string]: Value } = { ...nullObject(b), ...v };
  for (const [name, nb] of Object.entries(b.blocks ?? {})) {
    if (nb.nesting === "single" || nb.nesting === "group") out[name] = completeConfig(nb.block, out[name] ?? null);
  }
  for (const name of Object.keys(b.attributes)) out[name] ??= null;
  return out;
}
