/** ValidateResourceConfig: a resource block against its schema, then the resource's own validateConfig. */
import { Diagnostics } from "../framework/diagnostics.js";
import { isObjectValue, sensitiveStrings } from "../framework/schema-values.js";
import type { Value } from "../framework/values.js";
import { validateConfig } from "./config-validation.js";
import type { ClientCapabilities, DiagnosticsResponse } from "./rpc.js";
import type { ServerState } from "./server-state.js";

/** Implements ValidateResourceConfig (the provider may be unconfigured here). */
export async function validateResourceConfig(
  s: ServerState,
  req: { typeName: string; config: Value; clientCapabilities?: ClientCapabilities },
): Promise<DiagnosticsResponse> {
  const diags = new Diagnostics();
  const r = s.resource(req.typeName, diags);
  if (!r) return { diagnostics: s.finish(diags) };
  await s.guard(diags, `${req.typeName} config validation`, async () => {
    await validateConfig(r.schema, req.config, diags, {
      writeOnlyAllowed: req.clientCapabilities?.writeOnlyAttributesAllowed,
    });
    if (r.validateConfig && isObjectValue(req.config)) {
      await r.validateConfig({ context: s.context(req.typeName), config: req.config }, { diagnostics: diags });
    }
  });
  return { diagnostics: s.finish(diags, sensitiveStrings(r.schema, req.config)) };
}
