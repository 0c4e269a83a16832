/**
 * Bundles the provider executable: src/main.ts with its dependencies becomes one CommonJS file, dist/provider.cjs,
 * and dist/main.js the small entry that runs it through a V8 code cache (scripts/provider-loader.mjs), with the
 * GetProviderSchema answer encoded beside it (dist/provider-schema.<hash>.bin, src/protocol/prebuilt-schema.ts). The engine
 * starts a provider process for every plan and apply: loading ~900 modules from node_modules cost about 0.6 CPU-s of
 * each start, the bundle about 0.3, and the code cache spares most of what is left of compiling it. The server and
 * provider layers still evaluate only after the handshake line (esbuild keeps a dynamic import() of a bundled module
 * as a lazy initialiser). The other modules of dist (the CLI, the lab) stay as tsc writes them.
 * Run after tsc (npm run build:provider does both).
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = join(ROOT, "dist");
const BUNDLE = join(DIST, "provider.cjs");

rmSync(join(DIST, "provider-chunks"), { recursive: true, force: true });
for (const f of readdirSync(DIST)) if (/^provider(\.cjs|-schema\.)/.test(f)) rmSync(join(DIST, f), { force: true });
await build({
  entryPoints: [join(ROOT, "src", "main.ts")],
  outfile: BUNDLE,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  charset: "ascii",
  logLevel: "warning",
});
// The loader reads the bundle as Latin-1 when it is ASCII: a one-byte string V8 takes as it is, where decoding UTF-8
// was a measurable part of every start. esbuild escapes strings, templates and identifiers (charset ascii); what is
// left is comments (a line comment, a block comment's line), whose characters are replaced here. Anything else keeps
// the bundle UTF-8, read as such.
const ascii = readFileSync(BUNDLE, "utf8")
  .split("\n")
  .map((line) => {
    if (!/[\u0080-\uffff]/.test(line)) return line;
    const at = /^\s*(\*|\/\*)/.test(line) ? 0 : line.indexOf("//");
    return at < 0 ? line : line.slice(0, at) + line.slice(at).replace(/[\u0080-\uffff]/g, "?");
  })
  .join("\n");
const encoding = /[\u0080-\uffff]/.test(ascii) ? "utf8" : "latin1";
if (encoding === "latin1") writeFileSync(BUNDLE, ascii);
const hash = createHash("sha256").update(readFileSync(BUNDLE)).digest("hex").slice(0, 16);
// The GetProviderSchema answer, encoded from tsc's modules of the same sources (src/protocol/prebuilt-schema.ts).
const [{ encodeProviderSchema }, { createServer }, { rackformProvider }] = await Promise.all([
  import(join(DIST, "protocol", "prebuilt-schema.js")),
  import(join(DIST, "server", "index.js")),
  import(join(DIST, "provider", "index.js")),
]);
const schema = await encodeProviderSchema(createServer(rackformProvider({ duplicateChecks: true })));
writeFileSync(join(DIST, `provider-schema.${hash}.bin`), schema);
const loader = readFileSync(join(ROOT, "scripts", "provider-loader.mjs"), "utf8");
if (!loader.includes('"__BUNDLE_HASH__"'))
  throw new Error("scripts/provider-loader.mjs lost its BUNDLE_HASH placeholder");
if (!loader.includes('"__BUNDLE_ENCODING__"'))
  throw new Error("scripts/provider-loader.mjs lost its BUNDLE_ENCODING placeholder");
writeFileSync(
  join(DIST, "main.js"),
  loader.replace('"__BUNDLE_HASH__"', JSON.stringify(hash)).replace('"__BUNDLE_ENCODING__"', JSON.stringify(encoding)),
);
