/**
 * A tiny stand-in for the engine's side of PlanResourceChange in unit tests: builds configs and the proposed new
 * state (config, with computed attributes the config leaves null taken from prior state), as objchange.ProposedNew does.
 */
import {
  type Block,
  fillEmptyBlocks,
  isObjectValue,
  nullObject,
  type ObjectValue,
  type Value,
} from "../../../src/framework/index.js";

/** A config object for `b`: every attribute null and blocks empty, then `set` applied. */
export function configOf(b: Block, set: { readonly [key: string]: Value } = {}): ObjectValue {
  return fillEmptyBlocks(b, { ...nullObject(b), ...set }) as ObjectValue;
}

/** The engine's proposed new state for `config` over `prior` (null on create). */
export function proposedNew(b: Block, config: Value, prior: Value): Value {
  if (!isObjectValue(config)) return config;
  const out: Record<string, Value> = { ...config };
  for (const [name, a] of Object.entries(b.attributes)) {
    if (a.computed && config[name] === null) {
      const p = isObjectValue(prior) ? prior[name] : null;
      out[name] = p ?? null;
    }
  }
  for (const [name, nb] of Object.entries(b.blocks ?? {})) {
    const c = config[name];
    const p = isObjectValue(prior) ? prior[name] : null;
    if ((nb.nesting === "single" || nb.nesting === "group") && isObjectValue(c))
      out[name] = proposedNew(nb.block, c, p ?? null);
    if (nb.nesting === "list" && Array.isArray(c)) {
      out[name] = c.map((e, i) => proposedNew(nb.block, e, Array.isArray(p) ? (p[i] ?? null) : null));
    }
  }
  return out;
}
