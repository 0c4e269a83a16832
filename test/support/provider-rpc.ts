/**
 * Driving one resource of an in-process provider server as the engine would: plan (the proposed new state from the
 * config and the prior state), then apply the planned state. One helper for every in-process provider test.
 */
import type { Provider, Schema, Value } from "../../src/framework/index.js";
import type { ProviderData } from "../../src/provider/config/config.js";
import { createServer } from "../../src/server/create-server.js";
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
 * `newState: null` with the plan's diagnostics (tests of a refused plan assert on them; tests that expect success
 * assert `diagnostics` empty). A planned replacement is applied as an update would be (the engine would destroy and
 * create instead): tests that replace do it themselves. Takes what planChange takes.
 */
export async function planAndApply(...args: Parameters<typeof planChange>) {
  const [srv, typeName, , config, prior = null] = args;
  const p = await planChange(...args);
  if (p.diagnostics.some((d) => d.severity === "error"))
    return { plan: p, newState: null, private: new Uint8Array(0), diagnostics: p.diagnostics };
  const a = await srv.applyResourceChange({
    typeName,
    priorState: prior,
    plannedState: p.plannedState,
    config,
    plannedPrivate: p.plannedPrivate,
  });
  return { plan: p, ...a };
}

/** Destroy, as the engine would: apply a null planned state over `state`. */
export function destroyResource(
  srv: ProviderServer,
  typeName: string,
  state: Value,
  plannedPrivate: Uint8Array = new Uint8Array(0),
) {
  return srv.applyResourceChange({ typeName, priorState: state, plannedState: null, config: null, plannedPrivate });
}

/** One resource type's plan, apply, destroy and refresh, each taking the server first: what support files export. */
export function resourceDriver(typeName: string, schema: Schema) {
  return {
    /** Plan only (to see what a change or a refresh leads to). */
    plan: (srv: ProviderServer, config: Value, prior: Value = null, priorPrivate?: Uint8Array) =>
      planChange(srv, typeName, schema, config, prior, priorPrivate),
    /** Plan then apply a create (or update from `prior`): see planAndApply. */
    apply: (srv: ProviderServer, config: Value, prior: Value = null, priorPrivate?: Uint8Array) =>
      planAndApply(srv, typeName, schema, config, prior, priorPrivate),
    /** Destroy, as the engine would. */
    destroy: (srv: ProviderServer, state: Value, plannedPrivate?: Uint8Array) =>
      destroyResource(srv, typeName, state, plannedPrivate),
    /** Refresh, as the engine would. */
    read: (srv: ProviderServer, state: Value, priv: Uint8Array = new Uint8Array(0)) =>
      srv.readResource({ typeName, currentState: state, private: priv }),
  };
}

/** A server of `provider` that keeps the ProviderData its configure made (so a test can close its connections). */
export function keepingData(provider: Provider): { srv: ProviderServer; data(): ProviderData | undefined } {
  let data: ProviderData | undefined;
  const configure = provider.configure.bind(provider);
  const srv = createServer({
    ...provider,
    async configure(req, resp) {
      await configure(req, resp);
      data = resp.resourceData as ProviderData;
    },
  });
  return { srv, data: () => data };
}
