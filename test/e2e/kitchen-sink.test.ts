/**
 * Every schema feature through the real engines: the kitchen-sink provider (test/support/kitchen-sink) under Terraform
 * and OpenTofu — init → plan → apply → plan (no changes) → update → replace (incl. create_before_destroy) → import →
 * destroy — and a deliberately broken resource caught by our server before the engine's own contract errors.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import type { ProviderPackage } from "../../src/cli/install.js";
import { ENGINES, engine, type RunResult, Workdir } from "../support/engines.js";
import { freshInstall, ROOT } from "../support/rackform-e2e.js";

const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
const KITCHEN: ProviderPackage = {
  namespace: "test",
  type: "rfkitchen",
  version: "0.0.1",
  exec: [process.execPath, "--import", tsx, join(ROOT, "test/support/kitchen-sink/serve.ts")],
};
const ENGINE_CONTRACT_ERRORS = [
  "Provider produced inconsistent result after apply",
  "Provider produced invalid plan",
  "Provider produced inconsistent final plan",
  "Provider returned invalid result object after apply",
];

function config(store: string, thing: { name: string; size: number }): string {
  return `terraform {
  required_providers {
    rfkitchen = { source = "test/rfkitchen" }
  }
}
provider "rfkitchen" {
  store_path = ${JSON.stringify(store)}
  api_token  = "tok-provider-secret"
}
resource "rfkitchen_thing" "a" {
  name     = "${thing.name}"
  size     = ${thing.size}
  zone     = "z1"
  tags     = ["x", "y"]
  labels   = ["l1", "l2"]
  meta     = { k = "v", big = "9007199254740993" }
  spec     = { cpu = 4, memory_gib = 16 }
  extra    = { any = [1, 2.5] }
  password = "pw-kitchen-secret"
  token    = "wo-kitchen-secret"
  endpoint = { host = "bmc.local" }
  disks    = [{ name = "d0", size_gib = 100 }, { name = "d1", size_gib = 1.5 }]
  network { vlan = 100 }
  rule {
    port     = 22
    protocol = "tcp"
  }
  rule { port = 443 }
  mount { path = "/data" }
  mount { path = "/scratch" }
  pool "gpu" { size = 8 }
  pool "cpu" { size = 64 }
  options { verbose = true }
  timeouts { create = "5m" }
}
resource "rfkitchen_thing" "cbd" {
  name = "cbd-${thing.name}"
  size = 1
  lifecycle { create_before_destroy = true }
}
resource "rfkitchen_consumer" "c" {
  input = rfkitchen_thing.a.fingerprint
}
data "rfkitchen_echo" "e" {
  value = "hello"
}
output "consumer" { value = rfkitchen_consumer.c.output }
output "echo" { value = data.rfkitchen_echo.e }
`;
}

function noEngineContractError(r: RunResult): void {
  for (const m of ENGINE_CONTRACT_ERRORS) expect(r.stdout + r.stderr).not.toContain(m);
}

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([KITCHEN]);
});

describe.each(ENGINES)("every schema feature under %s", (name) => {
  let w: Workdir;
  let store: string;

  beforeAll(async () => {
    store = join(await mkdtemp(join(tmpdir(), "rf-kitchen-")), "store.json");
    w = await Workdir.create(engine(name), cliConfig, { "main.tf": config(store, { name: "alpha", size: 10 }) });
    await w.ok(["init", "-no-color"]);
  });

  it("plans computed values as unknown, hides sensitive ones, applies, then plans no changes", async () => {
    const plan = await w.ok(["plan", "-no-color", "-out=tfplan"]);
    expect(plan.stdout).toContain("3 to add, 0 to change, 0 to destroy");
    expect(plan.stdout).toMatch(/fingerprint\s+= \(known after apply\)/);
    expect(plan.stdout).toMatch(/input\s+= \(known after apply\)/);
    expect(plan.stdout).toMatch(/password\s+= \(sensitive value\)/);
    expect(plan.stdout).toMatch(/token\s+= \(write-only attribute\)/);
    expect(plan.stdout).not.toContain("pw-kitchen-secret");
    const apply = await w.ok(["apply", "-no-color", "tfplan"]);
    noEngineContractError(apply);
    expect(apply.stdout).toMatch(/consumer = "\S+"/);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const state = JSON.parse((await w.ok(["show", "-json"])).stdout);
    const a = state.values.root_module.resources.find((r: { address: string }) => r.address === "rfkitchen_thing.a");
    expect(a.values.meta.big).toBe("9007199254740993");
    expect(a.values.disks[1].size_gib).toBe(1.5);
    expect(a.values.network.mtu).toBe(1500);
    expect(a.values.enabled).toBe(true);
    expect(a.values.token).toBeNull();
    expect(await readFile(join(w.dir, "terraform.tfstate"), "utf8")).not.toContain("wo-kitchen-secret");
  });

  it("updates in place, with the changed computed value flowing into the consumer as unknown", async () => {
    await w.write({ "main.tf": config(store, { name: "alpha", size: 20 }) });
    const plan = await w.run(["plan", "-no-color", "-detailed-exitcode"]);
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(/size\s+= 10 -> 20/);
    expect(plan.stdout).toMatch(/~ fingerprint\s+= "\S+" -> \(known after apply\)/);
    expect(plan.stdout).toContain("0 to add, 2 to change, 0 to destroy");
    noEngineContractError(await w.ok(["apply", "-auto-approve", "-no-color"]));
    expect((await w.run(["plan", "-detailed-exitcode", "-no-color"])).code).toBe(0);
  });

  it("replaces on a requires-replace change, creating before destroying where asked", async () => {
    await w.write({ "main.tf": config(store, { name: "beta", size: 20 }) });
    const plan = await w.ok(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/rfkitchen_thing\.a must be replaced/);
    expect(plan.stdout).toMatch(/name\s+= "alpha" -> "beta" # forces replacement/);
    expect(plan.stdout).toMatch(/rfkitchen_thing\.cbd must be replaced\s+\+\/- resource/);
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    noEngineContractError(apply);
    const order = apply.stdout.split("\n").filter((l) => l.startsWith("rfkitchen_thing.cbd"));
    const created = order.findIndex((l) => l.includes("Creation complete"));
    const destroyed = order.findIndex((l) => l.includes("Destruction complete"));
    expect(created).toBeGreaterThanOrEqual(0);
    expect(destroyed).toBeGreaterThan(created);
    expect((await w.run(["plan", "-detailed-exitcode", "-no-color"])).code).toBe(0);
  });

  it("imports an existing object into a fresh state with no changes planned after", async () => {
    const show = JSON.parse((await w.ok(["show", "-json"])).stdout);
    const id = show.values.root_module.resources.find((r: { address: string }) => r.address === "rfkitchen_thing.a")
      .values.id;
    const w2 = await Workdir.create(engine(name), cliConfig, {
      "main.tf": config(store, { name: "beta", size: 20 }).split('resource "rfkitchen_thing" "cbd"')[0],
    });
    await w2.ok(["init", "-no-color"]);
    await w2.ok(["import", "-no-color", "rfkitchen_thing.a", id]);
    const plan = await w2.run(["plan", "-no-color", "-target=rfkitchen_thing.a", "-detailed-exitcode"]);
    expect(plan.stdout).not.toMatch(/rfkitchen_thing\.a (will|must)/);
  });

  it("destroys everything and leaves the store empty", async () => {
    const d = await w.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(d.stdout).toContain("3 destroyed");
    const left = JSON.parse(await readFile(store, "utf8"));
    expect(Object.keys(left.objects ?? left)).toHaveLength(0);
  });

  for (const mode of ["apply_changes_config", "plan_changes_config", "unknown_after_apply", "wrong_shape"]) {
    it(`catches a provider bug (${mode}) with our diagnostic before the engine's`, async () => {
      const w3 = await Workdir.create(engine(name), cliConfig, {
        "main.tf": `terraform {
  required_providers {
    rfkitchen = { source = "test/rfkitchen" }
  }
}
resource "rfkitchen_broken" "b" {
  name = "n"
  mode = "${mode}"
}
`,
      });
      await w3.ok(["init", "-no-color"]);
      const r = await w3.run(["apply", "-auto-approve", "-no-color"]);
      expect(r.code).not.toBe(0);
      expect(r.stderr.replace(/\s+/g, " ")).toMatch(/Provider bug in rfkitchen_broken|Unexpected provider error/);
      noEngineContractError(r);
    });
  }
});
