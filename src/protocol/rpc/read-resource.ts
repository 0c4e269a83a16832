/** ReadResource: refreshes one resource from the real world; a null new_state means it is gone. */
import { decodeDynamicValue, encodeDynamicValue } from "../codec.js";
import {
  bytesOf,
  decodeClientCapabilities,
  encodeDiagnostics,
  type PbClientCapabilities,
  type PbDiagnostic,
  type PbDynamicValue,
  toBuffer,
} from "../wire.js";
import { guard, type RpcContext, unknownTypeDiagnostic, withFallbackState } from "./context.js";

/** tfplugin6.ReadResource.Request. */
export interface ReadResourceRequestWire {
  type_name: string;
  current_state?: PbDynamicValue;
  private?: Uint8Array | null;
  client_capabilities?: PbClientCapabilities | null;
}

/** tfplugin6.ReadResource.Response. */
export interface ReadResourceWire {
  new_state?: PbDynamicValue;
  private?: Uint8Array | null;
  diagnostics: PbDiagnostic[];
}

/** Adapter for Provider/ReadResource. */
export function readResource(ctx: RpcContext, req: ReadResourceRequestWire): Promise<ReadResourceWire> {
  // On a failure the engine keeps what it is sent back; echoing the prior object keeps it tracked rather than lost.
  return withFallbackState<ReadResourceWire>(
    { new_state: req.current_state, private: req.private },
    guard("ReadResource", async () => {
      const type = ctx.typeOf("resource", req.type_name);
      if (!type) return { diagnostics: [unknownTypeDiagnostic("resource", req.type_name)] };
      const res = await ctx.server.readResource({
        typeName: req.type_name,
        currentState: decodeDynamicValue(req.current_state, type),
        private: bytesOf(req.private),
        clientCapabilities: decodeClientCapabilities(req.client_capabilities),
      });
      return {
        new_state: encodeDynamicValue(res.newState, type),
        private: toBuffer(res.private),
        diagnostics: encodeDiagnostics(res.diagnostics),
      };
    }),
  );
}
