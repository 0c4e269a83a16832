/** ValidateDataResourceConfig: checks one data source block on an unconfigured provider; values may be unknown. */
import { decodeDynamicValue } from "../codec.js";
import { encodeDiagnostics, type PbDiagnostic, type PbDynamicValue } from "../wire.js";
import { guard, type RpcContext, unknownTypeDiagnostic } from "./context.js";

/** tfplugin6.ValidateDataResourceConfig.Request. */
export interface ValidateDataResourceConfigRequestWire {
  type_name: string;
  config?: PbDynamicValue;
}

/** Adapter for Provider/ValidateDataResourceConfig. */
export function validateDataResourceConfig(
  ctx: RpcContext,
  req: ValidateDataResourceConfigRequestWire,
): Promise<{ diagnostics: PbDiagnostic[] }> {
  return guard("ValidateDataResourceConfig", async () => {
    const type = ctx.typeOf("data source", req.type_name);
    if (!type) return { diagnostics: [unknownTypeDiagnostic("data source", req.type_name)] };
    const res = await ctx.server.validateDataResourceConfig({
      typeName: req.type_name,
      config: decodeDynamicValue(req.config, type),
    });
    return { diagnostics: encodeDiagnostics(res.diagnostics) };
  });
}
