import { defineConfig } from "vitest/config";

// Suites: test/unit (pure), test/integration (loopback servers), test/contract (real counterparts), test/e2e (real engines).
// No wall-clock assertions anywhere: timeouts below only stop a hung test.
export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 120_000,
    hookTimeout: 300_000,
    pool: "forks",
    reporters: ["default"],
  },
});
