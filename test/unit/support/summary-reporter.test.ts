// The closing line of `npm test` cannot say "0 failed" when a file failed: a real vitest run of three fixture files
// (one passing with a skip, one whose beforeAll throws, one that does not load) through the summary reporter.
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { startVitest } from "vitest/node";
import SummaryReporter, { enginesRan } from "../../support/summary-reporter.js";

it("counts tests of a file whose setup failed, and a file that did not load, as failed", async () => {
  const root = join(import.meta.dirname, "../../fixtures/summary-run");
  const lines: string[] = [];
  const log = console.log;
  console.log = (...a: unknown[]) => lines.push(a.join(" "));
  try {
    const vitest = await startVitest(
      "test",
      [],
      {
        config: false,
        root,
        include: ["*.case.ts"],
        watch: false,
        reporters: [new SummaryReporter()],
      },
      { cacheDir: join(tmpdir(), "vite-cache") },
    );
    await vitest.close();
  } finally {
    console.log = log;
    process.exitCode = 0;
  }
  const text = lines.join("\n");
  expect(text).toContain("tests: 1 passed, 3 failed, 1 skipped");
  expect(text).toMatch(
    /failed files:[\s\S]*setup-fails\.case\.ts[\s\S]*does-not-load\.case\.ts|failed files:[\s\S]*does-not-load\.case\.ts[\s\S]*setup-fails\.case\.ts/,
  );
}, 60_000);

it("lists each e2e file once with the engines that ran it, and nothing for other projects", () => {
  expect(
    enginesRan([
      { project: "e2e-tofu", file: "test/e2e/b.test.ts" },
      { project: "e2e-terraform", file: "test/e2e/b.test.ts" },
      { project: "e2e-terraform", file: "test/e2e/a.test.ts" },
      { project: "unit", file: "test/unit/x.test.ts" },
    ]),
  ).toEqual([
    "",
    "e2e files and the engines that ran them:",
    "  test/e2e/a.test.ts  terraform",
    "  test/e2e/b.test.ts  terraform, tofu",
  ]);
  expect(enginesRan([{ project: "unit", file: "test/unit/x.test.ts" }])).toEqual([]);
});
