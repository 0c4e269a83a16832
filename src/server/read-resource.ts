/** ReadResource: refresh one object from the real world; null means it is gone. */
import { type Diagnostic, Diagnostics } from "../framework/diagnostics.js";
import { decodePrivate, encodePrivate, type PrivateState } from "../framework/private-state.js";
import type { ReadResponse } from "../framework/resource.js";
import { fillEmptyBlocks, isObjectValue, nullWriteOnly, sensitiveStrings } from "../framework/schema-values.js";
import type { Value } from "../framework/values.js";
import { providerBug } from "./contract.js";
import { checkState } from "./contract-apply.js";
import type { ReadResourceRequest } from "./rpc.js";
import type { ServerState } from "./server-state.js";

/** Implements ReadResource. */
export async function readResource(
  s: ServerState,
  req: ReadResourceRequest,
): Promise<{ newState: Value; private: Uint8Array; diagnostics: readonly Diagnostic[] }> {
  const diags = new Diagnostics();
  const same = { newState: req.currentState, private: req.private };
  const r = s.resource(req.typeName, diags);
  if (!r || !isObjectValue(req.currentState)) return { ...same, diagnostics: s.finish(diags) };
  const state = req.currentState;
  let priv: PrivateState;
  try {
    priv = decodePrivate(req.private);
  } catch {
    diags.error("Corrupt private state", `The private data stored with this ${req.typeName} is not valid JSON.`);
    return { ...same, diagnostics: s.finish(diags) };
  }
  const resp: ReadResponse = { state, private: priv, diagnostics: diags };
  const ok = await s.guard(diags, `${req.typeName} read`, () =>
    r.read({ context: s.context(req.typeName), state, private: { ...priv } }, resp),
  );
  const secrets = sensitiveStrings(r.schema, state, resp.state);
  if (!ok) return { ...same, diagnostics: s.finish(diags, secrets) };
  const newState = nullWriteOnly(r.schema, fillEmptyBlocks(r.schema, resp.state));
  const problems = checkState(r.schema, newState);
  for (const p of problems) diags.add(providerBug(req.typeName, "state after read", p));
  if (problems.length > 0) return { ...same, diagnostics: s.finish(diags, secrets) };
  return { newState, private: encodePrivate(resp.private), diagnostics: s.finish(diags, secrets) };
}
