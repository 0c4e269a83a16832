/** GetProviderSchema: the wire schemas of the provider, its resources and data sources. */
import { Diagnostics } from "../framework/diagnostics.js";
import type { Schema } from "../framework/schema.js";
import { toWire } from "../framework/to-wire.js";
import type { WireSchema } from "../framework/wire-schema.js";
import type { GetProviderSchemaResponse } from "./rpc.js";
import type { ServerState } from "./server-state.js";

const EMPTY: WireSchema = { version: 0, block: { attributes: [], blockTypes: [], description: "", deprecated: false } };

function wire(diags: Diagnostics, what: string, schema: () => Schema): WireSchema {
  try {
    return toWire(schema());
  } catch (e) {
    diags.error(
      "Invalid provider schema",
      `${what}: ${(e as Error).message}. This is always a bug in the provider, please report it.`,
    );
    return EMPTY;
  }
}

/** Implements GetProviderSchema; a malformed schema is reported as a provider-bug diagnostic. */
export function getProviderSchema(s: ServerState): GetProviderSchemaResponse {
  const diags = new Diagnostics().add(...s.setupDiagnostics);
  const resourceSchemas: Record<string, WireSchema> = {};
  for (const [name, r] of s.resources) resourceSchemas[name] = wire(diags, name, () => r.schema);
  const dataSourceSchemas: Record<string, WireSchema> = {};
  for (const [name, d] of s.dataSources) dataSourceSchemas[name] = wire(diags, `data ${name}`, () => d.schema);
  return {
    provider: wire(diags, "provider", () => s.provider.schema),
    resourceSchemas,
    dataSourceSchemas,
    // planDestroy stays off: the engine then skips PlanResourceChange for destroy (plugin-protocol.md §7).
    // getProviderSchemaOptional: every process serves every RPC without this call first, so an engine that cached the
    // schema from its first provider process of a command spares the later ones building and sending it again.
    serverCapabilities: { planDestroy: false, getProviderSchemaOptional: true },
    diagnostics: diags.items,
  };
}
