/**
 * Starts the longest files first, across all projects (vitest's own order runs project by project, so the e2e files
 * of the last engine would start last and the run would end on them). Durations come from test/durations.json, as the
 * summary reporter measured them on a full run (`.rackform/test-durations.json`; copy it over to refresh); a file not
 * listed there is estimated from its size. Longest-first keeps the pool's makespan near the sum of durations / workers.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const FILE = join(import.meta.dirname, "../durations.json");

/** Seconds per byte of test source, by project, for files without a measured duration (rough, from past runs). */
const PER_BYTE: Record<string, number> = { "e2e-terraform": 1 / 200, "e2e-tofu": 1 / 200, contract: 1 / 1000 };

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const known: Record<string, number> = existsSync(FILE) ? JSON.parse(readFileSync(FILE, "utf8")) : {};
    const root = this.ctx.config.root;
    const estimate = (s: TestSpecification): number => {
      const key = `${s.project.name}:${relative(root, s.moduleId)}`;
      if (key in known) return known[key];
      return statSync(s.moduleId).size * (PER_BYTE[s.project.name] ?? 1 / 5000);
    };
    const by = new Map(files.map((f) => [f, estimate(f)]));
    return [...files].sort((a, b) => (by.get(b) ?? 0) - (by.get(a) ?? 0));
  }
}
