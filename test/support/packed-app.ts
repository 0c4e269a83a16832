/**
 * The packages as a platform team installs them (docs/own-app.md): `npm pack` of the provider/CLI (`rackform`) and of
 * the constructs (`@rackform/constructs`) from the checkout, installed with cdktf, constructs, typescript and
 * @types/node from the npm registry into an app directory outside the repository.
 */
import { join } from "node:path";
import { capture, outputOf } from "./cdktf.js";
import type { RunResult } from "./engines.js";
import { ROOT } from "./rackform-e2e.js";

/** What an app installs from the npm registry beside the two tarballs (npm's cache first). */
export const REGISTRY_DEPS = ["cdktf@^0.21.0", "constructs@^10.4.2", "typescript@5.9", "@types/node@20"];

/** The environment of an npm run: none of the npm_* variables an enclosing `npm test` sets, no prompts. */
export function npmEnv(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
  return { ...env, CI: "1", NO_UPDATE_NOTIFIER: "1" };
}

/** Runs `bin args` in `cwd`; throws with its output when it exits non-zero. */
export async function ok(bin: string, args: readonly string[], cwd: string, env = npmEnv()): Promise<RunResult> {
  const r = await capture(bin, args, cwd, env);
  if (r.code !== 0) throw new Error(`${bin} ${args.join(" ")} exited ${r.code}\n${outputOf(r)}`);
  return r;
}

/**
 * `npm pack` of the checkout's two packages into `dest`; the tarballs' paths. --ignore-scripts: the packages' prepack
 * runs `npm run build`, which the suite's set-up has done; building again would swap dist/ under the other test files.
 */
export async function packTarballs(dest: string): Promise<string[]> {
  const pack = await ok(
    "npm",
    ["pack", "--ignore-scripts", "--json", "--pack-destination", dest, "--workspaces", "--include-workspace-root"],
    ROOT,
  );
  return (JSON.parse(pack.stdout) as { filename: string }[]).map((p) => join(dest, p.filename));
}

/** A fresh npm app in `app` (npm init) with the tarballs and the registry packages installed. */
export async function installPacked(app: string, tarballs: readonly string[]): Promise<void> {
  await ok("npm", ["init", "-y"], app);
  await ok("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs, ...REGISTRY_DEPS], app);
}
