/** ConfigureProvider: runs the provider's configure and hands its data to every resource and data source. */
import { Diagnostics } from "../framework/diagnostics.js";
import type { ProviderConfigureResponse } from "../framework/provider.js";
import { isObjectValue, nullObject, sensitiveStrings } from "../framework/schema-values.js";
import type { Value } from "../framework/values.js";
import type { ClientCapabilities, DiagnosticsResponse } from "./rpc.js";
import type { ServerState } from "./server-state.js";

/** Implements ConfigureProvider. The config may hold unknowns during plan; the provider decides what that means. */
export async function configureProvider(
  s: ServerState,
  req: { terraformVersion: string; config: Value; clientCapabilities?: ClientCapabilities },
): Promise<DiagnosticsResponse> {
  const diags = new Diagnostics();
  const { schema } = s.provider;
  s.providerSecrets = sensitiveStrings(schema, req.config);
  const config = isObjectValue(req.config) ? req.config : nullObject(schema);
  const resp: ProviderConfigureResponse = { diagnostics: diags };
  const context = s.context();
  await s.guard(diags, "Provider configure", () =>
    s.provider.configure(
      { context, config, terraformVersion: req.terraformVersion, clientCapabilities: req.clientCapabilities },
      resp,
    ),
  );
  if (diags.hasError()) return { diagnostics: s.finish(diags) };
  s.resourceData = resp.resourceData;
  s.dataSourceData = resp.dataSourceData;
  for (const [name, r] of s.resources) {
    if (!r.configure) continue;
    const configure = r.configure.bind(r);
    await s.guard(diags, `${name} configure`, () =>
      configure({ context, providerData: s.resourceData }, { diagnostics: diags }),
    );
  }
  for (const [name, d] of s.dataSources) {
    if (!d.configure) continue;
    const configure = d.configure.bind(d);
    await s.guard(diags, `data ${name} configure`, () =>
      configure({ context, providerData: s.dataSourceData }, { diagnostics: diags }),
    );
  }
  return { diagnostics: s.finish(diags) };
}
