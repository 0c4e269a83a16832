// The demo's build: esbuild transpiles every file of the provider (ESM, dist/) and of the constructs (CommonJS,
// constructs/dist/) one by one, without type checking, in about a second where `npm run build` (tsc) takes half a
// minute. The demo runs the provider from dist/ and its CDKTF app with tsx, so it needs JavaScript only. Type checking
// stays where it belongs: `npm test` and `npm run build` (and `prepack`) build with tsc, declarations included.
import { cpSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const root = join(fileURLToPath(import.meta.url), "..", "..");

/** Every .ts file under `dir` (no declaration files). */
function sources(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts") && !e.name.endsWith(".d.ts"))
    .map((e) => join(e.parentPath, e.name));
}

const common = { bundle: false, platform: "node", target: "node20", logLevel: "warning", sourcemap: false };

rmSync(join(root, "dist"), { recursive: true, force: true });
await build({
  ...common,
  entryPoints: sources(join(root, "src")),
  outdir: join(root, "dist"),
  outbase: join(root, "src"),
  format: "esm",
});
cpSync(join(root, "src", "protocol", "proto"), join(root, "dist", "protocol", "proto"), { recursive: true });

const constructs = join(root, "constructs");
rmSync(join(constructs, "dist"), { recursive: true, force: true });
await build({
  ...common,
  entryPoints: [...sources(join(constructs, "lib")), ...sources(join(constructs, "gen"))],
  outdir: join(constructs, "dist"),
  outbase: constructs,
  format: "cjs",
});
writeFileSync(join(constructs, "dist", "package.json"), '{ "type": "commonjs" }\n');
console.log(`transpiled ${relative(process.cwd(), join(root, "dist")) || "dist"} and constructs/dist (no type check)`);
