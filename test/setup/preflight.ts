/**
 * Global setup, first of all: every counterpart the selected projects need is installed, or the run stops here with
 * what is missing and how to get it — no test file fails late because another file was meant to install something.
 * Its teardown, last of all: nothing a test made is left in the temp folder (each file works in a TMPDIR of its own,
 * test/setup/tmpdir.ts); a leftover is listed here, and fails a CI run in scripts/test.sh.
 */
import { readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import type { TestProject } from "vitest/node";
// @ts-expect-error plain ESM script without types
import { checkSetup } from "../../scripts/check-setup.mjs";

/** Names of what the tests and the processes they start create in the temp folder. */
const OURS = /^(rf-|cdktf\.outdir\.|tf-|plugin\d|rackform)/;

export default function setup(project: TestProject): () => void {
  const problems = (checkSetup as (p: string[]) => string[])(project.vitest.projects.map((p) => p.name));
  if (problems.length > 0) throw new Error(`set-up is incomplete:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
  const dir = tmpdir();
  const before = new Set(readdirSync(dir));
  return () => {
    const left = readdirSync(dir).filter((n) => !before.has(n) && OURS.test(n));
    if (left.length === 0) return;
    // scripts/test.sh fails a CI run on a leftover (vitest ignores an error thrown here); other runs on the machine
    // may own what is new, so here it is a warning.
    console.warn(`warning: tests left ${left.length} entries in ${dir}: ${left.slice(0, 20).join(", ")}`);
  };
}
