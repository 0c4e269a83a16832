/**
 * Bundles the provider executable: dist/main.js becomes one ES module with its dependencies, the provider and server
 * layers in chunks under dist/provider-chunks/ that load while the engine connects (as src/main.ts asks). The engine
 * starts a provider process for every plan and apply, and loading ~900 modules from node_modules cost about 0.6 CPU-s
 * of each start; the bundle about 0.3. The other modules of dist (the CLI, the lab) stay as tsc writes them.
 * Run after tsc (npm run build:provider does both).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");

rmSync(join(DIST, "provider-chunks"), { recursive: true, force: true });
await build({
  entryPoints: { main: join(ROOT, "src", "main.ts") },
  outdir: DIST,
  chunkNames: "provider-chunks/[name]-[hash]",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
  // CommonJS dependencies (grpc-js, undici) call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as __rfRequire } from "node:module"; const require = __rfRequire(import.meta.url);',
  },
});
