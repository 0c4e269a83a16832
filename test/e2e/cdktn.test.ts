/**
 * CDK Terrain (cdktn), the maintained successor of CDKTF, as a platform team would use it with rackform: a cdktn 0.24
 * app on Node 22 (the set-up's pinned copy: scripts/node22.mjs) installs `@rackform/constructs` from its packed
 * tarball, imports `@rackform/constructs/cdktn` (the package's cdktn build) and runs the gpu-rack example with its two
 * imports switched to cdktn. Under each engine (one per e2e project; both when the file runs on its own) it synthesizes,
 * `rackform plan-summary` reads the create plan of cdktn's output folder with its manifest, `cdktn deploy` brings the
 * 4-node rack from outlets off to joined in Slurm through MAAS, `cdktn diff` (a new synth) then plans no change, and
 * `rackform watch --once` reads the project's folder. Once (with Terraform), the one source is type-checked against
 * cdktn's types, and the bindings @cdktn/provider-generator generates are compared with the package's.
 * Without Node 22 every test here fails saying so: it is never skipped.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Lab } from "../../src/lab/index.js";
import { outputOf } from "../support/cdktf.js";
import { CdktnProject, createCdktnApp, node22, packConstructs, withNode22 } from "../support/cdktn.js";
import { generateWithCdktn, unexplainedDifferences, unusedDifferences } from "../support/cdktn-bindings.js";
import { ENGINES, engine } from "../support/engines.js";
import { DEPLOY_TIMEOUT_MS, exampleEnv, maasStatuses, rackLab, secretsOf, slurmStates } from "../support/examples.js";
import { npmEnv, ok } from "../support/packed-app.js";
import { builtProvider, freshInstall, ROOT } from "../support/rackform-e2e.js";

const CLI = join(ROOT, "dist", "cli", "main.js");
const STACK = "gpu-rack";

let app: string;
let cliConfig: string;

beforeAll(async () => {
  node22(); // fails the file, saying what is missing, before anything is installed
  const packs = await mkdtemp(join(tmpdir(), "rf-cdktn-packs-"));
  app = await mkdtemp(join(tmpdir(), "rf-cdktn-app-"));
  await createCdktnApp(app, await packConstructs(packs));
  cliConfig = await freshInstall([builtProvider()]);
}, 300_000);

/** `rackform <args>` on Node 22, as the app's `npx rackform` would run. */
const rackform = (args: readonly string[], cwd: string, env: NodeJS.ProcessEnv) =>
  ok(node22(), [CLI, ...args], cwd, withNode22(env));

describe.each(ENGINES)("a cdktn 0.24 app on Node 22 under %s", (name) => {
  let lab: Lab;
  let labFile: string;
  beforeAll(async () => {
    ({ lab, labFile } = await rackLab(1, 4));
  });
  afterAll(async () => {
    await lab?.close();
  });

  it(
    "plan-summary reads cdktn's output folder; cdktn deploy converges the 4-node rack (MAAS Deployed, Slurm IDLE); cdktn diff plans no change; watch --once counts 4 joined",
    async () => {
      // GIVEN the app's project and a lab rack of four unpowered nodes
      const p = await CdktnProject.create(app, engine(name), cliConfig, exampleEnv(lab, labFile));
      const nodes = lab.info.nodes.map((n) => n.name);

      // WHEN cdktn synthesizes, and the engine plans the stack in cdktn's output folder as a pipeline does
      const synth = await p.run(["synth", "--no-color"]);
      expect(synth.code, outputOf(synth)).toBe(0);
      for (const args of [
        ["init", "-no-color"],
        ["plan", "-out=review.tfplan", "-no-color"],
      ]) {
        const r = await p.engineIn(STACK, args);
        expect(r.code, outputOf(r)).toBe(0);
      }
      const shown = await p.engineIn(STACK, ["show", "-json", "-no-color", "review.tfplan"]);
      expect(shown.code, outputOf(shown)).toBe(0);
      const plan = join(p.dir, "review.json");
      await writeFile(plan, shown.stdout);

      // THEN plan-summary reads it with cdktn's manifest: every node of the rack joins
      const summary = await rackform(
        ["plan-summary", "--plan", `r01=${plan}`, "--manifest", join(p.dir, "cdktf.out", "manifest.json")],
        p.dir,
        npmEnv(),
      );
      expect(summary.stdout).toContain("4 power on · 4 enroll · 4 deploy · 4 run acceptance · 4 join the cluster");
      for (const n of nodes) expect(summary.stdout).toMatch(new RegExp(`^\\| ${n} \\| on .*\\| join slurm \\|$`, "m"));

      // WHEN cdktn deploys the stack
      const deploy = await p.deploy(STACK);

      // THEN it converges as the cdktf example does, printing no secret
      expect(deploy.code, outputOf(deploy)).toBe(0);
      expect(deploy.stdout).toMatch(/Apply complete! Resources: 25 added, 0 changed, 0 destroyed\./);
      for (const secret of secretsOf(lab)) expect(deploy.stdout + deploy.stderr).not.toContain(secret);
      expect(await maasStatuses(lab, nodes)).toEqual(nodes.map((n) => [n, "Deployed"]));
      expect(await slurmStates(lab, nodes)).toEqual(nodes.map((n) => [n, "IDLE"]));

      // AND cdktn diff, synthesizing again, plans no change
      const diff = await p.diff(STACK);
      expect(diff.code, outputOf(diff)).toBe(0);
      expect(diff.stdout, outputOf(diff)).toMatch(/No changes\. Your infrastructure matches the configuration\./);

      // AND watch --once reads the cdktn project's folder: four nodes joined
      const once = await rackform(["watch", `r01=${p.dir}`, "--once"], p.dir, {
        ...npmEnv(),
        ...exampleEnv(lab, labFile),
      });
      expect(once.stdout).toMatch(/^r01\s+4(\s+0){10}\s+4$/m);
    },
    DEPLOY_TIMEOUT_MS,
  );
});

// Once per run: the Terraform project (or the file on its own) does it.
if (ENGINES.includes("terraform")) {
  describe("the package's cdktn build, from the one source", () => {
    it("type-checks constructs/lib and constructs/gen against cdktn 0.24's types, with cdktf mapped to cdktn", async () => {
      const tsconfig = {
        compilerOptions: {
          target: "ES2022",
          module: "commonjs",
          moduleResolution: "node",
          strict: true,
          noEmit: true,
          skipLibCheck: true,
          experimentalDecorators: true,
          types: ["node"],
          typeRoots: [join(app, "node_modules", "@types")],
          paths: { cdktf: [join(app, "node_modules", "cdktn")], constructs: [join(app, "node_modules", "constructs")] },
        },
        include: [join(ROOT, "constructs", "lib", "**", "*.ts"), join(ROOT, "constructs", "gen", "**", "*.ts")],
      };
      const path = join(app, "tsconfig.source.json");
      await writeFile(path, JSON.stringify(tsconfig));
      const tsc = await ok("npx", ["tsc", "-p", path], app, withNode22(npmEnv()));
      expect(tsc.code).toBe(0);
    });

    it("ships bindings that are @cdktn/provider-generator's, but for the differences the constructs README lists", async () => {
      const out = join(app, "cdktn-gen");
      await generateWithCdktn(node22(), app, out);
      expect(unexplainedDifferences(out)).toEqual([]);
      // and every difference listed still occurs (one the generators no longer make leaves the list and the README)
      expect(unusedDifferences()).toEqual([]);
    });
  });
}
