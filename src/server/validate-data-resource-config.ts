/** ValidateDataResourceConfig: a data block against its schema, then the data source's own validateConfig. */
import { Diagnostics } from "../framework/diagnostics.js";
import { isObjectValue, sensitiveStrings } from "../framework/schema-values.js";
import type { Value } from "../framework/values.js";
import { validateConfig } from "./config-validation.js";
import type { DiagnosticsResponse } from "./rpc.js";
import type { ServerState } from "./server-state.js";

/** Implements ValidateDataResourceConfig. */
export async function validateDataResourceConfig(
  s: ServerState,
  req: { typeName: string; config: Value },
): Promise<DiagnosticsResponse> {
  const diags = new Diagnostics();
  const d = s.dataSource(req.typeName, diags);
  if (!d) return { diagnostics: s.finish(diags) };
  await s.guard(diags, `data ${req.typeName} config validation`, async () => {
    await validateConfig(d.schema, req.config, diags);
    if (d.validateConfig && isObjectValue(req.config)) {
      await d.validateConfig({ context: s.context(req.typeName), config: req.config }, { diagnostics: diags });
    }
  });
  return { diagnostics: s.finish(diags, sensitiveStrings(d.schema, req.config)) };
}
