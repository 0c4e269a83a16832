/**
 * The `rackform` command line: every subcommand answers `--help` with its options, and an unknown option, a missing or a
 * bad value is one line on stderr naming the option and the fix, with exit code 2 — never a stack trace.
 */
import { lstatSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseCommand, UsageError } from "../../../src/cli/args.js";
import { COMMANDS, DEMO } from "../../../src/cli/commands.js";
import { appError, copyExample } from "../../../src/cli/demo.js";
import { main } from "../../../src/cli/main.js";
import { ROOT } from "../../support/rackform-e2e.js";

async function rackform(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

/** One line, no stack frames. */
function expectOneLine(stderr: string) {
  expect(stderr.endsWith("\n")).toBe(true);
  expect(stderr.trimEnd().split("\n")).toHaveLength(1);
  expect(stderr).not.toMatch(/\n\s+at |ERR_PARSE_ARGS|Error:/);
}

describe("rackform --help", () => {
  it("lists every subcommand and the exit codes", async () => {
    const r = await rackform("--help");
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toContain(`  ${c.name}`);
    expect(r.stdout).toContain("2 usage");
  });

  it("prints usage on stderr with exit 2 when no command is given", async () => {
    const r = await rackform();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^usage: rackform <command>/);
  });

  for (const spec of COMMANDS) {
    it(`answers \`rackform ${spec.name} --help\` with every option it accepts`, async () => {
      const r = await rackform(...spec.name.split(" "), "--help");
      expect(r).toMatchObject({ code: 0, stderr: "" });
      expect(r.stdout).toMatch(new RegExp(`^usage: rackform ${spec.name}`));
      for (const o of spec.options) expect(r.stdout).toContain(`  ${o.name}`);
      expect(r.stdout).toContain("--help");
      expect((await rackform("help", ...spec.name.split(" "))).stdout).toBe(r.stdout);
    });
  }
});

describe("rackform usage errors", () => {
  const cases: [string[], string][] = [
    [["lab", "up", "--nodez", "3", "--out", "x"], "rackform lab up: unknown option --nodez; did you mean --nodes?"],
    [
      ["lab", "up", "--nodes", "abc", "--out", "x"],
      'rackform lab up: --nodes: expected a whole number from 1 to 1024, got "abc"',
    ],
    [
      ["lab", "up", "--nodes", "0", "--out", "x"],
      'rackform lab up: --nodes: expected a whole number from 1 to 1024, got "0"',
    ],
    [
      ["lab", "up", "--profile", "fast", "--out", "x"],
      'rackform lab up: --profile: expected one of instant, demo, realistic, got "fast"',
    ],
    [
      ["lab", "up", "--join", "sometimes", "--out", "x"],
      "rackform lab up: --join: expected one of marker, always, never",
    ],
    [["lab", "up", "--speed", "-1", "--out", "x"], 'rackform lab up: --speed: expected a number above 0, got "-1"'],
    [
      ["lab", "up", "--nodes", "13", "--racks", "3", "--nodes-per-rack", "4", "--out", "x"],
      "rackform lab up: --nodes 13 do not fit --racks 3 of 4; raise --nodes-per-rack",
    ],
    [
      ["lab", "up", "--port", "70000", "--out", "x"],
      "rackform lab up: --port: expected a whole number from 0 to 65535",
    ],
    [
      ["lab", "up", "--spec", "/nonexistent/spec.json", "--out", "x"],
      "rackform lab up: --spec: cannot read /nonexistent/spec.json (ENOENT)",
    ],
    [["lab", "up"], "rackform lab up: --out is required: rackform lab up --out lab.json"],
    [["lab"], "rackform lab: which lab command? the lab has one: rackform lab up --out lab.json"],
    [["lab", "down"], 'rackform lab: unknown lab command "down"'],
    [["demo", "--engine", "tf"], 'rackform demo: --engine: expected one of terraform, tofu, got "tf"'],
    [["demo", "--nodes", "2.5"], 'rackform demo: --nodes: expected a whole number from 1 to 1024, got "2.5"'],
    [["demo", "--keep=yes"], "rackform demo: --keep takes no value; give it alone"],
    [["demo", "--exmaple", "gpu-rack"], "rackform demo: unknown option --exmaple; did you mean --example?"],
    [["demo", "--dir"], "rackform demo: --dir needs a value: --dir DIR"],
    [["install", "--dir", "a", "--dir", "b"], "rackform install: --dir given twice; give it once"],
    [["install", "somewhere"], 'rackform install: unexpected argument "somewhere"'],
    [["docs", "--output", "d"], "rackform docs: unknown option --output; did you mean --out?"],
    [["schema", "--json"], "rackform schema: unknown option --json; `rackform schema --help` lists the options"],
    [["plan-summary", "--bogus"], "rackform plan-summary: unknown option --bogus"],
    [["plan-summary", "--plan"], "rackform plan-summary: --plan needs a value: --plan [RACK=]FILE"],
    [["frob"], 'rackform frob: unknown command "frob"; run `rackform --help`'],
  ];
  for (const [argv, message] of cases) {
    it(`fails \`rackform ${argv.join(" ")}\` with one line and exit 2`, async () => {
      const r = await rackform(...argv);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      expect(r.stderr.startsWith(message)).toBe(true);
      expectOneLine(r.stderr);
    });
  }

  it("fails an unknown example with the examples to choose from, before starting a lab", async () => {
    const r = await rackform("demo", "--example", "nope", "--dir", "/nonexistent/demo");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^rackform demo: --example: no example "nope"; choose one of .*gpu-rack/);
    expectOneLine(r.stderr);
  });
});

describe("parseCommand", () => {
  it("takes --name=value and --name value alike, and keeps repeated values in order", () => {
    const p = parseCommand(DEMO, ["--nodes=4", "--engine", "tofu", "--keep"]);
    expect(p.values).toEqual({ nodes: 4, engine: "tofu", keep: true });
    expect(p.help).toBe(false);
  });

  it("fails with a UsageError that carries a stable code", () => {
    expect(() => parseCommand(DEMO, ["--bogus"])).toThrow(UsageError);
    try {
      parseCommand(DEMO, ["--bogus"]);
    } catch (e) {
      expect((e as UsageError).code).toBe("RACKFORM_ERR_CLI_USAGE");
    }
  });
});

describe("demo: a failed synth", () => {
  it("prints the app's error once: the copy in cdktf's summary, not its live echo", () => {
    const out = [
      "[2026-11-25T05:21:08.415] [ERROR] default - RackformValidationError (RACKFORM_ERR_CONSTRUCT_INVALID):",
      "gate/dcgmLevel: 9 is not a DCGM diag level in 1..4 — use 1 (quick)",
      "",
      "ERROR: cdktf encountered an error while synthesizing",
      "",
      "Synth command: tsx main.ts",
      "Error:         non-zero exit code 1",
      "",
      "Command output on stderr:",
      "",
      "    RackformValidationError (RACKFORM_ERR_CONSTRUCT_INVALID):",
      "    gate/dcgmLevel: 9 is not a DCGM diag level in 1..4 — use 1 (quick)",
      "",
      "",
      "",
      "⠦  Synthesizing",
    ].join("\n");
    expect(appError(out)).toBe(
      "RackformValidationError (RACKFORM_ERR_CONSTRUCT_INVALID):\ngate/dcgmLevel: 9 is not a DCGM diag level in 1..4 — use 1 (quick)\n",
    );
    expect(appError("some other failure")).toBeUndefined();
  });
});

describe("demo: the project is the user's copy", () => {
  it("copies the example and its lab-file helper, importing the library by package name, nothing relative to examples/", () => {
    const project = mkdtempSync(join(tmpdir(), "rf-demo-copy-"));
    try {
      const main = copyExample(join(ROOT, "examples", "fleet-rollout"), project);
      const text = readFileSync(main, "utf8");
      expect(main).toBe(join(project, "main.ts"));
      expect(text).toContain('from "@rackform/constructs"');
      expect(text).not.toContain(ROOT);
      expect(text).toContain('from "./lab-file.js"');
      expect(text).not.toContain('"../');
      expect(readFileSync(join(project, "lab-file.ts"), "utf8")).toBe(
        readFileSync(join(ROOT, "examples", "lab-file.ts"), "utf8"),
      );
      expect(lstatSync(join(project, "node_modules")).isSymbolicLink()).toBe(true);
      // the name resolves from the project as from an app that installed the package: to the built constructs
      expect(createRequire(join(project, "main.ts")).resolve("@rackform/constructs")).toBe(
        join(ROOT, "constructs", "dist", "lib", "index.js"),
      );
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
