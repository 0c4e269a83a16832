/** The `rackform` command: install the provider, print its schema, run the lab. */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PROVIDER_VERSION, rackformProvider } from "../provider/index.js";
import { createServer } from "../server/index.js";
import { install } from "./install.js";
import { providersSchemaJson } from "./schema-json.js";

const USAGE = `usage: rackform <command>
  install [--dir DIR]         put the provider into a filesystem mirror (both registry hosts) and write a CLI config
                              (default DIR: $RACKFORM_HOME or ./.rackform); prints the TF_CLI_CONFIG_FILE to export
  docs [--out DIR]            write the reference pages (provider, resources, error codes) generated from the schema
  schema                      print the provider schema as \`terraform providers schema -json\` does (with provider_versions)
  lab up [--nodes N] [--profile P] [--spec FILE] --out lab.json
                              run the simulated datacenter in the foreground until Ctrl-C
  demo [--nodes N] [--engine terraform|tofu] [--example NAME] [--dir DIR] [--keep]
                              start the lab, print the plan summary and \`cdktf deploy\` an example rack (default
                              gpu-rack) from outlet-off to joined in Slurm through a real engine
  plan-summary [--plan [RACK=]FILE]... [FILE]... [--out FILE]
                              Markdown for a pull request from \`terraform show -json PLANFILE\` output (stdin if no FILE)`;

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

function flag(args: string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

/** The provider package that `rackform install` places in the mirror. */
export function rackformPackage() {
  return {
    namespace: "rackform",
    type: "rackform",
    version: PROVIDER_VERSION,
    exec: [process.execPath, join(root, "dist", "main.js")],
  };
}

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case "install": {
      const home = resolve(flag(rest, "--dir") ?? process.env.RACKFORM_HOME ?? ".rackform");
      const { cliConfigPath } = await install(home, [rackformPackage()]);
      process.stdout.write(`export TF_CLI_CONFIG_FILE=${cliConfigPath}\n`);
      return 0;
    }
    case "schema": {
      const s = createServer(rackformProvider()).getProviderSchema();
      const out = providersSchemaJson("registry.terraform.io/rackform/rackform", PROVIDER_VERSION, s);
      process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
      return 0;
    }
    case "lab": {
      const { main: labMain } = await import("../lab/main.js");
      return labMain(rest);
    }
    case "docs": {
      const { renderDocs } = await import("./docs.js");
      const { mkdirSync, writeFileSync } = await import("node:fs");
      const out = resolve(flag(rest, "--out") ?? "docs");
      for (const [name, text] of renderDocs(createServer(rackformProvider()).getProviderSchema())) {
        mkdirSync(dirname(join(out, name)), { recursive: true });
        writeFileSync(join(out, name), text);
      }
      return 0;
    }
    case "demo": {
      const { demo } = await import("./demo.js");
      return demo({
        nodes: Number(flag(rest, "--nodes") ?? 8),
        engine: flag(rest, "--engine"),
        dir: flag(rest, "--dir") ?? join(".rackform", "demo"),
        keep: rest.includes("--keep"),
        pkg: rackformPackage(),
        example: flag(rest, "--example"),
      });
    }
    case "plan-summary": {
      const { planSummary } = await import("./plan-summary/index.js");
      const { processIo } = await import("./plan-summary/io.js");
      return planSummary(rest, processIo);
    }
    default:
      process.stderr.write(`${USAGE}\n`);
      return cmd === undefined || cmd === "help" || cmd === "--help" ? 0 : 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
