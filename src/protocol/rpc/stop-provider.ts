/** StopProvider: the engine was interrupted (Ctrl-C); the server cancels in-flight work and returns fast. */
import type { RpcContext } from "./context.js";

/** tfplugin6.StopProvider.Response: a non-empty Error is shown to the user. */
export interface StopProviderWire {
  Error: string;
}

/** Adapter for Provider/StopProvider. */
export async function stopProvider(ctx: RpcContext, _req: unknown): Promise<StopProviderWire> {
  try {
    const res = await ctx.server.stopProvider();
    return { Error: res.error ?? "" };
  } catch (e) {
    return { Error: `This is always a bug in the provider: ${e instanceof Error ? e.message : String(e)}` };
  }
}
