/** GetMetadata: the type names without their schemas (neither engine calls it today; answered for completeness). */
import { encodeDiagnostics, encodeServerCapabilities, type PbDiagnostic } from "../wire.js";
import { guard, type RpcContext } from "./context.js";

/** tfplugin6.GetMetadata.Response. */
export interface GetMetadataWire {
  server_capabilities?: Record<string, boolean>;
  resources?: { type_name: string }[];
  data_sources?: { type_name: string }[];
  functions?: never[];
  ephemeral_resources?: never[];
  diagnostics: PbDiagnostic[];
}

/** Adapter for Provider/GetMetadata. */
export function getMetadata(ctx: RpcContext, _req: unknown): Promise<GetMetadataWire> {
  return guard("GetMetadata", async () => {
    const s = ctx.schema();
    return {
      server_capabilities: encodeServerCapabilities(s.serverCapabilities),
      resources: Object.keys(s.resourceSchemas).map((type_name) => ({ type_name })),
      data_sources: Object.keys(s.dataSourceSchemas).map((type_name) => ({ type_name })),
      functions: [],
      ephemeral_resources: [],
      diagnostics: encodeDiagnostics(s.diagnostics),
    };
  });
}
