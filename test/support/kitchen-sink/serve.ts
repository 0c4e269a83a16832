/**
 * Plugin entry for e2e tests: `exec node --import tsx test/support/kitchen-sink/serve.ts` from a launcher in a
 * filesystem mirror (see README.md here). Serves rfkitchen over the real plugin protocol.
 */
import { serve } from "../../../src/protocol/index.js";
import { createServer } from "../../../src/server/index.js";
import { kitchenSinkProvider } from "./provider.js";

await serve(createServer(kitchenSinkProvider()));
