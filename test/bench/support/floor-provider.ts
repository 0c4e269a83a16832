/**
 * The refresh benchmark's floor: a provider with no logic, written with HashiCorp's terraform-plugin-framework
 * (test/bench/floor-provider/main.go), built once with Go into the cache and installed beside rackform. Its plans
 * show what the engine and one plugin process per engine step cost before a provider does any work.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ProviderPackage } from "../../../src/cli/install.js";
import { cacheDir } from "../../support/engines.js";
import { ROOT } from "../../support/rackform-e2e.js";

const SRC = join(ROOT, "test", "bench", "floor-provider");

/** The floor provider's package, built if needed; undefined when Go is not on PATH. */
export async function floorProvider(): Promise<ProviderPackage | undefined> {
  try {
    execFileSync("go", ["version"], { stdio: "ignore" });
  } catch {
    return undefined;
  }
  const hash = createHash("sha256");
  for (const f of ["main.go", "go.mod", "go.sum"]) hash.update(readFileSync(join(SRC, f)));
  const dir = join(cacheDir(), `floor-provider-${hash.digest("hex").slice(0, 12)}`);
  const bin = join(dir, "terraform-provider-floor");
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    console.log(`building the floor provider (Go, terraform-plugin-framework) into ${dir}`);
    execFileSync("go", ["build", "-o", bin, "."], { cwd: SRC, stdio: "inherit" });
  }
  return { namespace: "rackform", type: "floor", version: "0.1.0", exec: [bin] };
}

/** N resources of the floor provider, shaped like the benchmark's rackform_bmc (an endpoint, a GPU count). */
export function floorResources(n: number): string {
  const head = 'terraform {\n  required_providers {\n    floor = { source = "rackform/floor" }\n  }\n}\n';
  const body = Array.from(
    { length: n },
    (_, i) => `resource "floor_node" "n${i}" {\n  endpoint  = "https://127.0.1.${i}"\n  gpu_count = 8\n}\n`,
  );
  return head + body.join("\n");
}

/** N `terraform_data` resources: the engine's own cost of N resources, the baseline of the plan benchmarks. */
export function terraformDataResources(n: number): string {
  return Array.from({ length: n }, (_, i) => `resource "terraform_data" "n${i}" {\n  input = ${i}\n}\n`).join("\n");
}
