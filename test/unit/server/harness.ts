/** Drives createServer(kitchenSinkProvider()) the way the engine does, with Values. */
import type { Diagnostic, Value } from "../../../src/framework/index.js";
import { formatPath } from "../../../src/framework/index.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
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

/** "summary @ path: detail" lines, for readable assertion failures. */
export function describe(ds: readonly Diagnostic[]): string {
  return ds.map((d) => `${d.summary} @ ${formatPath(d.attribute)}: ${d.detail}`).join("\n");
}
