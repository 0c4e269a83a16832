/** The `rackform` command: install the provider, print its schema, write the docs, run the lab and the demo. */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { PROVIDER_VERSION, rackformProvider } from "../provider/index.js";
import { createServer } from "../server/index.js";
import { type CommandSpec, helpText, parseCommand, UsageError } from "./args.js";
import { COMMANDS, DEMO, DOCS, INSTALL, SCHEMA, usage } from "./commands.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The provider package that `rackform install` places in the mirror. */
export function rackformPackage() {
  return {
    namespace: "rackform",
    type: "rackform",
    version: PROVIDER_VERSION,
    exec: [process.execPath, join(root, "dist", "main.js")],
  };
}

/** Where the command writes: the process's streams, or a test's buffers. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
}

const processIo: CliIo = {
  stdout: (s) => void process.stdout.write(s),
  stderr: (s) => void process.stderr.write(s),
};

/** Parses a command's arguments; undefined after printing its help for `--help`. */
function args(spec: CommandSpec, argv: readonly string[], out: CliIo["stdout"]) {
  const parsed = parseCommand(spec, argv);
  if (parsed.help) {
    out(helpText(spec));
    return undefined;
  }
  return parsed.values as Record<string, string | number | boolean | undefined>;
}

async function run(cmd: string | undefined, rest: readonly string[], io: CliIo): Promise<number> {
  const out = io.stdout;
  switch (cmd) {
    case "install": {
      const v = args(INSTALL, rest, out);
      if (!v) return 0;
      const { install } = await import("./install.js");
      const home = resolve((v.dir as string | undefined) ?? process.env.RACKFORM_HOME ?? ".rackform");
      const { cliConfigPath } = await install(home, [rackformPackage()]);
      out(`export TF_CLI_CONFIG_FILE=${cliConfigPath}\n`);
      return 0;
    }
    case "schema": {
      if (!args(SCHEMA, rest, out)) return 0;
      const { providersSchemaJson } = await import("./schema-json.js");
      const s = createServer(rackformProvider()).getProviderSchema();
      out(
        `${JSON.stringify(providersSchemaJson("registry.terraform.io/rackform/rackform", PROVIDER_VERSION, s), null, 2)}\n`,
      );
      return 0;
    }
    case "lab": {
      const { LAB_UP, labUp } = await import("./lab-up.js");
      const [sub, ...labArgs] = rest;
      if (sub === "up") return labUp(labArgs, out);
      if (sub === "--help" || sub === "-h" || sub === "help") {
        out(helpText(LAB_UP));
        return 0;
      }
      if (sub === undefined) throw new UsageError("which lab command? the lab has one: rackform lab up --out lab.json");
      throw new UsageError(
        `unknown lab command ${JSON.stringify(sub)}; the lab has one: rackform lab up --out lab.json`,
      );
    }
    case "docs": {
      const v = args(DOCS, rest, out);
      if (!v) return 0;
      const { renderDocs } = await import("./docs.js");
      const { mkdirSync, writeFileSync } = await import("node:fs");
      const dir = resolve((v.out as string | undefined) ?? "docs");
      for (const [name, text] of renderDocs(createServer(rackformProvider()).getProviderSchema())) {
        mkdirSync(dirname(join(dir, name)), { recursive: true });
        writeFileSync(join(dir, name), text);
      }
      return 0;
    }
    case "demo": {
      const v = args(DEMO, rest, out);
      if (!v) return 0;
      const { demo } = await import("./demo.js");
      return demo({
        nodes: (v.nodes as number | undefined) ?? 8,
        engine: v.engine as string | undefined,
        dir: (v.dir as string | undefined) ?? join(".rackform", "demo"),
        keep: v.keep === true,
        pkg: rackformPackage(),
        example: v.example as string | undefined,
        profile: v.profile as string | undefined,
      });
    }
    case "plan-summary": {
      const { planSummary } = await import("./plan-summary/index.js");
      const { processIo: files } = await import("./plan-summary/io.js");
      return planSummary(rest, { ...files, stdout: io.stdout, stderr: io.stderr });
    }
    case "attest": {
      const { attestCommand } = await import("./attest-verify.js");
      return attestCommand(rest, out);
    }
    case "watch": {
      const { watch } = await import("./watch/command.js");
      return watch(rest, io.stdout, io.stderr);
    }
    case undefined:
      io.stderr(usage());
      return 2;
    case "help":
    case "--help":
    case "-h": {
      const spec = COMMANDS.find((c) => c.name === rest[0] || c.name === `${rest[0]} ${rest[1]}`);
      out(spec ? helpText(spec) : usage());
      return 0;
    }
    default:
      throw new UsageError(
        `unknown command ${JSON.stringify(cmd)}; run \`rackform --help\` for the commands (${COMMANDS.map((c) => c.name.split(" ")[0]).join(", ")})`,
      );
  }
}

/**
 * Runs `rackform ARGS`; resolves with the exit code: 0 done, 1 failed, 2 usage (an unknown option or a bad value).
 * Every failure is one line on stderr; `RACKFORM_DEBUG=1` adds the stack of an unexpected error.
 */
export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [cmd, ...rest] = argv;
  try {
    return await run(cmd, rest, io);
  } catch (e) {
    const name =
      (cmd === "lab" && rest[0] === "up") || (cmd === "attest" && rest[0] === "verify") ? `${cmd} ${rest[0]}` : cmd;
    if (e instanceof UsageError) {
      io.stderr(`rackform${name ? ` ${name}` : ""}: ${e.message}\n`);
      return 2;
    }
    const debug = process.env.RACKFORM_DEBUG && e instanceof Error ? `\n${e.stack}` : "";
    io.stderr(`rackform ${name}: ${e instanceof Error ? e.message : String(e)}${debug}\n`);
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
