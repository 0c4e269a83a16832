/**
 * The GetProviderSchema response encoded ahead of time. The engine's first provider process of every command only
 * asks for the schema, and building and encoding it meant loading the whole provider and running protobufjs over
 * every attribute while the engine waited. The build (scripts/bundle-provider.mjs) encodes it once from the same
 * sources as the bundle; the bundle's entry hands the bytes to `serve`, which answers with them as they are.
 */
import type { ProviderServer } from "../server/rpc.js";
import { loadProtocol } from "./proto.js";
import { RpcContext } from "./rpc/context.js";
import { getProviderSchema } from "./rpc/get-provider-schema.js";

/** The tfplugin6 GetProviderSchema.Response bytes `server` answers with (what the adapter would send). */
export async function encodeProviderSchema(server: ProviderServer): Promise<Uint8Array> {
  const res = await getProviderSchema(new RpcContext(server), {});
  return loadProtocol().provider.GetProviderSchema.responseSerialize(res);
}

/** Where the bundle's entry leaves the prebuilt response for the bundled `main` (scripts/provider-loader.mjs). */
export const PREBUILT_SCHEMA_KEY = Symbol.for("rackform.prebuiltProviderSchema");

/** The prebuilt response the entry left, if any (a provider run from tsc's modules has none). */
export function prebuiltProviderSchema(): Uint8Array | undefined {
  const v = (globalThis as Record<symbol, unknown>)[PREBUILT_SCHEMA_KEY];
  return v instanceof Uint8Array ? v : undefined;
}
