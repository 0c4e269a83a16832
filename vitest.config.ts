import { defineConfig } from "vitest/config";
import { e2eFilesFor } from "./test/setup/e2e-engines.js";
import LongestFirst from "./test/setup/sequencer.js";

// Projects: unit (pure), integration (loopback servers), contract (real counterparts), constructs (synth and the
// engines' validate), e2e per engine (the same test/e2e files, RACKFORM_E2E_ENGINE selects the engine).
// All projects share one pool of workers (vitest 4 takes one maxWorkers per sequence group, and groups run one after
// another): the e2e files mostly wait on engine and provider processes, so their waits overlap the CPU-bound files.
// Counterparts are started once per run by the global setups (real Ironic, Slurm, sushy-tools' emulator, PostgreSQL, kube-apiserver with etcd), after a check that every
// counterpart is installed. No wall-clock assertions anywhere: timeouts below only stop a hung test.
const workers = Number(process.env.RACKFORM_TEST_WORKERS ?? 3);

const base = {
  testTimeout: 120_000,
  hookTimeout: 300_000,
  pool: "forks" as const,
  maxWorkers: workers,
  setupFiles: ["test/setup/tmpdir.ts"],
};

// The provider processes the engines start poll every 200 ms instead of every 1–5 s (src/provider/config/timings.ts): the lab's
// fast profiles finish a step in milliseconds, and a real-hardware interval would only be waited out.
// The test command (scripts/test.sh) sets RACKFORM_E2E_SPLIT=1: each e2e file then runs under the engine(s)
// test/setup/e2e-engines.ts gives it. Without it (a file run by hand) every e2e file runs under either engine.
const split = process.env.RACKFORM_E2E_SPLIT === "1";
const e2e = (engine: "terraform" | "tofu") => ({
  test: {
    ...base,
    name: `e2e-${engine}`,
    include: split ? e2eFilesFor(engine, import.meta.dirname) : ["test/e2e/**/*.test.ts"],
    // cdktf shares one plugin cache in ~/.terraform.d unless told not to; concurrent deploys race on it.
    env: { RACKFORM_E2E_ENGINE: engine, RACKFORM_TEST_POLL_MS: "200", CDKTF_DISABLE_PLUGIN_CACHE_ENV: "1" },
  },
});

export default defineConfig({
  test: {
    ...base,
    globalSetup: [
      "test/setup/preflight.ts",
      "test/setup/ironic.ts",
      "test/setup/sushy-emulator.ts",
      "test/setup/postgres.ts",
      "test/setup/slurm.ts",
      "test/setup/kube.ts",
    ],
    reporters: ["default", "./test/support/summary-reporter.ts"],
    sequence: { sequencer: LongestFirst },
    projects: [
      { test: { ...base, name: "unit", include: ["test/unit/**/*.test.ts"] } },
      { test: { ...base, name: "integration", include: ["test/integration/**/*.test.ts"] } },
      { test: { ...base, name: "contract", include: ["test/contract/**/*.test.ts"] } },
      { test: { ...base, name: "constructs", include: ["test/constructs/**/*.test.ts"] } },
      e2e("terraform"),
      e2e("tofu"),
    ],
  },
});
