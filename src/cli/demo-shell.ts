/**
 * The demo's shell side: running the engine and cdktf, and what a user pastes to go on with a kept project.
 */
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Flags of every cdktf run. `--skip-provider-lock`: after init, cdktf runs `providers lock`, which asks the origin
 * registry and ignores the filesystem mirror; init alone writes the lock file from the mirror.
 */
export const CDKTF_FLAGS = ["--skip-provider-lock", "--no-color"];

export type Run = { code: number; out: string };

/** Runs a command; its output streams to the terminal when `show`, else is kept for an error report. */
export function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, show: boolean): Promise<Run> {
  return new Promise((done, fail) => {
    if (show) process.stdout.write(`\n$ ${[bin.split("/").pop(), ...args.map(quote)].join(" ")}\n`);
    const c = spawn(bin, args, { cwd, env, stdio: ["ignore", show ? "inherit" : "pipe", show ? "inherit" : "pipe"] });
    let out = "";
    c.stdout?.on("data", (d) => {
      out += d;
    });
    c.stderr?.on("data", (d) => {
      out += d;
    });
    c.on("error", fail);
    c.on("close", (code) => done({ code: code ?? 1, out }));
  });
}

const PASTE_VARS = [
  "TF_CLI_CONFIG_FILE",
  "RACKFORM_LAB_FILE",
  "TERRAFORM_BINARY_NAME",
  "RACKFORM_PG_CONN_STR",
  "TF_CLI_ARGS_apply",
  "CHECKPOINT_DISABLE",
] as const;
const DEMO_SECRETS = ["TF_VAR_redfish_password", "TF_VAR_maas_api_key", "TF_VAR_slurm_token", "PGPASSWORD"] as const;

/** A value as one shell word (single-quoted when it holds more than plain path characters). */
function quote(v: string): string {
  return /^[\w./:@=-]+$/.test(v) ? v : `'${v.replaceAll("'", "'\\''")}'`;
}

/**
 * The lines a user pastes to go on with a kept project: `export` lines for the non-secret variables set, the secrets
 * file to source (its values are never printed), and a `cdktf diff` (of one stack: cdktf refuses a bare diff of a
 * project with several, "Found more than one stack").
 */
export function pasteLines(
  env: NodeJS.ProcessEnv,
  secrets: string,
  project: string,
  stacks: readonly string[],
): string[] {
  const diff = `${join(ROOT, "node_modules", ".bin", "cdktf")} diff ${stacks.length > 1 ? `${stacks[0]} ` : ""}`;
  const which = stacks.length > 1 ? `   # one stack at a time: ${stacks.join(", ")}` : "";
  return [
    ...PASTE_VARS.flatMap((k) => (env[k] === undefined ? [] : [`export ${k}=${quote(env[k])}`])),
    `. ${secrets}   # this lab's secrets: TF_VAR_*${env.PGPASSWORD === undefined ? "" : ", PGPASSWORD"} (0600; not printed)`,
    `cd ${project} && ${diff}${CDKTF_FLAGS.join(" ")}${which}`,
  ];
}

/**
 * Keeps the lab running until Ctrl-C, whether or not every node joined, and prints what to paste to keep using the
 * project: the non-secret variables as `export` lines, and the secrets (TF_VAR_*, PGPASSWORD) as a 0600 file to
 * source — never printed.
 */
export async function keepLab(dir: string, project: string, env: NodeJS.ProcessEnv, stacks: string[]): Promise<void> {
  const secrets = join(dir, "secrets.env");
  const tfVars = DEMO_SECRETS.flatMap((k) => (env[k] === undefined ? [] : [[k, env[k]] as const]));
  writeFileSync(secrets, tfVars.map(([k, v]) => `export ${k}='${String(v).replaceAll("'", "'\\''")}'\n`).join(""), {
    mode: 0o600,
  });
  const lines = pasteLines(env, secrets, project, stacks);
  process.stdout.write(
    `\nlab still running (Ctrl-C to stop); the cdktf project ${project} is yours. To go on:\n\n${lines.join("\n")}\n`,
  );
  await new Promise<void>((r) => {
    process.once("SIGINT", r);
    process.once("SIGTERM", r);
  });
}
