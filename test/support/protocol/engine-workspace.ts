/**
 * A throwaway workspace in which a real engine (Terraform or OpenTofu) installs the echo provider from a filesystem
 * mirror (no registry, no network) and runs init/plan/apply against it.
 */
import { execFile } from "node:child_process";
import {
  accessSync,
  chmodSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ECHO_PROVIDER } from "./plugin-process.js";

/** An engine binary to drive. */
export interface Engine {
  readonly name: "terraform" | "tofu";
  readonly bin: string;
  /** The registry host a short `source = "ns/type"` expands to in this engine. */
  readonly host: string;
}

function onPath(cmd: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    const p = join(dir, cmd);
    try {
      accessSync(p, constants.X_OK);
      return p;
    } catch {}
  }
  return undefined;
}

/** Terraform from PATH; throws with instructions when it is missing. */
export function terraformEngine(): Engine {
  const bin = onPath("terraform");
  if (!bin)
    throw new Error("terraform is not on PATH: this test needs Terraform ≥ 1.11 (the machine image ships 1.11.4)");
  return { name: "terraform", bin, host: "registry.terraform.io" };
}

/** OpenTofu from $RACKFORM_TOFU or the scripts/build-opentofu.sh cache; throws with instructions when missing. */
export function tofuEngine(): Engine {
  const version = process.env.OPENTOFU_VERSION ?? "v1.12.6";
  const cache = process.env.RACKFORM_CACHE ?? join(homedir(), ".cache", "rackform");
  const bin = process.env.RACKFORM_TOFU ?? join(cache, `opentofu-${version}`, "tofu");
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    throw new Error(`OpenTofu not found at ${bin}: build it with scripts/build-opentofu.sh or set RACKFORM_TOFU`);
  }
  return { name: "tofu", bin, host: "registry.opentofu.org" };
}

/** The result of one engine command. */
export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A workspace: a mirror holding the echo provider, a CLI config pointing at it, and a working directory. */
export class EngineWorkspace {
  readonly root = mkdtempSync(join(tmpdir(), "rackform-smoke-"));
  readonly workDir = join(this.root, "work");
  private readonly cliConfig = join(this.root, "cli.tfrc");

  constructor(readonly engine: Engine) {
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    const pluginDir = join(this.root, "mirror", engine.host, "rackform", "echo", "0.0.1", "linux_amd64");
    mkdirSync(pluginDir, { recursive: true });
    mkdirSync(this.workDir);
    const launcher = join(pluginDir, "terraform-provider-echo_v0.0.1");
    // `exec` matters: go-plugin SIGKILLs the pid it started, which must be node itself, not a shell.
    writeFileSync(
      launcher,
      `#!/bin/sh\nRACKFORM_SMOKE_TAG=${this.root} exec ${JSON.stringify(process.execPath)} --import ${tsx} ${JSON.stringify(ECHO_PROVIDER)}\n`,
    );
    chmodSync(launcher, 0o755);
    const address = `${engine.host}/rackform/echo`;
    writeFileSync(
      this.cliConfig,
      `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(join(this.root, "mirror"))}\n    include = ["${address}"]\n  }\n  direct {\n    exclude = ["${address}"]\n  }\n}\n`,
    );
  }

  /** Writes main.tf. */
  writeConfig(hcl: string): void {
    writeFileSync(join(this.workDir, "main.tf"), hcl);
  }

  /** Reads a file of the working directory. */
  read(name: string): string {
    return readFileSync(join(this.workDir, name), "utf8");
  }

  /** Runs the engine with the given arguments in the working directory. */
  run(...args: string[]): Promise<RunResult> {
    const env = {
      ...process.env,
      TF_CLI_CONFIG_FILE: this.cliConfig,
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      TF_LOG: undefined,
    };
    return new Promise((resolve) => {
      execFile(
        this.engine.bin,
        [...args, "-no-color"],
        { cwd: this.workDir, env, timeout: 180_000, maxBuffer: 16 << 20 },
        (err, stdout, stderr) => {
          const code = err ? (typeof err.code === "number" ? err.code : -1) : 0;
          resolve({ code, stdout: String(stdout), stderr: String(stderr) });
        },
      );
    });
  }

  /** Pids of provider processes launched from this workspace that are still alive. */
  liveProviderPids(): number[] {
    const pids: number[] = [];
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const environ = readFileSync(`/proc/${entry}/environ`, "utf8");
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        const zombie = stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z";
        if (!zombie && environ.split("\0").includes(`RACKFORM_SMOKE_TAG=${this.root}`)) pids.push(Number(entry));
      } catch {}
    }
    return pids;
  }

  /** Removes the workspace. */
  dispose(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}
