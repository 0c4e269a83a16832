/**
 * UpgradeResourceState: stored JSON of an older schema version → the current version's Value. Upgraders run one
 * version step at a time over raw JSON; then attributes added since are filled with null and removed ones dropped.
 */
import { type Diagnostic, Diagnostics } from "../framework/diagnostics.js";
import { type JsonObject, JsonValueError, valueFromJson } from "../framework/json-value.js";
import { fillEmptyBlocks, nullWriteOnly } from "../framework/schema-values.js";
import { typeOfBlock } from "../framework/to-wire.js";
import type { Value } from "../framework/values.js";
import { providerBug } from "./contract.js";
import { checkState } from "./contract-apply.js";
import type { UpgradeResourceStateRequest } from "./rpc.js";
import type { ServerState } from "./server-state.js";

function isJsonObject(j: unknown): j is JsonObject {
  return typeof j === "object" && j !== null && !Array.isArray(j);
}

/** Implements UpgradeResourceState (the engine calls it for every resource in state, even at the same version). */
export async function upgradeResourceState(
  s: ServerState,
  req: UpgradeResourceStateRequest,
): Promise<{ upgradedState: Value; diagnostics: readonly Diagnostic[] }> {
  const diags = new Diagnostics();
  const r = s.resource(req.typeName, diags);
  if (!r) return { upgradedState: null, diagnostics: s.finish(diags) };
  const current = r.schema.version ?? 0;
  const fail = (detail: string) => {
    diags.error("Unable to upgrade resource state", detail);
    return { upgradedState: null, diagnostics: s.finish(diags) };
  };
  if (req.rawJson === undefined) {
    if (req.rawFlatmap)
      return fail(`${req.typeName} state is in the legacy flatmap format, which this provider cannot read.`);
    return { upgradedState: null, diagnostics: [] };
  }
  if (req.rawJson === null) return { upgradedState: null, diagnostics: [] };
  if (!isJsonObject(req.rawJson)) return fail(`Stored ${req.typeName} state is not a JSON object.`);
  if (req.version > current) {
    return fail(
      `The state was written by a newer provider (schema version ${req.version}, this provider knows ${current}). Upgrade the provider.`,
    );
  }
  let json: JsonObject = req.rawJson;
  for (let v = req.version; v < current; v++) {
    const up = r.upgradeState?.[v];
    if (!up) {
      return fail(
        `${req.typeName} has no upgrader from schema version ${v} to ${v + 1}. This is always a bug in the provider, please report it.`,
      );
    }
    const from = json;
    const ok = await s.guard(diags, `${req.typeName} state upgrade from version ${v}`, async () => {
      json = await up(from, s.context(req.typeName));
    });
    if (!ok) return { upgradedState: null, diagnostics: s.finish(diags) };
  }
  let value: Value;
  try {
    value = valueFromJson(json, typeOfBlock(r.schema));
  } catch (e) {
    if (!(e instanceof JsonValueError)) throw e;
    return fail(`Stored ${req.typeName} state does not fit schema version ${current}: ${e.message}.`);
  }
  value = nullWriteOnly(r.schema, fillEmptyBlocks(r.schema, value));
  for (const p of checkState(r.schema, value)) diags.add(providerBug(req.typeName, "upgraded state", p));
  return { upgradedState: diags.hasError() ? null : value, diagnostics: s.finish(diags) };
}
