/** `rackform lab up` run from source as a child process, the way the CLI tests start it and stop it. */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";
import { ROOT } from "./rackform-e2e.js";

/** The CLI's entry point, run through tsx. */
export const CLI_MAIN = join(ROOT, "src", "cli", "main.ts");

/** A started `lab up`: its process and what it has printed so far. */
export interface LabUp {
  readonly child: ChildProcess;
  readonly stdout: string;
}

/**
 * A state dir for `lab up` runs and a starter; registers an afterAll that kills what still runs (a failed assertion
 * must not leave a lab in the background) and removes the dir.
 */
export function labUpRuns(prefix: string): { readonly dir: string; start(args: readonly string[]): Promise<LabUp> } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    dir,
    /** Runs `lab up <args>` and resolves once it printed its lab file; fails with stderr if it exits first. */
    async start(args) {
      const child = spawn(process.execPath, ["--import", "tsx", CLI_MAIN, "lab", "up", ...args], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      children.push(child);
      let stdout = "";
      let stderr = "";
      child.stderr?.on("data", (d) => (stderr += d));
      await new Promise<void>((resolve, reject) => {
        child.stdout?.on("data", (d) => {
          stdout += d;
          if (stdout.includes("lab file")) resolve();
        });
        child.on("exit", (code) => reject(new Error(`lab up exited ${code} before starting:\n${stderr}`)));
      });
      return {
        child,
        get stdout() {
          return stdout;
        },
      };
    },
  };
}
