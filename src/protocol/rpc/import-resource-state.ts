/** ImportResourceState: turns an import id into one or more resource states (each names its own type). */
import { encodeDynamicValue } from "../codec.js";
import {
  decodeClientCapabilities,
  encodeDiagnostics,
  type PbClientCapabilities,
  type PbDiagnostic,
  toBuffer,
} from "../wire.js";
import { guard, type RpcContext, unknownTypeDiagnostic } from "./context.js";

/** tfplugin6.ImportResourceState.Request. */
export interface ImportResourceStateRequestWire {
  type_name: string;
  id: string;
  client_capabilities?: PbClientCapabilities | null;
}

/** tfplugin6.ImportResourceState.Response. */
export interface ImportResourceStateWire {
  imported_resources?: { type_name: string; state: { msgpack: Buffer }; private: Buffer }[];
  diagnostics: PbDiagnostic[];
}

/** Adapter for Provider/ImportResourceState. */
export function importResourceState(
  ctx: RpcContext,
  req: ImportResourceStateRequestWire,
): Promise<ImportResourceStateWire> {
  return guard("ImportResourceState", async () => {
    if (!ctx.typeOf("resource", req.type_name)) {
      return { diagnostics: [unknownTypeDiagnostic("resource", req.type_name)] };
    }
    const res = await ctx.server.importResourceState({
      typeName: req.type_name,
      id: req.id,
      clientCapabilities: decodeClientCapabilities(req.client_capabilities),
    });
    return {
      imported_resources: res.imported.map((r) => {
        const type = ctx.typeOf("resource", r.typeName);
        if (!type) throw new Error(`import returned a state of unknown resource type "${r.typeName}"`);
        return { type_name: r.typeName, state: encodeDynamicValue(r.state, type), private: toBuffer(r.private) };
      }),
      diagnostics: encodeDiagnostics(res.diagnostics),
    };
  });
}
