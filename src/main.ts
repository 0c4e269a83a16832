/**
 * The provider executable's entry. Only the protocol layer loads before the handshake line; the provider, its clients
 * and their dependencies load while the engine connects (the engine launches a process for every plan and apply).
 */
import { prebuiltProviderSchema, serve } from "./protocol/index.js";

// Not a top-level await: the bundle is CommonJS (scripts/bundle-provider.mjs), run through a V8 code cache.
serve(
  async () => {
    const [{ createServer }, { rackformProvider, timingsFromEnv }] = await Promise.all([
      import("./server/index.js"),
      import("./provider/index.js"),
    ]);
    return createServer(rackformProvider({ duplicateChecks: true, timings: timingsFromEnv() }));
  },
  { schemaResponse: prebuiltProviderSchema() },
).catch((e: unknown) => {
  process.stderr.write(`rackform: the provider failed to start: ${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
