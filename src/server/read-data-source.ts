/** ReadDataSource: config → a non-null, wholly known state that keeps every configured value. */

import type { DataSourceReadResponse } from "../framework/data-source.js";
import { type Diagnostic, Diagnostics } from "../framework/diagnostics.js";
import { isObjectValue, nullObject, sensitiveStrings } from "../framework/schema-values.js";
import type { Value } from "../framework/values.js";
import { providerBug } from "./contract.js";
import { checkApplied } from "./contract-apply.js";
import { markComputedUnknown } from "./plan-passes.js";
import type { ClientCapabilities } from "./rpc.js";
import type { ServerState } from "./server-state.js";
import { unknownAsNull } from "./value-utils.js";

/** Implements ReadDataSource. */
export async function readDataSource(
  s: ServerState,
  req: { typeName: string; config: Value; clientCapabilities?: ClientCapabilities },
): Promise<{ state: Value; diagnostics: readonly Diagnostic[] }> {
  const diags = new Diagnostics();
  const d = s.dataSource(req.typeName, diags);
  if (!d) return { state: req.config, diagnostics: s.finish(diags) };
  const config = isObjectValue(req.config) ? req.config : nullObject(d.schema);
  const fallback = unknownAsNull(config);
  const resp: DataSourceReadResponse = { state: config, diagnostics: diags };
  const ok = await s.guard(diags, `data ${req.typeName} read`, () =>
    d.read({ context: s.context(req.typeName), config }, resp),
  );
  const secrets = sensitiveStrings(d.schema, config, resp.state);
  if (!ok || diags.hasError()) return { state: fallback, diagnostics: s.finish(diags, secrets) };
  // What the engine expects: configured values unchanged, computed ones anything known.
  const expected = await markComputedUnknown(d.schema, { config, prior: null, plan: config });
  const problems = checkApplied(d.schema, expected, resp.state);
  for (const p of problems) diags.add(providerBug(req.typeName, "data source result", p));
  if (problems.length > 0) return { state: fallback, diagnostics: s.finish(diags, secrets) };
  return { state: resp.state, diagnostics: s.finish(diags, secrets) };
}
