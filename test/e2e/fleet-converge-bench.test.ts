/**
 * The fleet benchmark's sanity size, as CI runs it: 2 stacks of 2 nodes on the `instant` profile, every stack applied
 * at once by its own engine with state in PostgreSQL, then a no-op plan of each. Its figures are printed, never
 * asserted (this machine is shared); what is asserted is that the benchmark itself works: every stack converges, the
 * no-op plan is empty, and each figure line is there. MAAS under Terraform, Ironic under OpenTofu.
 */
import { spawn } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../support/engines.js";
import { ROOT } from "../support/rackform-e2e.js";
import { testDatabase } from "../support/shared-counterparts.js";

function bench(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ["--import", "tsx", join(ROOT, "test/bench/fleet-converge-bench.ts"), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => {
      out += d;
    });
    child.stderr.on("data", (d) => {
      out += d;
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, out }));
  });
}

describe.each(ENGINES)("npm run bench:fleet-converge at its sanity size under %s", (engine) => {
  const backend = engine === "terraform" ? "maas" : "ironic";
  it(`converges 2 stacks × 2 nodes through ${backend} at once, then plans no change, printing every figure`, async () => {
    const pg = await testDatabase(`fleet_bench_${engine}`);
    const r = await bench(
      ["--stacks", "2", "--nodes", "2", "--profile", "instant", "--backend", backend, "--engine", engine],
      { RACKFORM_PG_CONN_STR: pg.connStr, PGPASSWORD: pg.password },
    );
    await pg.stop();
    console.log(r.out);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toMatch(/^ {2}apply: [\d.]+ s.*; 2\/2 stacks ok \(goal: all\)$/m);
    expect(r.out).toMatch(/^ {2}no-op plan: [\d.]+ s.*; 2\/2 stacks ok \(goal: all\)$/m);
    for (const figure of [
      "CPU-s per node: provider",
      "provider peak RSS",
      "requests per node",
      "peak requests per second",
      "the backend's peak per node in flight",
      "per stack: wall s",
      "the lab's own",
    ])
      expect(r.out.split(figure).length - 1, figure).toBe(2);
  }, 300_000);
});
