/** ValidateResourceConfig: checks one resource block on an unconfigured provider; values may be unknown. */
import { decodeDynamicValue } from "../codec.js";
import {
  decodeClientCapabilities,
  encodeDiagnostics,
  type PbClientCapabilities,
  type PbDiagnostic,
  type PbDynamicValue,
} from "../wire.js";
import { guard, type RpcContext, unknownTypeDiagnostic } from "./context.js";

/** tfplugin6.ValidateResourceConfig.Request. */
export interface ValidateResourceConfigRequestWire {
  type_name: string;
  config?: PbDynamicValue;
  client_capabilities?: PbClientCapabilities | null;
}

/** Adapter for Provider/ValidateResourceConfig. */
export function validateResourceConfig(
  ctx: RpcContext,
  req: ValidateResourceConfigRequestWire,
): Promise<{ diagnostics: PbDiagnostic[] }> {
  return guard("ValidateResourceConfig", async () => {
    const type = ctx.typeOf("resource", req.type_name);
    if (!type) return { diagnostics: [unknownTypeDiagnostic("resource", req.type_name)] };
    const res = await ctx.server.validateResourceConfig({
      typeName: req.type_name,
      config: decodeDynamicValue(req.config, type),
      clientCapabilities: decodeClientCapabilities(req.client_capabilities),
    });
    return { diagnostics: encodeDiagnostics(res.diagnostics) };
  });
}
