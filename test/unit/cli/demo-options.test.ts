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
import { pasteLines } from "../../../src/cli/demo.js";
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

describe("demo --keep: the lines to paste", () => {
  const env = {
    TF_CLI_CONFIG_FILE: "/d/home/terraformrc",
    RACKFORM_LAB_FILE: "/d/lab.json",
    TERRAFORM_BINARY_NAME: "/usr/bin/terraform",
    CHECKPOINT_DISABLE: "1",
    TF_VAR_redfish_password: "s3cret-redfish",
    PGPASSWORD: "s3cret-pg",
  };

  it("one stack: exports, the secrets file, a bare cdktf diff; no secret in them", () => {
    const lines = pasteLines(env, "/d/secrets.env", "/d/project", ["gpu-rack"]);
    expect(lines.slice(0, 4)).toEqual([
      "export TF_CLI_CONFIG_FILE=/d/home/terraformrc",
      "export RACKFORM_LAB_FILE=/d/lab.json",
      "export TERRAFORM_BINARY_NAME=/usr/bin/terraform",
      "export CHECKPOINT_DISABLE=1",
    ]);
    expect(lines[4]).toMatch(
      /^\. \/d\/secrets\.env {3}# this lab's secrets: TF_VAR_\*, PGPASSWORD \(0600; not printed\)$/,
    );
    expect(lines[5]).toMatch(/^cd \/d\/project && \S+\/cdktf diff --skip-provider-lock --no-color$/);
    expect(lines.join("\n")).not.toMatch(/s3cret/);
  });

  it("several stacks (fleet-rollout): the pg connection string quoted, the lock timeout, and a diff of one named stack", () => {
    const fleet = {
      ...env,
      RACKFORM_PG_CONN_STR: "postgres://rackform@127.0.0.1:5555/rackform?sslmode=disable",
      TF_CLI_ARGS_apply: "-lock-timeout=10m",
    };
    const lines = pasteLines(fleet, "/d/secrets.env", "/d/project", ["fleet-r01", "fleet-r02"]);
    expect(lines).toContain(
      "export RACKFORM_PG_CONN_STR='postgres://rackform@127.0.0.1:5555/rackform?sslmode=disable'",
    );
    expect(lines).toContain("export TF_CLI_ARGS_apply=-lock-timeout=10m");
    expect(lines.at(-1)).toMatch(
      /cdktf diff fleet-r01 --skip-provider-lock --no-color {3}# one stack at a time: fleet-r01, fleet-r02$/,
    );
    expect(lines.join("\n")).not.toMatch(/s3cret/);
  });
});
