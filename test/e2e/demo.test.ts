/** The README's main job: `rackform demo` converges a simulated rack through a real engine and exits 0. */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINES, engine } from "../support/engines.js";
import { ROOT } from "../support/rackform-e2e.js";

describe.each(ENGINES)("rackform demo under %s", (name) => {
  it("converges all 8 outlets, shows every BMC up, and the plan after apply is empty", async () => {
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
    expect(out.text).toContain("Apply complete! Resources: 8 added, 0 changed, 0 destroyed.");
    expect(out.text).toMatch(/converged: 8 outlets on, plan after apply is empty/);
    expect(out.text.match(/ On {6}up {3}https:/g)).toHaveLength(8);
    const password = JSON.parse(readFileSync(join(dir, "lab.json"), "utf8")).pdus[0].password as string;
    expect(password.length).toBeGreaterThan(4);
    expect(out.text).not.toContain(password); // the lab password travels in TF_VAR_, never printed
  });
});
