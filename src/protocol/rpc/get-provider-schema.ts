/** GetProviderSchema: the provider, resource and data source schemas, and the server capabilities. */
import { encodeDiagnostics, encodeSchema, encodeServerCapabilities, type PbDiagnostic } from "../wire.js";
import { guard, type RpcContext } from "./context.js";

/** tfplugin6.GetProviderSchema.Response. */
export interface GetProviderSchemaWire {
  provider?: Record<string, unknown>;
  resource_schemas?: Record<string, Record<string, unknown>>;
  data_source_schemas?: Record<string, Record<string, unknown>>;
  functions?: Record<string, never>;
  ephemeral_resource_schemas?: Record<string, never>;
  server_capabilities?: Record<string, boolean>;
  diagnostics: PbDiagnostic[];
}

function encodeAll(rec: Readonly<Record<string, Parameters<typeof encodeSchema>[0]>>) {
  return Object.fromEntries(Object.entries(rec).map(([name, s]) => [name, encodeSchema(s)]));
}

/** Adapter for Provider/GetProviderSchema. */
export function getProviderSchema(ctx: RpcContext, _req: unknown): Promise<GetProviderSchemaWire> {
  return guard("GetProviderSchema", async () => {
    const s = ctx.schema();
    return {
      provider: encodeSchema(s.provider),
      resource_schemas: encodeAll(s.resourceSchemas),
      data_source_schemas: encodeAll(s.dataSourceSchemas),
      functions: {},
      ephemeral_resource_schemas: {},
      server_capabilities: encodeServerCapabilities(s.serverCapabilities),
      diagnostics: encodeDiagnostics(s.diagnostics),
    };
  });
}
