/**
 * The packages as a platform team installs them (docs/own-app.md): `npm pack` of the provider/CLI
 * (`rackform`) and of the constructs (`@rackform/constructs`); a fresh cdktf app outside the repository (`npm init`,
 * its own cdktf.json, tsconfig.json and main.ts importing the package by name) that installs the two tarballs with
 * cdktf, constructs, typescript and @types/node from the npm registry; the installed bins set up the provider mirror
 * (`rackform install`) and start the lab (`rackform lab up`). Under Terraform, `cdktf deploy` brings the app's 2-node
 * rack from outlets off to joined in Slurm through Ironic, and `cdktf diff` then shows no changes. The suite runs every
 * e2e file once per engine; one deploy is enough, so under OpenTofu the same installed app is planned (`cdktf diff`:
 * synth with the app's own tsc against the package's types, init from the mirror, a plan of the whole rack).
 * Both runs check that the installed packages import nothing but their own dependencies at run time.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { copyFile, mkdtemp, rm } from "node:fs/promises";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { SlurmClient } from "../../src/clients/slurm/index.js";
import { CDKTF_FLAGS, CdktfProject, capture, outputOf } from "../support/cdktf.js";
import { ENGINES, engine } from "../support/engines.js";
import { DEPLOY_TIMEOUT_MS } from "../support/examples.js";
import { installPacked, npmEnv, ok, packTarballs } from "../support/packed-app.js";
import { ROOT } from "../support/rackform-e2e.js";

/** The app's files, as docs/own-app.md shows them. */
const FIXTURE = join(ROOT, "test", "fixtures", "own-app");
/** Packages a package's JS imports by bare specifier (not relative, not a Node builtin). */
/** The provider executable bundled with its dependencies (scripts/bundle-provider.mjs): dist/main.js, its loader, and the bundle. */
function isBundle(file: string): boolean {
  return file === "main.js" || file === "provider.cjs";
}

/**
 * What the bundled provider still loads from outside itself: its module imports, dynamic imports and the require()
 * calls esbuild kept — each must be Node's own module or the bundle beside its loader.
 */
function bundleLoads(dir: string): string[] {
  const out = new Set<string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!isBundle(file)) continue;
    const text = readFileSync(join(dir, file), "utf8");
    const specs = [
      ...text.matchAll(/^(?:import|export)\b[^"'\n]*?["']([^"']+)["']/gm),
      ...text.matchAll(/\b(?:__require|require|import)\(\s*["']([^"']+)["']\s*\)/g),
    ];
    for (const m of specs) {
      const spec = m[1];
      if (spec.startsWith("./") || spec.startsWith("../") || spec.startsWith("node:") || builtinModules.includes(spec))
        continue;
      out.add(`${spec} (${file})`);
    }
  }
  return [...out];
}

function importedPackages(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    if (!file.endsWith(".js") || isBundle(file)) continue;
    const text = readFileSync(join(dir, file), "utf8");
    for (const m of text.matchAll(
      /(?:\bfrom\s*|\bimport\s*\(\s*|^import\s+|\brequire\s*\(\s*)["']([^"'./][^"']*)["']/gm,
    )) {
      const spec = m[1];
      if (spec.startsWith("node:") || builtinModules.includes(spec)) continue;
      const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
      if (!found.has(name)) found.set(name, file);
    }
  }
  return found;
}

/** The lab file's parts the test reads (secrets included: they go to TF_VAR_*, never into the app). */
interface LabFile {
  nodes: { name: string; bmc: { password: string } }[];
  ironic: { url: string };
  slurm: { url: string; user: string; token: string };
}

let packs: string;
let app: string;
let lab: ChildProcess | undefined;
let labFile: LabFile;
let cliConfig: string;

beforeAll(async () => {
  // npm pack in the checkout (the suite's set-up built it).
  packs = await mkdtemp(join(tmpdir(), "rf-packs-"));
  const tarballs = await packTarballs(packs);
  expect(tarballs.map((t) => t.slice(packs.length + 1)).sort()).toEqual([
    "rackform-0.1.0.tgz",
    "rackform-constructs-0.1.0.tgz",
  ]);

  // A fresh app outside the repository: npm init, the tarballs and the registry packages, its own three files.
  app = await mkdtemp(join(tmpdir(), "rf-own-app-"));
  expect(relative(ROOT, app).startsWith("..")).toBe(true);
  await installPacked(app, tarballs);
  for (const f of ["main.ts", "cdktf.json", "tsconfig.json"]) await copyFile(join(FIXTURE, f), join(app, f));

  // The installed bins: the provider mirror for both engines, and the lab (a 2-node rack, instant timings).
  const install = await ok("npx", ["rackform", "install", "--dir", ".rackform"], app);
  cliConfig = /^export TF_CLI_CONFIG_FILE=(.+)$/m.exec(install.stdout)?.[1] ?? "";
  expect(cliConfig).toBe(join(app, ".rackform", "terraformrc"));
  lab = spawn(
    join(app, "node_modules", ".bin", "rackform"),
    ["lab", "up", "--nodes", "2", "--profile", "instant", "--out", "lab.json", "--state-dir", "lab-state"],
    { cwd: app, env: npmEnv(), stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((resolve, reject) => {
    let out = "";
    lab!.stdout!.on("data", (d) => {
      out += d;
      if (out.includes("lab file ")) resolve();
    });
    lab!.stderr!.on("data", (d) => void (out += d));
    lab!.on("exit", (code) => reject(new Error(`rackform lab up exited ${code} before the lab was up:\n${out}`)));
  });
  labFile = JSON.parse(readFileSync(join(app, "lab.json"), "utf8"));
}, 300_000);

afterAll(async () => {
  if (lab && lab.exitCode === null) {
    const exited = new Promise((done) => lab!.once("exit", done));
    lab.kill("SIGTERM");
    await exited;
  }
  if (app) await rm(app, { recursive: true, force: true });
  if (packs) await rm(packs, { recursive: true, force: true });
});

/** The app as cdktf runs it under `name`: the lab file and the secrets as TF_VAR_* (the names its stack declares). */
function project(name: (typeof ENGINES)[number]): CdktfProject {
  return CdktfProject.at(app, engine(name), cliConfig, {
    RACKFORM_LAB_FILE: join(app, "lab.json"),
    TF_VAR_redfish_password: labFile.nodes[0].bmc.password,
    TF_VAR_slurm_token: labFile.slurm.token,
  });
}

describe("the packed packages installed in an app of its own", () => {
  it("ship their run-time needs: the bins run, and the JS imports only the packages' own dependencies", async () => {
    const modules = join(app, "node_modules");
    const cli = JSON.parse(readFileSync(join(modules, "rackform", "package.json"), "utf8"));
    const imported = importedPackages(join(modules, "rackform", "dist"));
    const undeclared = [...imported].filter(([name]) => !(name in cli.dependencies));
    expect(undeclared, "imported by the CLI/provider but not in its dependencies").toEqual([]);
    // The provider executable is one bundle (and its loader) that loads nothing but Node's own modules.
    expect(existsSync(join(modules, "rackform", "dist", "main.js"))).toBe(true);
    expect(existsSync(join(modules, "rackform", "dist", "provider.cjs"))).toBe(true);
    expect(bundleLoads(join(modules, "rackform", "dist")), "loaded by the provider bundle from outside it").toEqual([]);

    const lib = JSON.parse(readFileSync(join(modules, "@rackform", "constructs", "package.json"), "utf8"));
    expect(Object.keys(lib.peerDependencies).sort()).toEqual(["cdktf", "cdktn", "constructs"]);
    // cdktf or cdktn: the app brings the one it uses (the cdktn build is @rackform/constructs/cdktn)
    expect(lib.peerDependenciesMeta).toEqual({ cdktf: { optional: true }, cdktn: { optional: true } });
    const libImported = importedPackages(join(modules, "@rackform", "constructs", "dist"));
    const libUndeclared = [...libImported].filter(
      ([name]) => !(name in lib.dependencies || name in lib.peerDependencies),
    );
    expect(libUndeclared, "imported by the constructs but in neither dependencies nor peerDependencies").toEqual([]);
    expect(libImported.has("cdktf") && libImported.has("constructs")).toBe(true);
    expect(existsSync(join(modules, "@rackform", "constructs", "dist", "lib", "index.d.ts"))).toBe(true);

    const help = await ok(join(modules, ".bin", "rackform"), ["--help"], app);
    expect(help.stdout).toContain("usage: rackform <command>");
    const provider = await capture(join(modules, ".bin", "terraform-provider-rackform"), [], app, npmEnv());
    expect(provider.stderr).toContain("This binary is a plugin for Terraform and OpenTofu");
  });

  // One engine deploys (Terraform), the other plans the same app: see the file's comment.
  for (const name of ENGINES.filter((e) => e === "terraform")) {
    it(
      `cdktf deploy under ${name} converges the 2-node rack (Ironic active, Slurm IDLE), and cdktf diff shows no changes`,
      async () => {
        const p = project(name);
        const deploy = await p.deploy(["my-rack"]);
        expect(deploy.code, outputOf(deploy)).toBe(0);
        expect(deploy.stdout).toMatch(/Apply complete! Resources: 13 added, 0 changed, 0 destroyed\./);
        for (const secret of [labFile.nodes[0].bmc.password, labFile.slurm.token])
          expect(deploy.stdout + deploy.stderr).not.toContain(secret);

        const nodes = labFile.nodes.map((n) => n.name);
        const ironic = new IronicClient({ url: labFile.ironic.url });
        const slurm = new SlurmClient({ ...labFile.slurm, nodeCacheMaxAgeMs: 0 });
        try {
          const provision = new Map((await ironic.listNodes()).map((n) => [n.name, n.provisionState]));
          expect(nodes.map((n) => [n, provision.get(n)])).toEqual(nodes.map((n) => [n, "active"]));
          const states = new Map((await slurm.listNodes()).map((n) => [n.name, n.state.join("+")]));
          expect(nodes.map((n) => [n, states.get(n)])).toEqual(nodes.map((n) => [n, "IDLE"]));
        } finally {
          await ironic.close();
          await slurm.close();
        }

        const diff = await p.run(["diff", "my-rack", ...CDKTF_FLAGS]);
        expect(diff.code, outputOf(diff)).toBe(0);
        expect(diff.stdout, outputOf(diff)).toMatch(/No changes\. Your infrastructure matches the configuration\./);
      },
      DEPLOY_TIMEOUT_MS,
    );
  }

  for (const name of ENGINES.filter((e) => e !== "terraform")) {
    it(
      `cdktf diff under ${name} synthesizes the app with its own tsc and plans the whole rack with the installed provider`,
      async () => {
        const diff = await project(name).run(["diff", "my-rack", ...CDKTF_FLAGS]);
        expect(diff.code, outputOf(diff)).toBe(0);
        expect(diff.stdout, outputOf(diff)).toMatch(/Plan: 13 to add, 0 to change, 0 to destroy\./);
      },
      DEPLOY_TIMEOUT_MS,
    );
  }
});
