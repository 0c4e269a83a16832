/**
 * ApplyResourceChange: create (no prior state), update, or delete (planned state null). The new state must be
 * wholly known and keep every known planned value; a breach is reported as a provider bug before the engine sees it.
 */
import { type Diagnostic, Diagnostics } from "../framework/diagnostics.js";
import { decodePrivate, encodePrivate, type PrivateState } from "../framework/private-state.js";
import type { CreateResponse, Resource, UpdateResponse } from "../framework/resource.js";
import {
  fillEmptyBlocks,
  isObjectValue,
  nullWriteOnly,
  type ObjectValue,
  sensitiveStrings,
} from "../framework/schema-values.js";
import { typeOfBlock } from "../framework/to-wire.js";
import { containsUnknown, type Value } from "../framework/values.js";
import { checkType, type Problem, providerBug } from "./contract.js";
import { checkApplied } from "./contract-apply.js";
import type { ApplyResourceChangeRequest } from "./rpc.js";
import type { ServerState } from "./server-state.js";
import { unknownAsNull } from "./value-utils.js";

type ApplyResult = { newState: Value; private: Uint8Array; diagnostics: readonly Diagnostic[] };

async function destroy(
  s: ServerState,
  r: Resource,
  req: ApplyResourceChangeRequest,
  priv: PrivateState,
  diags: Diagnostics,
) {
  const state = req.priorState as ObjectValue;
  const ok = await s.guard(diags, `${req.typeName} delete`, () =>
    r.delete({ context: s.context(req.typeName), state, private: priv }, { diagnostics: diags }),
  );
  return ok && !diags.hasError()
    ? { newState: null, private: new Uint8Array(0) }
    : { newState: req.priorState, private: req.plannedPrivate };
}

/** Implements ApplyResourceChange. */
export async function applyResourceChange(s: ServerState, req: ApplyResourceChangeRequest): Promise<ApplyResult> {
  const diags = new Diagnostics();
  const r = s.resource(req.typeName, diags);
  const unchanged = { newState: req.priorState, private: req.plannedPrivate };
  if (!r) return { ...unchanged, diagnostics: s.finish(diags) };
  const { schema } = r;
  const secrets = sensitiveStrings(schema, req.config, req.priorState, req.plannedState);
  let priv: PrivateState;
  try {
    priv = decodePrivate(req.plannedPrivate);
  } catch {
    diags.error("Corrupt private state", `The private data stored with this ${req.typeName} is not valid JSON.`);
    return { ...unchanged, diagnostics: s.finish(diags, secrets) };
  }
  if (req.plannedState === null) {
    if (!isObjectValue(req.priorState)) return { newState: null, private: new Uint8Array(0), diagnostics: [] };
    return { ...(await destroy(s, r, req, priv, diags)), diagnostics: s.finish(diags, secrets) };
  }
  if (!isObjectValue(req.plannedState) || !isObjectValue(req.config)) {
    diags.error(
      "Invalid apply request",
      `The engine sent a planned state or config for ${req.typeName} that is not an object.`,
    );
    return { ...unchanged, diagnostics: s.finish(diags, secrets) };
  }
  const creating = !isObjectValue(req.priorState);
  const base = { context: s.context(req.typeName), config: req.config, plan: req.plannedState };
  const resp: CreateResponse | UpdateResponse = { state: req.plannedState, private: { ...priv }, diagnostics: diags };
  const ok = await s.guard(diags, `${req.typeName} ${creating ? "create" : "update"}`, () =>
    creating
      ? r.create(base, resp)
      : r.update({ ...base, state: req.priorState as ObjectValue, private: { ...priv } }, resp),
  );
  const allSecrets = [...secrets, ...sensitiveStrings(schema, resp.state)];
  // A failed create records nothing unless the resource left a wholly known state (then the engine taints it).
  const failed = { newState: creating ? null : req.priorState, private: req.plannedPrivate };
  if (!ok) return { ...failed, diagnostics: s.finish(diags, allSecrets) };
  const shape: Problem[] = [];
  checkType(resp.state, typeOfBlock(schema), [], shape);
  if (shape.length > 0 || (diags.hasError() && (resp.state === null || containsUnknown(resp.state)))) {
    for (const p of shape) diags.add(providerBug(req.typeName, "new state after apply", p));
    return { ...failed, diagnostics: s.finish(diags, allSecrets) };
  }
  const newState = nullWriteOnly(schema, fillEmptyBlocks(schema, resp.state));
  if (!diags.hasError()) {
    for (const p of checkApplied(schema, req.plannedState, newState)) {
      diags.add(providerBug(req.typeName, "new state after apply", p));
    }
  }
  if (newState === null) return { ...failed, diagnostics: s.finish(diags, allSecrets) };
  return {
    newState: unknownAsNull(newState),
    private: encodePrivate(resp.private),
    diagnostics: s.finish(diags, allSecrets),
  };
}
