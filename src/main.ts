/**
 * The provider executable's entry. Only the protocol layer loads before the handshake line; the provider, its clients
 * and their dependencies load while the engine connects (the engine launches a process for every plan and apply).
 */
import { serve } from "./protocol/index.js";

await serve(async () => {
  const [{ createServer }, { rackformProvider, timingsFromEnv }] = await Promise.all([
    import("./server/index.js"),
    import("./provider/index.js"),
  ]);
  return createServer(rackformProvider({ duplicateChecks: true, timings: timingsFromEnv() }));
});
