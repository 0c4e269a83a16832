/**
 * Real engines for e2e tests: Terraform from PATH and OpenTofu built by scripts/build-opentofu.sh.
 * A missing engine is a failure with a message, never a skip.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";

export interface Engine {
  readonly name: "terraform" | "tofu";
  readonly bin: string;
}

export const OPENTOFU_VERSION = process.env.OPENTOFU_VERSION ?? "v1.12.6";
/** The Terraform scripts/build-terraform.sh builds when none is on PATH. */
export const TERRAFORM_VERSION = process.env.TERRAFORM_VERSION ?? "v1.11.4";

/** Where set-up keeps what it builds or fetches (RACKFORM_CACHE, else ~/.cache/rackform). */
export const cacheDir = () => process.env.RACKFORM_CACHE ?? join(homedir(), ".cache", "rackform");

function which(cmd: string): string | undefined {
  try {
    return execFileSync("sh", ["-c", `command -v ${cmd}`], { encoding: "utf8" }).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** Resolves an engine binary or throws an error that says how to get it. */
export function engine(name: Engine["name"]): Engine {
  if (name === "terraform") {
    const built = join(cacheDir(), `terraform-${TERRAFORM_VERSION}`, "terraform");
    const bin = process.env.RACKFORM_TERRAFORM ?? which("terraform") ?? (existsSync(built) ? built : undefined);
    if (!bin) throw new Error("terraform is not on PATH: run scripts/setup.sh --tests (npm test does) to build it");
    return { name, bin };
  }
  const bin = process.env.RACKFORM_TOFU ?? join(cacheDir(), `opentofu-${OPENTOFU_VERSION}`, "tofu");
  if (!existsSync(bin)) throw new Error(`OpenTofu not found at ${bin}: run scripts/build-opentofu.sh (npm test does)`);
  return { name, bin };
}

/** Both engines, in the order tests run them. */
export const ALL_ENGINES: readonly Engine["name"][] = ["terraform", "tofu"];

/**
 * The engines this process tests: the e2e projects run every e2e file once per engine, each with
 * RACKFORM_E2E_ENGINE set (vitest.config.ts); without it (constructs, a file run on its own), both.
 */
export const ENGINES: readonly Engine["name"][] = selectedEngines(process.env.RACKFORM_E2E_ENGINE);

function selectedEngines(only: string | undefined): readonly Engine["name"][] {
  if (!only) return ALL_ENGINES;
  const picked = ALL_ENGINES.filter((e) => e === only);
  if (picked.length === 0) throw new Error(`RACKFORM_E2E_ENGINE=${only}: expected one of ${ALL_ENGINES.join(", ")}`);
  return picked;
}

export interface RunResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A working directory with a configuration, driven by one engine through a given CLI config. */
export class Workdir {
  private constructor(
    readonly engine: Engine,
    readonly dir: string,
    readonly cliConfig: string,
    readonly env: Readonly<Record<string, string>>,
  ) {}

  static async create(
    engine: Engine,
    cliConfig: string,
    files: Record<string, string>,
    env: Record<string, string> = {},
  ): Promise<Workdir> {
    const dir = await mkdtemp(join(tmpdir(), `rf-e2e-${engine.name}-`));
    const w = new Workdir(engine, dir, cliConfig, env);
    await w.write(files);
    return w;
  }

  async write(files: Record<string, string>): Promise<void> {
    for (const [name, text] of Object.entries(files)) await writeFile(join(this.dir, name), text);
  }

  /** Runs the engine with args; `onSpawn` gets the child (for kill tests). Never throws on a non-zero exit. */
  run(
    args: string[],
    opts: {
      onSpawn?: (pid: number) => void;
      onStdout?: (text: string) => void;
      env?: Record<string, string>;
      /** Interrupt the engine (SIGINT: it stops its operations and reports them) when it runs longer than this. */
      interruptAfterMs?: number;
    } = {},
  ): Promise<RunResult> {
    return new Promise((resolve, reject) => {
      const child = spawn(this.engine.bin, args, {
        cwd: this.dir,
        env: {
          ...process.env,
          TF_CLI_CONFIG_FILE: this.cliConfig,
          TF_IN_AUTOMATION: "1",
          CHECKPOINT_DISABLE: "1",
          TF_INPUT: "0",
          ...this.env,
          ...opts.env,
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => {
        stdout += d;
        opts.onStdout?.(stdout);
      });
      child.stderr.on("data", (d) => {
        stderr += d;
      });
      child.on("error", reject);
      if (child.pid !== undefined) opts.onSpawn?.(child.pid);
      const timer =
        opts.interruptAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGINT"), opts.interruptAfterMs);
      child.on("close", (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  /** Runs and throws with the engine's output when the exit code is not 0. */
  async ok(args: string[]): Promise<RunResult> {
    const r = await this.run(args);
    if (r.code !== 0) {
      throw new Error(
        `${this.engine.name} ${args.join(" ")} exited ${r.code}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`,
      );
    }
    return r;
  }
}

/** An engine's output with whitespace folded: it wraps diagnostic text at ~78 columns, so tests compare it folded. */
export const folded = (r: { readonly stdout: string; readonly stderr: string }): string =>
  (r.stdout + r.stderr).replace(/\s+/g, " ");
