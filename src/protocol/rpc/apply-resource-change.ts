/** ApplyResourceChange: makes one planned change real; a null planned_state is a destroy and must return null. */
import { decodeDynamicValue, encodeDynamicValue } from "../codec.js";
import { bytesOf, encodeDiagnostics, type PbDiagnostic, type PbDynamicValue, toBuffer } from "../wire.js";
import { guard, type RpcContext, unknownTypeDiagnostic, withFallbackState } from "./context.js";

/** tfplugin6.ApplyResourceChange.Request. */
export interface ApplyResourceChangeRequestWire {
  type_name: string;
  prior_state?: PbDynamicValue;
  planned_state?: PbDynamicValue;
  config?: PbDynamicValue;
  planned_private?: Uint8Array | null;
}

/** tfplugin6.ApplyResourceChange.Response (legacy_type_system is never set). */
export interface ApplyResourceChangeWire {
  new_state?: PbDynamicValue;
  private?: Buffer;
  diagnostics: PbDiagnostic[];
}

/** Adapter for Provider/ApplyResourceChange. */
export function applyResourceChange(
  ctx: RpcContext,
  req: ApplyResourceChangeRequestWire,
): Promise<ApplyResourceChangeWire> {
  // On a failure the engine keeps what it is sent back; echoing the prior object keeps it tracked rather than lost.
  return withFallbackState<ApplyResourceChangeWire>(
    { new_state: req.prior_state },
    guard("ApplyResourceChange", async () => {
      const type = ctx.typeOf("resource", req.type_name);
      if (!type) return { diagnostics: [unknownTypeDiagnostic("resource", req.type_name)] };
      const res = await ctx.server.applyResourceChange({
        typeName: req.type_name,
        priorState: decodeDynamicValue(req.prior_state, type),
        plannedState: decodeDynamicValue(req.planned_state, type),
        config: decodeDynamicValue(req.config, type),
        plannedPrivate: bytesOf(req.planned_private),
      });
      return {
        new_state: encodeDynamicValue(res.newState, type),
        private: toBuffer(res.private),
        diagnostics: encodeDiagnostics(res.diagnostics),
      };
    }),
  );
}
