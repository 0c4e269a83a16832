/** ValidateProviderConfig: the provider block against the provider schema. */
import { Diagnostics } from "../framework/diagnostics.js";
import { isObjectValue, sensitiveStrings } from "../framework/schema-values.js";
import type { Value } from "../framework/values.js";
import { validateConfig } from "./config-validation.js";
import type { DiagnosticsResponse } from "./rpc.js";
import type { ServerState } from "./server-state.js";

/** Implements ValidateProviderConfig. */
export async function validateProviderConfig(s: ServerState, req: { config: Value }): Promise<DiagnosticsResponse> {
  const diags = new Diagnostics();
  const { schema } = s.provider;
  await s.guard(diags, "Provider config validation", async () => {
    await validateConfig(schema, req.config, diags);
    if (s.provider.validateConfig && isObjectValue(req.config)) {
      await s.provider.validateConfig({ context: s.context(), config: req.config }, { diagnostics: diags });
    }
  });
  return { diagnostics: s.finish(diags, sensitiveStrings(schema, req.config)) };
}
