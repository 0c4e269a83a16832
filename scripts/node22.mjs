#!/usr/bin/env node
// A pinned Node 22 for the tests of CDK Terrain (cdktn-cli 0.24 needs Node >= 22.19), without touching the machine's
// Node: the npm registry's `node-linux-<arch>` package (its bin/node, integrity-checked by `npm pack`), cached in
// ~/.cache/rackform/node-v<version>/bin/node as scripts/build-opentofu.sh caches OpenTofu.
//   node scripts/node22.mjs   fetches it when missing and prints the binary's path (scripts/setup.sh --tests runs it)
// check-setup.mjs and the tests import NODE22_VERSION, node22Bin() and node22Problem() from here: one pin.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const NODE22_VERSION = process.env.RACKFORM_NODE22_VERSION ?? "22.23.3";

const cacheDir = () => process.env.RACKFORM_CACHE ?? join(homedir(), ".cache", "rackform");

/** Where the pinned Node 22 lives (RACKFORM_NODE22 names another binary). */
export function node22Bin() {
  return process.env.RACKFORM_NODE22 ?? join(cacheDir(), `node-v${NODE22_VERSION}`, "bin", "node");
}

/** Why the pinned Node 22 cannot run here, or undefined when `node22Bin() --version` prints the pinned version. */
export function node22Problem() {
  const bin = node22Bin();
  const fix = "run scripts/setup.sh --tests (npm test does) or node scripts/node22.mjs";
  if (!existsSync(bin)) return `Node ${NODE22_VERSION} (the cdktn tests) is not at ${bin}: ${fix}`;
  let version = "";
  try {
    version = execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();
  } catch (e) {
    return `${bin} --version failed (${e.message.split("\n")[0]}): ${fix}`;
  }
  if (!process.env.RACKFORM_NODE22 && version !== `v${NODE22_VERSION}`)
    return `${bin} is ${version}, not the pinned v${NODE22_VERSION}: ${fix}`;
  if (!/^v(2[2-9]|[3-9]\d)\./.test(version)) return `${bin} is ${version}; the cdktn tests need Node 22 or later`;
  return undefined;
}

/** The registry package holding Node's binary for this machine. */
function packageName() {
  const arch = { x64: "x64", arm64: "arm64" }[process.arch];
  if (process.platform !== "linux" || !arch)
    throw new Error(`node22: no registry package for ${process.platform}/${process.arch}; set RACKFORM_NODE22`);
  return `node-linux-${arch}@${NODE22_VERSION}`;
}

/** Fetches the pinned Node 22 into the cache unless it is there; its path. */
export function ensureNode22() {
  if (!node22Problem()) return node22Bin();
  if (process.env.RACKFORM_NODE22) throw new Error(node22Problem());
  const bin = node22Bin();
  const home = dirname(dirname(bin));
  // Unpacked beside the cache, so the final rename never crosses file systems (a temp folder may be another one).
  mkdirSync(dirname(home), { recursive: true });
  const scratch = mkdtempSync(join(dirname(home), ".node22-"));
  try {
    const spec = packageName();
    console.error(`node22: fetching ${spec} from the npm registry`);
    const packed = JSON.parse(execFileSync("npm", ["pack", spec, "--json", "--silent"], { cwd: scratch }).toString());
    const unpacked = join(scratch, "node");
    mkdirSync(unpacked);
    execFileSync("tar", ["xzf", join(scratch, packed[0].filename), "-C", unpacked, "--strip-components=1"]);
    rmSync(join(unpacked, "include"), { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
    renameSync(unpacked, home);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const problem = node22Problem();
  if (problem) throw new Error(problem);
  return bin;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(ensureNode22());
