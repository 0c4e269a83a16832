/** PlanResourceChange: proposes the planned state of one resource (create, update, replace, or destroy). */
import { decodeDynamicValue, encodeDynamicValue } from "../codec.js";
import {
  bytesOf,
  decodeClientCapabilities,
  encodeDiagnostics,
  encodePath,
  type PbAttributePath,
  type PbClientCapabilities,
  type PbDiagnostic,
  type PbDynamicValue,
  toBuffer,
} from "../wire.js";
import { guard, type RpcContext, unknownTypeDiagnostic } from "./context.js";

/** tfplugin6.PlanResourceChange.Request. */
export interface PlanResourceChangeRequestWire {
  type_name: string;
  prior_state?: PbDynamicValue;
  proposed_new_state?: PbDynamicValue;
  config?: PbDynamicValue;
  prior_private?: Uint8Array | null;
  client_capabilities?: PbClientCapabilities | null;
}

/** tfplugin6.PlanResourceChange.Response (legacy_type_system is never set). */
export interface PlanResourceChangeWire {
  planned_state?: { msgpack: Buffer };
  requires_replace?: PbAttributePath[];
  planned_private?: Buffer;
  diagnostics: PbDiagnostic[];
}

/** True when both DynamicValues are msgpack with the same bytes. */
function sameBytes(a: PbDynamicValue | undefined, b: PbDynamicValue | undefined): boolean {
  const x = a?.msgpack;
  const y = b?.msgpack;
  return !!x && !!y && x.length > 0 && Buffer.compare(x, y) === 0;
}

/** Adapter for Provider/PlanResourceChange. */
export function planResourceChange(
  ctx: RpcContext,
  req: PlanResourceChangeRequestWire,
): Promise<PlanResourceChangeWire> {
  return guard("PlanResourceChange", async () => {
    const type = ctx.typeOf("resource", req.type_name);
    if (!type) return { diagnostics: [unknownTypeDiagnostic("resource", req.type_name)] };
    const priorState = decodeDynamicValue(req.prior_state, type);
    const res = await ctx.server.planResourceChange({
      typeName: req.type_name,
      priorState,
      // In a plan with nothing to change the engine proposes the prior state byte for byte: decoded once (values are
      // never mutated, so sharing is safe).
      proposedNewState: sameBytes(req.prior_state, req.proposed_new_state)
        ? priorState
        : decodeDynamicValue(req.proposed_new_state, type),
      config: decodeDynamicValue(req.config, type),
      priorPrivate: bytesOf(req.prior_private),
      clientCapabilities: decodeClientCapabilities(req.client_capabilities),
    });
    return {
      planned_state: encodeDynamicValue(res.plannedState, type),
      requires_replace: res.requiresReplace.map(encodePath),
      planned_private: toBuffer(res.plannedPrivate),
      diagnostics: encodeDiagnostics(res.diagnostics),
    };
  });
}
