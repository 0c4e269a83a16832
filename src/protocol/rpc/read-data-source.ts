/** ReadDataSource: reads one data source; the result must be non-null and wholly known. */
import { decodeDynamicValue, encodeDynamicValue } from "../codec.js";
import {
  decodeClientCapabilities,
  encodeDiagnostics,
  type PbClientCapabilities,
  type PbDiagnostic,
  type PbDynamicValue,
} from "../wire.js";
import { guard, type RpcContext, unknownTypeDiagnostic } from "./context.js";

/** tfplugin6.ReadDataSource.Request. */
export interface ReadDataSourceRequestWire {
  type_name: string;
  config?: PbDynamicValue;
  client_capabilities?: PbClientCapabilities | null;
}

/** tfplugin6.ReadDataSource.Response. */
export interface ReadDataSourceWire {
  state?: { msgpack: Buffer };
  diagnostics: PbDiagnostic[];
}

/** Adapter for Provider/ReadDataSource. */
export function readDataSource(ctx: RpcContext, req: ReadDataSourceRequestWire): Promise<ReadDataSourceWire> {
  return guard("ReadDataSource", async () => {
    const type = ctx.typeOf("data source", req.type_name);
    if (!type) return { diagnostics: [unknownTypeDiagnostic("data source", req.type_name)] };
    const res = await ctx.server.readDataSource({
      typeName: req.type_name,
      config: decodeDynamicValue(req.config, type),
      clientCapabilities: decodeClientCapabilities(req.client_capabilities),
    });
    return { state: encodeDynamicValue(res.state, type), diagnostics: encodeDiagnostics(res.diagnostics) };
  });
}
