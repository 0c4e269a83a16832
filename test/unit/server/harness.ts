/** Drives createServer(kitchenSinkProvider()) the way the engine does, with Values. */
import type { Diagnostic, ObjectValue, Schema, Value } from "../../../src/framework/index.js";
import { formatPath } from "../../../src/framework/index.js";
import { createServer } from "../../../src/server/create-server.js";
import type { PlanResourceChangeResponse, ProviderServer } from "../../../src/server/rpc.js";
import { configOf, proposedNew } from "../../support/kitchen-sink/engine-sim.js";
import { kitchenSinkProvider } from "../../support/kitchen-sink/provider.js";

export { configOf };

/** A configured rfkitchen server (memory store unless store_path is given). */
export async function kitchenServer(config: { [k: string]: Value } = {}): Promise<ProviderServer> {
  const srv = createServer(kitchenSinkProvider());
  const resp = await srv.configureProvider({
    terraformVersion: "1.11.4",
    config: { store_path: null, label: "unit", api_token: null, ...config },
  });
  if (resp.diagnostics.length > 0) throw new Error(`configure failed: ${JSON.stringify(resp.diagnostics)}`);
  return srv;
}

/** One PlanResourceChange with the engine's proposed new state. */
export function plan(
  srv: ProviderServer,
  typeName: string,
  schema: Schema,
  config: ObjectValue | null,
  prior: Value = null,
  priorPrivate: Uint8Array = new Uint8Array(0),
): Promise<PlanResourceChangeResponse> {
  return srv.planResourceChange({
    typeName,
    priorState: prior,
    proposedNewState: config === null ? null : proposedNew(schema, config, prior),
    config,
    priorPrivate,
  });
}

/** Plan then apply; throws if planning reported anything. */
export async function planAndApply(
  srv: ProviderServer,
  typeName: string,
  schema: Schema,
  config: ObjectValue,
  prior: Value = null,
  priorPrivate: Uint8Array = new Uint8Array(0),
) {
  const p = await plan(srv, typeName, schema, config, prior, priorPrivate);
  if (p.diagnostics.length > 0) throw new Error(`plan failed: ${describe(p.diagnostics)}`);
  const a = await srv.applyResourceChange({
    typeName,
    priorState: prior,
    plannedState: p.plannedState,
    config,
    plannedPrivate: p.plannedPrivate,
  });
  return { plan: p, apply: a };
}

/** "summary @ path: detail" lines, for readable assertion failures. */
export function describe(ds: readonly Diagnostic[]): string {
  return ds.map((d) => `${d.summary} @ ${formatPath(d.attribute)}: ${d.detail}`).join("\n");
}
