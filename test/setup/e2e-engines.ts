/**
 * Which engine(s) run each e2e file. Under both: what differs between Terraform and OpenTofu — state handling (a crash,
 * a kill, locking and several engines on one partition), plan rendering (plan JSON, summaries, diagnostics), the
 * protocol (schema, validation) and how each installs a provider. Every other file checks the provider's behaviour,
 * which the engine does not change: it runs under one engine, the two alternating so that each engine drives every
 * backend and every kind of change somewhere. A file not listed here runs under both (the safe default until it is
 * placed); test/unit/support/e2e-engines.test.ts keeps this table and test/e2e in step.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";

export type EngineName = "terraform" | "tofu";

const BOTH: readonly EngineName[] = ["terraform", "tofu"];
const TF: readonly EngineName[] = ["terraform"];
const TOFU: readonly EngineName[] = ["tofu"];

/** e2e file name → the engines that run it. */
export const E2E_ENGINES: Readonly<Record<string, readonly EngineName[]>> = {
  // Differs between the engines: protocol, validation and diagnostics rendering.
  "schema.test.ts": BOTH,
  "bad-input.test.ts": BOTH,
  "rack-bad-input.test.ts": BOTH,
  // State handling: a killed engine or provider, a crashed apply, the state lock, concurrent engines on one budget.
  "sigkill.test.ts": BOTH,
  "rack-crash.test.ts": BOTH,
  "day2-shared-budget.test.ts": BOTH,
  // Plan rendering (plan JSON read by plan-summary) and the first converge of a rack.
  "plan-summary.test.ts": BOTH,
  "rack.test.ts": BOTH,
  // How each engine installs the provider (dev overrides, a packed tarball, a filesystem mirror).
  "package-install.test.ts": BOTH,
  // CDK Terrain: a cdktn app's install and deploy, under each engine as the "done when" asks.
  "cdktn.test.ts": BOTH,
  // Both engines, each running its own share of the file (the file picks by engine).
  "examples-fleet.test.ts": BOTH,
  "chaos.test.ts": BOTH,
  // The real slurmctld is the counterpart: each engine joins its own rack to it (issue 32).
  "slurm-real.test.ts": BOTH,
  // Trust at join: the "done when" asks for both engines (bad input is validation, which differs too).
  "trust.test.ts": BOTH,

  // One engine each, alternating.
  "demo.test.ts": TF,
  "kitchen-sink.test.ts": TOFU,
  "examples.test.ts": TF,
  "docs-examples.test.ts": TOFU,
  "day2-drift.test.ts": TF,
  "day2-drift-ironic.test.ts": TOFU,
  "day2-drift-ironic-gpu.test.ts": TF,
  "health-gate.test.ts": TOFU,
  "health-ladder.test.ts": BOTH,
  "day2-ironic.test.ts": TF,
  "day2-maas.test.ts": TOFU,
  "day2-readdress.test.ts": TF,
  "day2-teardown.test.ts": TOFU,
  "day2-policy.test.ts": TOFU,
  "bmc.test.ts": TF,
  "bmc-sessions.test.ts": TOFU,
  "bmc-refresh.test.ts": TOFU,
  "bmc-quirks.test.ts": TF,
  "image.test.ts": TF,
  "watch.test.ts": TOFU,
  "rack-warewulf.test.ts": TF,
  "rack-bcm.test.ts": TOFU,
  "dpu.test.ts": TF,
  "firmware.test.ts": BOTH, // bad input: each a diagnostic before any write
  "rack-firmware-maas.test.ts": TF,
  "rack-firmware-ironic.test.ts": TOFU,
  "rack-dpu.test.ts": TOFU,
  "machine.test.ts": TF,
  "deployment.test.ts": TOFU,
  "pdu-outlet.test.ts": TOFU,
  "cluster-member.test.ts": TF,
  "inventory.test.ts": TF,
  "fleet-converge-bench.test.ts": TOFU,
};

/** The engines that run one e2e file (by its base name). */
export function enginesOf(file: string): readonly EngineName[] {
  return E2E_ENGINES[file] ?? BOTH;
}

/** The e2e files (paths from the project root) that `engine` runs. */
export function e2eFilesFor(engine: EngineName, root: string): string[] {
  return readdirSync(join(root, "test/e2e"))
    .filter((f) => f.endsWith(".test.ts") && enginesOf(f).includes(engine))
    .sort()
    .map((f) => `test/e2e/${f}`);
}
