/**
 * The README's main job: `rackform demo` deploys the default CDKTF example (examples/gpu-rack) with
 * `cdktf deploy --auto-approve` through a real engine — outlet, BMC, MAAS, golden image, acceptance gate, Slurm for a
 * simulated 8-node rack — prints the plan summary first and the rack after, and exits 0 with an empty `cdktf diff`.
 * Above one rack it deploys every rack: fleet-rollout's stacks in their waves, with a PostgreSQL of its own for state.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINES, engine } from "../support/engines.js";
import { ROOT } from "../support/rackform-e2e.js";

/** Runs `rackform demo` with `args`; the demo's output, both streams. */
function demo(args: string[]): Promise<{ code: number; text: string }> {
  return rackform(["demo", ...args]);
}

/** Runs `rackform ARGS`; its output, both streams. */
function rackform(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; text: string }> {
  return rackformIn(process.cwd(), args, env);
}

/** Runs `rackform ARGS` in `cwd`; its output, both streams. */
function rackformIn(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; text: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(ROOT, "dist/cli/main.js"), ...args],
      { cwd, env: { ...process.env, TF_CLI_CONFIG_FILE: "", ...env }, maxBuffer: 16 << 20 },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, text: stdout + stderr }),
    );
  });
}

describe.each(ENGINES)("rackform demo under %s", (name) => {
  it("deploys the gpu-rack example with cdktf: all 8 nodes joined in Slurm, the plan after deploy is empty, and no secret is printed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rf-demo-"));
    engine(name); // fails with a message when the engine is missing
    const out = await demo(["--dir", dir, "--engine", name]);
    expect(out.code, out.text).toBe(0);
    // The plan summary a reviewer reads before the deploy (rackform plan-summary over cdktf's plan of the stack)
    const review = out.text.slice(
      out.text.indexOf("The plan, as a reviewer reads it:"),
      out.text.indexOf("$ cdktf deploy"),
    );
    expect(review).toContain("rackform plan summary");
    expect(review).toMatch(/gpu-rack · 8 of 8 nodes change/);
    expect(review).toContain("8 join the cluster");
    expect(out.text).toMatch(/\$ cdktf deploy --auto-approve/);
    // A log for CI: cdktf runs with --no-color and CI set, so no colour or cursor code reaches the output
    expect(out.text).not.toContain("\u001b[");
    expect(out.text).toContain("Apply complete! Resources: 49 added, 0 changed, 0 destroyed.");
    expect(out.text).toMatch(
      /converged: 8 of 8 nodes joined Slurm in [\d.]+ s; the plan after deploy shows no changes/,
    );
    expect(
      out.text.match(/ On {6}8× GPU {2}Deployed {2}custom\/ubuntu-gpu-2026\.06\.2 {2}3\d\d\.\d GB\/s {2}IDLE/g),
    ).toHaveLength(8);
    // The live view was served while the rack deployed, and `rackform watch --once` counts the converged rack, given
    // the project folder (as `watch .` in it), its cdktf.out or the stack's .tfstate alike (the lab is gone with the
    // demo, so this is state alone; test/unit/cli/watch-stages.test.ts has the backends' and schedulers' words)
    expect(out.text).toMatch(/watch the rack converge: http:\/\/127\.0\.0\.1:\d+\/ \(rackform watch, read-only\)/);
    const lab = JSON.parse(readFileSync(join(dir, "lab.json"), "utf8"));
    const secrets = [lab.nodes[0].bmc.password, lab.maas.apiKey, lab.maas.apiKey.split(":")[2], lab.slurm.token];
    const project = join(dir, "project");
    for (const input of [".", "cdktf.out", "terraform.gpu-rack.tfstate"]) {
      const once = await rackformIn(project, ["watch", input, "--once"], { TERRAFORM_BINARY_NAME: engine(name).bin });
      expect(once.code, `${input}\n${once.text}`).toBe(0);
      expect(once.text).toMatch(
        /^rack\s+nodes\s+off\s+BMC up\s+firmware\s+enrolled\s+commissioning\s+ready\s+deploying\s+deployed\s+testing\s+attesting\s+joined$/m,
      );
      expect(once.text, input).toMatch(/^gpu-rack\s+8(\s+0){10}\s+8$/m);
      for (const secret of secrets) expect(once.text).not.toContain(secret);
    }
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(4);
      expect(out.text).not.toContain(secret); // secrets travel in TF_VAR_*, never printed
    }
    // The reviewed plan's JSON holds no credential: the constructs' secret variables are ephemeral (a saved plan keeps
    // every other variable's value in clear, sensitive or not)
    const planJson = readFileSync(join(dir, "project", "cdktf.out", "stacks", "gpu-rack", "plan.json"), "utf8");
    expect(planJson).toContain('"resource_changes"');
    for (const secret of secrets) expect(planJson).not.toContain(secret);
  }, 600_000); // the whole demo on a shared 2-core machine can take minutes; this only stops a hung run

  it("--nodes 12 deploys both racks (fleet-rollout, every stack in its wave, state in a local PostgreSQL): 12 of 12 joined", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rf-demo-fleet-"));
    engine(name);
    const out = await demo(["--nodes", "12", "--profile", "instant", "--dir", dir, "--engine", name]);
    expect(out.code, out.text).toBe(0);
    // The first line says which example deploys the racks and why
    expect(out.text.split("\n")[0]).toBe(
      "demo: --nodes 12 builds 2 racks of up to 8: deploying examples/fleet-rollout, one stack per rack in waves (the first rack a canary); state in a local PostgreSQL the demo starts",
    );
    expect(out.text).toMatch(/fleet-r01 · 8 of 8 nodes change/);
    expect(out.text).toMatch(/fleet-r02 · 4 of 4 nodes change/);
    // The review states the rollout's order from cdktf's manifest: the canary rack first, the second after it
    expect(out.text).toContain("Order: wave 1 (canary): fleet-r01 → wave 2: fleet-r02.");
    expect(out.text).toContain("$ cdktf deploy '*' --auto-approve");
    expect(out.text).toMatch(
      /converged: 12 of 12 nodes joined Slurm in [\d.]+ s; the plan after deploy shows no changes/,
    );
    expect(out.text.match(/ On {6}8× GPU {2}Deployed {2}custom\/ubuntu-gpu-2026\.06\.2 /g)).toHaveLength(12);
    const lab = JSON.parse(readFileSync(join(dir, "lab.json"), "utf8"));
    for (const secret of [lab.nodes[0].bmc.password, lab.maas.apiKey, lab.slurm.token]) {
      expect(out.text).not.toContain(secret);
    }
    expect(out.text).not.toMatch(/PGPASSWORD=/);
  }, 600_000);
});
