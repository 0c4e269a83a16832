/** ConfigureProvider: hands the provider block (which may still hold unknowns) to the server once per process. */
import { decodeDynamicValue } from "../codec.js";
import {
  decodeClientCapabilities,
  encodeDiagnostics,
  type PbClientCapabilities,
  type PbDiagnostic,
  type PbDynamicValue,
} from "../wire.js";
import { guard, type RpcContext } from "./context.js";

/** tfplugin6.ConfigureProvider.Request. */
export interface ConfigureProviderRequestWire {
  terraform_version: string;
  config?: PbDynamicValue;
  client_capabilities?: PbClientCapabilities | null;
}

/** Adapter for Provider/ConfigureProvider. */
export function configureProvider(
  ctx: RpcContext,
  req: ConfigureProviderRequestWire,
): Promise<{ diagnostics: PbDiagnostic[] }> {
  return guard("ConfigureProvider", async () => {
    const res = await ctx.server.configureProvider({
      terraformVersion: req.terraform_version ?? "",
      config: decodeDynamicValue(req.config, ctx.providerType()),
      clientCapabilities: decodeClientCapabilities(req.client_capabilities),
    });
    return { diagnostics: encodeDiagnostics(res.diagnostics) };
  });
}
