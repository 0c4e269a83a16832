/**
 * Runs the examples as users do — `cdktf deploy` / `cdktf diff` from cdktf-cli — in a scratch project directory whose
 * cdktf.json points at one example, with the engine chosen by TERRAFORM_BINARY_NAME and the provider installed from a
 * filesystem mirror (TF_CLI_CONFIG_FILE). Each project keeps its own cdktf.out and local state, so tests do not meet.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Engine, RunResult } from "./engines.js";
import { ROOT } from "./rackform-e2e.js";

/** The cdktf CLI installed as a dev dependency (cdktf-cli 0.21). */
export const CDKTF_BIN = join(ROOT, "node_modules", ".bin", "cdktf");

/**
 * Flags every cdktf run here needs. `--skip-provider-lock`: after init, cdktf runs `providers lock -platform=...`,
 * which asks the origin registry and ignores the CLI config's filesystem mirror; init itself still writes the lock
 * file from the mirror. `--no-color`: output is matched as text.
 */
export const CDKTF_FLAGS = ["--skip-provider-lock", "--no-color"] as const;

/** The environment a cdktf run gets: engine, provider mirror, no telemetry, no prompts, no colour. */
export function cdktfEnv(engine: Engine, cliConfig: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TERRAFORM_BINARY_NAME: engine.bin,
    TF_CLI_CONFIG_FILE: cliConfig,
    CHECKPOINT_DISABLE: "1",
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    CI: "1",
    FORCE_COLOR: "0",
    ...extra,
  };
}

/** A scratch cdktf project running one example under one engine. */
export class CdktfProject {
  private constructor(
    readonly dir: string,
    readonly engine: Engine,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** A project for examples/<example>/main.ts; `env` carries the lab file path and TF_VAR_* secrets. */
  static async create(
    example: string,
    engine: Engine,
    cliConfig: string,
    env: Record<string, string> = {},
  ): Promise<CdktfProject> {
    if (!existsSync(CDKTF_BIN))
      throw new Error(`${CDKTF_BIN} is missing: run \`npm ci\` (cdktf-cli is a dev dependency)`);
    const main = join(ROOT, "examples", example, "main.ts");
    if (!existsSync(main)) throw new Error(`no example at ${main}`);
    const dir = await mkdtemp(join(tmpdir(), `rf-cdktf-${example}-${engine.name}-`));
    const config = {
      language: "typescript",
      app: `${join(ROOT, "node_modules", ".bin", "tsx")} ${main}`,
      output: "cdktf.out",
      sendCrashReports: "false",
      terraformProviders: [],
      terraformModules: [],
    };
    await writeFile(join(dir, "cdktf.json"), `${JSON.stringify(config, null, 2)}\n`);
    return new CdktfProject(dir, engine, cdktfEnv(engine, cliConfig, env));
  }

  /** A project that already exists in `dir` (its own cdktf.json), e.g. an app of a user's own outside the repository. */
  static at(dir: string, engine: Engine, cliConfig: string, env: Record<string, string> = {}): CdktfProject {
    if (!existsSync(join(dir, "cdktf.json"))) throw new Error(`no cdktf.json in ${dir}`);
    return new CdktfProject(dir, engine, cdktfEnv(engine, cliConfig, env));
  }

  /** Runs `cdktf <args>` in the project; never throws on a non-zero exit. */
  run(args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> {
    return capture(CDKTF_BIN, args, this.dir, { ...this.env, ...env });
  }

  /** `cdktf deploy <stacks> --auto-approve`, non-interactive. */
  deploy(stacks: readonly string[] = ["*"]): Promise<RunResult> {
    return this.run(["deploy", ...stacks, "--auto-approve", ...CDKTF_FLAGS]);
  }

  /** `cdktf diff <stack>` on what the last deploy synthesized (cdktf diffs one stack at a time). */
  diff(stack: string): Promise<RunResult> {
    return this.run(["diff", stack, "--skip-synth", ...CDKTF_FLAGS]);
  }

  /** The synthesized stacks by name, with their dependencies, from cdktf.out/manifest.json. */
  stacks(): { name: string; dependencies: string[]; workingDirectory: string }[] {
    const manifest = JSON.parse(readFileSync(join(this.dir, "cdktf.out", "manifest.json"), "utf8")) as {
      stacks: Record<string, { name: string; dependencies?: string[]; workingDirectory: string }>;
    };
    return Object.values(manifest.stacks).map((s) => ({
      name: s.name,
      dependencies: s.dependencies ?? [],
      workingDirectory: join(this.dir, "cdktf.out", s.workingDirectory),
    }));
  }

  /** Runs the engine itself in a stack's working directory (e.g. `show -json`), with this project's environment. */
  engineIn(stack: string, args: readonly string[]): Promise<RunResult> {
    const s = this.stacks().find((x) => x.name === stack);
    if (!s) throw new Error(`no stack ${stack} in ${this.dir}/cdktf.out`);
    return capture(this.engine.bin, args, s.workingDirectory, this.env);
  }
}

/** Runs `bin` with `args` in `cwd` and collects both streams; never throws on a non-zero exit. */
export function capture(bin: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The whole output of a run, for assertion messages. */
export const outputOf = (r: RunResult): string => `--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
