// `npm run gen`: generates the CDKTF L1 bindings (constructs/gen) from the provider's own schema (`rackform schema`),
// without an engine. Deep-imports the generator: the package root needs jsii-pacmak, which plain TypeScript output does not.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

process.env.CHECKPOINT_DISABLE = "1"; // @cdktf/commons would otherwise call a telemetry host
// It also runs `terraform version`, which warns when the CLI config the environment names is missing.
if (!existsSync(process.env.TF_CLI_CONFIG_FILE ?? "")) process.env.TF_CLI_CONFIG_FILE = "/dev/null";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));

/** Generates bindings for the schema JSON into `target` (replacing it). */
export async function generateBindings(schema, target) {
  const { TerraformProviderGenerator } = require("@cdktf/provider-generator/lib/get/generator/provider-generator");
  const { CodeMaker } = require("codemaker");
  const code = new CodeMaker();
  new TerraformProviderGenerator(code, schema).generateAll();
  rmSync(target, { recursive: true, force: true });
  await code.save(target);
}

/** The schema as `rackform schema` prints it (from the built provider). */
export function providerSchema() {
  return JSON.parse(execFileSync(process.execPath, [join(root, "dist/cli/main.js"), "schema"], { encoding: "utf8" }));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const target = process.argv[2] ?? join(root, "constructs", "gen");
  await generateBindings(providerSchema(), target);
  console.log(`gen: bindings written to ${target}`);
}

export const scratchDir = () => mkdtempSync(join(tmpdir(), "rf-gen-"));
