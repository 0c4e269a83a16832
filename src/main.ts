/** The provider executable's entry: serve the rackform provider over the plugin protocol. */
import { serve } from "./protocol/index.js";
import { rackformProvider } from "./provider/index.js";
import { createServer } from "./server/index.js";

await serve(createServer(rackformProvider()));
