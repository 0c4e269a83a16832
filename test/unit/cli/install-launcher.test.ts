/**
 * The launcher `rackform install` writes: it hands NODE_EXTRA_CA_CERTS to the provider under its own name (so Node
 * does not build its root store at every start of a provider process) unless NODE_OPTIONS picks another root store.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { launcherScript } from "../../../src/cli/install.js";

const dir = mkdtempSync(join(tmpdir(), "rf-launcher-"));
const launcher = join(dir, "terraform-provider-rackform");
// A "provider" that prints what it was started with.
const show =
  "process.stdout.write(JSON.stringify([process.env.NODE_EXTRA_CA_CERTS, process.env.RACKFORM_EXTRA_CA_CERTS, process.argv.slice(1)]))";
writeFileSync(
  launcher,
  launcherScript({ namespace: "rackform", type: "rackform", version: "0.1.0", exec: [process.execPath, "-e", show] }),
);
chmodSync(launcher, 0o755);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(env: Record<string, string>): unknown {
  const base = { ...process.env };
  delete base.NODE_EXTRA_CA_CERTS;
  delete base.NODE_OPTIONS;
  delete base.RACKFORM_EXTRA_CA_CERTS;
  return JSON.parse(execFileSync(launcher, ["arg one"], { env: { ...base, ...env }, encoding: "utf8" }));
}

describe("provider launcher", () => {
  it("passes NODE_EXTRA_CA_CERTS on as RACKFORM_EXTRA_CA_CERTS, and the engine's arguments unchanged", () => {
    expect(run({ NODE_EXTRA_CA_CERTS: "/etc/ssl/extra.pem" })).toEqual([null, "/etc/ssl/extra.pem", ["arg one"]]);
  });

  it("changes nothing without NODE_EXTRA_CA_CERTS", () => {
    expect(run({})).toEqual([null, null, ["arg one"]]);
  });

  it("leaves it to Node when NODE_OPTIONS chooses the root store", () => {
    expect(run({ NODE_EXTRA_CA_CERTS: "/etc/ssl/extra.pem", NODE_OPTIONS: "--use-openssl-ca" })).toEqual([
      "/etc/ssl/extra.pem",
      null,
      ["arg one"],
    ]);
  });
});
