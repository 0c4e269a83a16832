/**
 * The README's main job: `rackform demo` converges a simulated 8-node rack through a real engine — outlet, BMC, MAAS,
 * golden image, acceptance gate, Slurm — and exits 0 with an empty plan after apply.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINES, engine } from "../support/engines.js";
import { ROOT } from "../support/rackform-e2e.js";

describe.each(ENGINES)("rackform demo under %s", (name) => {
  it("converges all 8 nodes to joined in Slurm, the plan after apply is empty, and no secret is printed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "rf-demo-"));
    engine(name); // fails with a message when the engine is missing
    const out = await new Promise<{ code: number; text: string }>((resolve) => {
      execFile(
        process.execPath,
        [join(ROOT, "dist/cli/main.js"), "demo", "--dir", dir, "--engine", name],
        { env: { ...process.env, TF_CLI_CONFIG_FILE: "" }, maxBuffer: 16 << 20 },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, text: stdout + stderr }),
      );
    });
    expect(out.code, out.text).toBe(0);
    expect(out.text).toContain("Apply complete! Resources: 48 added, 0 changed, 0 destroyed.");
    expect(out.text).toMatch(/converged: 8 of 8 nodes joined Slurm in [\d.]+ s; plan after apply is empty/);
    expect(
      out.text.match(/ On {6}8× GPU {2}Deployed {2}custom\/ubuntu-gpu-2026\.06\.2 {2}3\d\d\.\d GB\/s {2}IDLE/g),
    ).toHaveLength(8);
    const lab = JSON.parse(readFileSync(join(dir, "lab.json"), "utf8"));
    const secrets = [lab.nodes[0].bmc.password, lab.maas.apiKey, lab.maas.apiKey.split(":")[2], lab.slurm.token];
    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(4);
      expect(out.text).not.toContain(secret); // secrets travel in TF_VAR_*, never printed
    }
  });
});
