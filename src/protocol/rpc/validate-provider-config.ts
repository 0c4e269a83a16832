/** ValidateProviderConfig: checks the provider block, before configuration; values may be unknown. */
import { decodeDynamicValue } from "../codec.js";
import { encodeDiagnostics, type PbDiagnostic, type PbDynamicValue } from "../wire.js";
import { guard, type RpcContext } from "./context.js";

/** tfplugin6.ValidateProviderConfig.Request. */
export interface ValidateProviderConfigRequestWire {
  config?: PbDynamicValue;
}

/** Adapter for Provider/ValidateProviderConfig. */
export function validateProviderConfig(
  ctx: RpcContext,
  req: ValidateProviderConfigRequestWire,
): Promise<{ diagnostics: PbDiagnostic[] }> {
  return guard("ValidateProviderConfig", async () => {
    const config = decodeDynamicValue(req.config, ctx.providerType());
    const res = await ctx.server.validateProviderConfig({ config });
    return { diagnostics: encodeDiagnostics(res.diagnostics) };
  });
}
