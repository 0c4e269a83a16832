/**
 * Driving one resource of an in-process provider server as the engine would: plan (the proposed new state from the
 * config and the prior state), then apply the planned state. One helper for every in-process provider test.
 */
import type { Schema, Value } from "../../src/framework/index.js";
import type { ProviderServer } from "../../src/server/rpc.js";
import { proposedNew } from "./kitchen-sink/engine-sim.js";

/** PlanResourceChange of `config` over `prior`. */
export function planChange(
  srv: ProviderServer,
  typeName: string,
  schema: Schema,
  config: Value,
  prior: Value = null,
  priorPrivate: Uint8Array = new Uint8Array(0),
) {
  return srv.planResourceChange({
    typeName,
    priorState: prior,
    proposedNewState: config === null ? null : proposedNew(schema, config, prior),
    config,
    priorPrivate,
  });
}

/**
 * Plan then apply a create (or an update from `prior`). A plan with an error is not applied: it returns
 * `newState: null` with the plan's diagnostics. A planned replacement is applied as an update would be (the engine
 * would destroy and create instead): tests that replace do it themselves.
 */
export async function planAndApply(
  srv: ProviderServer,
  typeName: string,
  schema: Schema,
  config: Value,
  prior: Value = null,
) {
  const p = await planChange(srv, typeName, schema, config, prior);
  if (p.diagnostics.some((d) => d.severity === "error")) return { plan: p, newState: null, diagnostics: p.diagnostics };
  const a = await srv.applyResourceChange({
    typeName,
    priorState: prior,
    plannedState: p.plannedState,
    config,
    plannedPrivate: p.plannedPrivate,
  });
  return { plan: p, ...a };
}
