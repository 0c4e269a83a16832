#!/usr/bin/env node
// The CDK Terrain build of the package (`@rackform/constructs/cdktn`): dist/lib and dist/gen, compiled once from the
// one source, copied to dist/cdktn/ with the module specifier "cdktf" mapped to "cdktn" in every require() of the
// JavaScript and every import of the declarations. Nothing else changes: cdktn 0.24 exports every name cdktf 0.21 does,
// and what @cdktn/provider-generator generates differs from gen/ only as the README's "CDK Terrain" says.
// Fails when a file names cdktf in any other module form, so a new form cannot slip through unmapped.
//   node build-cdktn.mjs   (after tsc; `npm run build` in this folder runs both)
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const dist = join(dirname(fileURLToPath(import.meta.url)), "dist");
const out = join(dist, "cdktn");

/** `require("cdktf")`, `from "cdktf"`, `import("cdktf")`, with either quote. */
const SPECIFIER = /(\brequire\(\s*|\bfrom\s+|\bimport\(\s*)(["'])cdktf\2/g;
/** Any module specifier naming cdktf or a path inside it, for the check that nothing stays unmapped. */
const LEFT = /(\brequire\(\s*|\bfrom\s+|\bimport\(\s*|^import\s+)["']cdktf(\/[^"']*)?["']/m;

rmSync(out, { recursive: true, force: true });
let mapped = 0;
for (const part of ["lib", "gen"]) {
  cpSync(join(dist, part), join(out, part), { recursive: true });
  for (const file of readdirSync(join(out, part), { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".js") && !file.endsWith(".d.ts")) continue;
    const path = join(out, part, file);
    const text = readFileSync(path, "utf8");
    const next = text.replace(SPECIFIER, (_m, head, quote) => {
      mapped++;
      return `${head}${quote}cdktn${quote}`;
    });
    if (LEFT.test(next)) throw new Error(`build-cdktn: ${path} still imports cdktf in a form this script does not map`);
    if (next !== text) writeFileSync(path, next);
  }
}
if (mapped === 0) throw new Error("build-cdktn: no cdktf import found in dist/ (run tsc first)");
console.log(`build-cdktn: dist/cdktn written (${mapped} imports of cdktf mapped to cdktn)`);
