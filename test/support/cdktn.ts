/**
 * A CDK Terrain (cdktn) app as a platform team on the maintained line writes one: an npm app outside the repository
 * with cdktn 0.24, cdktn-cli 0.24 and a `constructs` within cdktn's peer range from the npm registry, and
 * `@rackform/constructs` from its packed tarball, imported as `@rackform/constructs/cdktn`. cdktn-cli needs Node 22,
 * which the set-up caches (scripts/node22.mjs) beside the machine's Node: every command of the app (npm, tsc, the CLI
 * and the app it synthesizes) runs with that Node first on PATH.
 */
import { existsSync } from "node:fs";
import { cp, mkdtemp, readFile, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
// @ts-expect-error plain ESM script without types
import { NODE22_VERSION, node22Bin, node22Problem } from "../../scripts/node22.mjs";
import { CDKTF_FLAGS, capture, cdktfEnv } from "./cdktf.js";
import type { Engine, RunResult } from "./engines.js";
import { npmEnv, ok } from "./packed-app.js";
import { ROOT } from "./rackform-e2e.js";

/** What a cdktn app installs from the registry beside the constructs tarball: cdktn's peer range for constructs. */
export const CDKTN_DEPS = [
  "cdktn@0.24.0",
  "cdktn-cli@0.24.0",
  "constructs@>=10.6.0 <10.8.0",
  "typescript@5.9",
  "@types/node@22",
] as const;

/** The pinned Node 22, or an error saying why it is missing: a cdktn test that cannot get it fails, never skips. */
export function node22(): string {
  const problem = (node22Problem as () => string | undefined)();
  if (problem) throw new Error(`the cdktn tests need Node ${NODE22_VERSION as string} and cannot get it: ${problem}`);
  return node22Bin() as string;
}

/** `env` with the pinned Node 22 first on PATH, so `npm`, `npx` and `node` in the app's commands run on it. */
export function withNode22(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, PATH: `${dirname(node22())}:${env.PATH ?? ""}` };
}

/** `npm pack` of the constructs workspace into `dest` (built by the suite's set-up, so no prepack); the tarball. */
export async function packConstructs(dest: string): Promise<string> {
  const args = ["pack", "--ignore-scripts", "--json", "--pack-destination", dest, "--workspace", "constructs"];
  const pack = await ok("npm", args, ROOT);
  return join(dest, (JSON.parse(pack.stdout) as { filename: string }[])[0].filename);
}

/**
 * A fresh cdktn app in `app`: npm init, the tarball and CDKTN_DEPS installed on Node 22, and the gpu-rack example's
 * main.ts switched to cdktn the way the README says (the two imports), with the examples' lab-file.ts, compiled by the
 * app's tsc against the installed package's types. cdktn 0.24 keeps cdktf.json and its cdktf.out folder.
 */
export async function createCdktnApp(app: string, tarball: string): Promise<void> {
  const env = withNode22(npmEnv());
  await ok("npm", ["init", "-y"], app, env);
  await ok("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", tarball, ...CDKTN_DEPS], app, env);
  const example = await readFile(join(ROOT, "examples", "gpu-rack", "main.ts"), "utf8");
  const main = example
    .replace(/from "@rackform\/constructs";/, 'from "@rackform/constructs/cdktn";')
    .replace(/from "cdktf";/, 'from "cdktn";')
    .replace(/from "\.\.\/lab-file\.js";/, 'from "./lab-file";');
  if (/"cdktf"|"@rackform\/constructs"|lab-file\.js/.test(main))
    throw new Error("examples/gpu-rack/main.ts changed its imports: update createCdktnApp's mapping");
  await writeFile(join(app, "main.ts"), main);
  await cp(join(ROOT, "examples", "lab-file.ts"), join(app, "lab-file.ts"));
  const tsconfig = {
    compilerOptions: {
      target: "ES2022",
      lib: ["ES2022"],
      module: "commonjs",
      moduleResolution: "node",
      strict: true,
      skipLibCheck: true,
      types: ["node"],
    },
    include: ["main.ts", "lab-file.ts"],
  };
  await writeFile(join(app, "tsconfig.json"), `${JSON.stringify(tsconfig, null, 2)}\n`);
  await ok("npx", ["tsc", "-p", "."], app, env);
}

/** A scratch cdktn project over the app's compiled main.js and its node_modules: its own cdktf.out and local state. */
export class CdktnProject {
  private constructor(
    readonly dir: string,
    readonly engine: Engine,
    private readonly app: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  static async create(app: string, engine: Engine, cliConfig: string, env: Record<string, string>) {
    const dir = await mkdtemp(join(tmpdir(), `rf-cdktn-${engine.name}-`));
    for (const f of ["main.js", "lab-file.js", "package.json"]) await cp(join(app, f), join(dir, f));
    await symlink(join(app, "node_modules"), join(dir, "node_modules"));
    const config = { language: "typescript", app: "node main.js", output: "cdktf.out", sendCrashReports: "false" };
    await writeFile(join(dir, "cdktf.json"), `${JSON.stringify(config, null, 2)}\n`);
    return new CdktnProject(dir, engine, app, withNode22(cdktfEnv(engine, cliConfig, env)));
  }

  /** `cdktn <args>` on Node 22 (cdktn-cli's bin, as `npx cdktn` runs it); never throws on a non-zero exit. */
  run(args: readonly string[]): Promise<RunResult> {
    const bin = join(this.app, "node_modules", "cdktn-cli", "bin", "cdktn");
    if (!existsSync(bin)) throw new Error(`${bin} is missing: the app's npm install did not install cdktn-cli`);
    return capture(node22(), [bin, ...args], this.dir, this.env);
  }

  deploy(stack: string): Promise<RunResult> {
    return this.run(["deploy", stack, "--auto-approve", ...CDKTF_FLAGS]);
  }

  /** `cdktn diff` synthesizes the app again and plans it. */
  diff(stack: string): Promise<RunResult> {
    return this.run(["diff", stack, ...CDKTF_FLAGS]);
  }

  /** The engine itself in a stack's working directory under cdktf.out, with this project's environment. */
  engineIn(stack: string, args: readonly string[]): Promise<RunResult> {
    return capture(this.engine.bin, args, join(this.dir, "cdktf.out", "stacks", stack), this.env);
  }
}
