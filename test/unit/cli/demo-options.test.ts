/**
 * What `rackform demo` deploys for its options: one rack deploys examples/gpu-rack as before; above 8 nodes every rack
 * (examples/fleet-rollout, one stack per rack) and the demo says so; fleet-rollout needs PostgreSQL, and without its
 * binaries the demo fails with one line naming what to install, before a lab starts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseCommand } from "../../../src/cli/args.js";
import { DEMO } from "../../../src/cli/commands.js";
import { chooseExample } from "../../../src/cli/demo-config.js";
import { POSTGRES_MISSING, postgresBin } from "../../../src/cli/demo-postgres.js";
import { main } from "../../../src/cli/main.js";

async function rackform(...argv: string[]) {
  let stdout = "";
  let stderr = "";
  const code = await main(argv, { stdout: (s) => void (stdout += s), stderr: (s) => void (stderr += s) });
  return { code, stdout, stderr };
}

describe("demo: which example --nodes and --example deploy", () => {
  it("deploys gpu-rack without PostgreSQL or a note for one rack (the README's main command)", () => {
    expect(chooseExample(8)).toEqual({ example: "gpu-rack", postgres: false });
    expect(chooseExample(3)).toEqual({ example: "gpu-rack", postgres: false });
  });

  it("deploys every rack above 8 nodes: fleet-rollout with PostgreSQL, and says how many racks", () => {
    const c = chooseExample(16);
    expect(c.example).toBe("fleet-rollout");
    expect(c.postgres).toBe(true);
    expect(c.note).toBe(
      "--nodes 16 builds 2 racks of up to 8: deploying examples/fleet-rollout, one stack per rack in waves (the first rack a canary); state in a local PostgreSQL the demo starts",
    );
    expect(chooseExample(12).note).toMatch(/^--nodes 12 builds 2 racks/);
    expect(chooseExample(17).note).toMatch(/^--nodes 17 builds 3 racks/);
  });

  it("keeps an explicit --example, and says when gpu-rack leaves racks out", () => {
    expect(chooseExample(16, "gpu-rack")).toEqual({
      example: "gpu-rack",
      postgres: false,
      note: "examples/gpu-rack deploys the lab's first rack only (8 of 16 nodes); --example fleet-rollout deploys every rack",
    });
    const fleet = chooseExample(8, "fleet-rollout");
    expect(fleet).toMatchObject({ example: "fleet-rollout", postgres: true });
    expect(fleet.note).toMatch(/^deploying examples\/fleet-rollout, one stack per rack/);
    expect(chooseExample(8, "ironic-rack")).toEqual({ example: "ironic-rack", postgres: false });
  });
});

describe("demo: options", () => {
  it("takes --profile among the lab's time profiles", async () => {
    expect(parseCommand(DEMO, ["--profile", "instant", "--nodes", "12"]).values).toEqual({
      profile: "instant",
      nodes: 12,
    });
    const r = await rackform("demo", "--profile", "fast");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^rackform demo: --profile: expected one of instant, demo, realistic, got "fast"\n$/);
  });

  it("--help says what --nodes above 8 deploys", async () => {
    const r = await rackform("demo", "--help");
    expect(r.stdout).toContain("above 8 the demo deploys every rack (fleet-rollout)");
    expect(r.stdout).toContain("--profile");
  });
});

describe("demo: PostgreSQL for fleet-rollout", () => {
  const saved = process.env.RACKFORM_PG_BIN;
  const dirs: string[] = [];
  afterEach(() => {
    if (saved === undefined) delete process.env.RACKFORM_PG_BIN;
    else process.env.RACKFORM_PG_BIN = saved;
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it("names what to install when the server binaries are missing", () => {
    const empty = mkdtempSync(join(tmpdir(), "rf-nopg-"));
    dirs.push(empty);
    expect(() => postgresBin({ RACKFORM_PG_BIN: empty })).toThrow(POSTGRES_MISSING);
    expect(POSTGRES_MISSING).toContain("apt-get install postgresql");
  });

  it("fails `demo --nodes 16` with that one line before starting a lab or emptying --dir", async () => {
    const empty = mkdtempSync(join(tmpdir(), "rf-nopg-"));
    dirs.push(empty);
    process.env.RACKFORM_PG_BIN = empty;
    const r = await rackform("demo", "--nodes", "16", "--dir", "/nonexistent/demo");
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe(`rackform demo: ${POSTGRES_MISSING}\n`);
  });
});
