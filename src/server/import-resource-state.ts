/** ImportResourceState: an id → a state with the id set and the rest null; the engine calls ReadResource next. */
import { type Diagnostic, Diagnostics } from "../framework/diagnostics.js";
import { encodePrivate } from "../framework/private-state.js";
import type { ImportStateResponse } from "../framework/resource.js";
import { fillEmptyBlocks, nullObject, nullWriteOnly } from "../framework/schema-values.js";
import { providerBug } from "./contract.js";
import { checkState } from "./contract-apply.js";
import type { ClientCapabilities, ImportedResource } from "./rpc.js";
import type { ServerState } from "./server-state.js";

/** Implements ImportResourceState. */
export async function importResourceState(
  s: ServerState,
  req: { typeName: string; id: string; clientCapabilities?: ClientCapabilities },
): Promise<{ imported: readonly ImportedResource[]; diagnostics: readonly Diagnostic[] }> {
  const diags = new Diagnostics();
  const r = s.resource(req.typeName, diags);
  if (!r) return { imported: [], diagnostics: s.finish(diags) };
  if (!r.importState) {
    diags.error(
      "Resource import not supported",
      `${req.typeName} cannot be imported; create it from configuration instead.`,
    );
    return { imported: [], diagnostics: s.finish(diags) };
  }
  const importState = r.importState.bind(r);
  const resp: ImportStateResponse = { state: nullObject(r.schema), private: {}, diagnostics: diags };
  const ok = await s.guard(diags, `${req.typeName} import`, () =>
    importState({ context: s.context(req.typeName), id: req.id }, resp),
  );
  if (!ok || diags.hasError()) return { imported: [], diagnostics: s.finish(diags) };
  const state = nullWriteOnly(r.schema, fillEmptyBlocks(r.schema, resp.state));
  const problems = state === null ? [{ path: [], what: "import produced a null state" }] : checkState(r.schema, state);
  for (const p of problems) diags.add(providerBug(req.typeName, "imported state", p));
  if (problems.length > 0) return { imported: [], diagnostics: s.finish(diags) };
  return {
    imported: [{ typeName: req.typeName, state, private: encodePrivate(resp.private) }],
    diagnostics: s.finish(diags),
  };
}
