/**
 * UpgradeResourceState: stored state (JSON written with an older or the same schema version) → a value of the current
 * schema. Called for every resource in state, even at the same version. The raw JSON is parsed keeping numbers exact.
 */
import { encodeDynamicValue } from "../codec.js";
import { parseJsonLossless } from "../json.js";
import { encodeDiagnostics, type PbDiagnostic } from "../wire.js";
import { guard, type RpcContext, unknownTypeDiagnostic } from "./context.js";

/** tfplugin6.UpgradeResourceState.Request. */
export interface UpgradeResourceStateRequestWire {
  type_name: string;
  version: number | string;
  raw_state?: { json?: Uint8Array | null; flatmap?: Record<string, string> | null } | null;
}

/** tfplugin6.UpgradeResourceState.Response. */
export interface UpgradeResourceStateWire {
  upgraded_state?: { msgpack: Buffer };
  diagnostics: PbDiagnostic[];
}

/** Adapter for Provider/UpgradeResourceState. */
export function upgradeResourceState(
  ctx: RpcContext,
  req: UpgradeResourceStateRequestWire,
): Promise<UpgradeResourceStateWire> {
  return guard("UpgradeResourceState", async () => {
    const type = ctx.typeOf("resource", req.type_name);
    if (!type) return { diagnostics: [unknownTypeDiagnostic("resource", req.type_name)] };
    const raw = req.raw_state;
    const json = raw?.json && raw.json.length > 0 ? parseJsonLossless(raw.json) : undefined;
    const flatmap = raw?.flatmap && Object.keys(raw.flatmap).length > 0 ? raw.flatmap : undefined;
    const res = await ctx.server.upgradeResourceState({
      typeName: req.type_name,
      version: Number(req.version),
      ...(json !== undefined ? { rawJson: json } : {}),
      ...(flatmap ? { rawFlatmap: flatmap } : {}),
    });
    return {
      upgraded_state: encodeDynamicValue(res.upgradedState, type),
      diagnostics: encodeDiagnostics(res.diagnostics),
    };
  });
}
