/**
 * Global setup, first of all: every counterpart the selected projects need is installed, or the run stops here with
 * what is missing and how to get it — no test file fails late because another file was meant to install something.
 */
import type { TestProject } from "vitest/node";
// @ts-expect-error plain ESM script without types
import { checkSetup } from "../../scripts/check-setup.mjs";

export default function setup(project: TestProject): void {
  const problems = (checkSetup as (p: string[]) => string[])(project.vitest.projects.map((p) => p.name));
  if (problems.length > 0) throw new Error(`set-up is incomplete:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
}
