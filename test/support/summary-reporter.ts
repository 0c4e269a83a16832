/**
 * The closing summary of `npm test`: a time table per project (files, tests, the span from its first file's start to
 * its last file's end, and the sum of its files' durations) and the plain closing line "N passed, N failed, N skipped".
 * A test that did not run because something around it failed (its file did not load, a beforeAll threw) counts as
 * failed, never as skipped; a file that failed with no test collected counts as one failed test. So the line cannot say
 * "0 failed" while a file failed. It also lists each e2e file with the engines that ran it.
 */
import { writeFileSync } from "node:fs";
import { relative } from "node:path";
import type { SerializedError } from "vitest";
import type { Reporter, TestModule } from "vitest/node";

interface Row {
  files: number;
  passed: number;
  failed: number;
  skipped: number;
  first: number;
  last: number;
  sum: number;
}

/** Counts of one module: tests not passed in a failed module are failures. */
export function countModule(m: TestModule): { passed: number; failed: number; skipped: number } {
  const moduleFailed = m.state() === "failed";
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const t of m.children.allTests()) {
    const s = t.result().state;
    if (s === "passed") passed++;
    else if (s === "failed" || moduleFailed) failed++;
    else skipped++;
  }
  if (moduleFailed && failed === 0) failed = 1;
  return { passed, failed, skipped };
}

const secs = (ms: number) => (ms / 1000).toFixed(1);

/** The e2e files and the engines that ran each ("e2e-terraform" → terraform), so coverage per engine stays visible. */
export function enginesRan(files: readonly { project: string; file: string }[]): string[] {
  const by = new Map<string, string[]>();
  for (const f of files) {
    if (!f.project.startsWith("e2e-")) continue;
    by.set(f.file, [...(by.get(f.file) ?? []), f.project.slice("e2e-".length)].sort());
  }
  if (by.size === 0) return [];
  const rows = [...by].sort(([a], [b]) => a.localeCompare(b));
  const width = Math.max(...rows.map(([file]) => file.length));
  return [
    "",
    "e2e files and the engines that ran them:",
    ...rows.map(([f, e]) => `  ${f.padEnd(width)}  ${e.join(", ")}`),
  ];
}

export default class SummaryReporter implements Reporter {
  private readonly started = new Map<string, number>();
  private readonly ended = new Map<string, number>();
  private readonly t0 = Date.now();

  private key(m: TestModule): string {
    return `${m.project.name}\0${m.moduleId}`;
  }

  onTestModuleStart(m: TestModule): void {
    this.started.set(this.key(m), Date.now());
  }

  onTestModuleEnd(m: TestModule): void {
    this.ended.set(this.key(m), Date.now());
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandled: ReadonlyArray<SerializedError>): void {
    const rows = new Map<string, Row>();
    const files: { project: string; file: string; ms: number; state: string }[] = [];
    for (const m of modules) {
      const name = m.project.name || "(root)";
      const row = rows.get(name) ?? { files: 0, passed: 0, failed: 0, skipped: 0, first: Infinity, last: 0, sum: 0 };
      const c = countModule(m);
      const start = this.started.get(this.key(m)) ?? this.t0;
      const end = this.ended.get(this.key(m)) ?? start;
      row.files++;
      row.passed += c.passed;
      row.failed += c.failed;
      row.skipped += c.skipped;
      row.first = Math.min(row.first, start);
      row.last = Math.max(row.last, end);
      row.sum += end - start;
      rows.set(name, row);
      files.push({ project: name, file: relative(process.cwd(), m.moduleId), ms: end - start, state: m.state() });
    }
    const total: Row = { files: 0, passed: 0, failed: 0, skipped: 0, first: Infinity, last: 0, sum: 0 };
    const lines = [
      "",
      "| project | files | passed | failed | skipped | span s | sum of files s |",
      "|---|---|---|---|---|---|---|",
    ];
    for (const [name, r] of [...rows].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(
        `| ${name} | ${r.files} | ${r.passed} | ${r.failed} | ${r.skipped} | ${secs(r.last - r.first)} | ${secs(r.sum)} |`,
      );
      for (const k of ["files", "passed", "failed", "skipped", "sum"] as const) total[k] += r[k];
      total.first = Math.min(total.first, r.first);
      total.last = Math.max(total.last, r.last);
    }
    total.failed += unhandled.length;
    lines.push(
      `| all | ${total.files} | ${total.passed} | ${total.failed} | ${total.skipped} | ${secs(Date.now() - this.t0)} | ${secs(total.sum)} |`,
    );
    lines.push(...enginesRan(files));
    const slowest = files.sort((a, b) => b.ms - a.ms).slice(0, 10);
    lines.push("", "slowest files:", ...slowest.map((f) => `  ${secs(f.ms).padStart(7)} s  ${f.project}  ${f.file}`));
    const failedFiles = files.filter((f) => f.state === "failed");
    if (failedFiles.length) lines.push("", "failed files:", ...failedFiles.map((f) => `  ${f.project}  ${f.file}`));
    if (unhandled.length) lines.push("", `unhandled errors: ${unhandled.length} (each counted as a failed test)`);
    lines.push("", `tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
    const text = lines.join("\n");
    console.log(text);
    if (process.env.RACKFORM_TEST_SUMMARY) writeFileSync(process.env.RACKFORM_TEST_SUMMARY, `${text}\n`);
    // Measured durations by "project:file", for test/setup/sequencer.ts (copy to test/durations.json to refresh).
    if (process.env.RACKFORM_TEST_DURATIONS) {
      const d = Object.fromEntries(
        files
          .sort((a, b) => a.project.localeCompare(b.project) || a.file.localeCompare(b.file))
          .map((f) => [`${f.project}:${f.file}`, Math.round(f.ms / 100) / 10]),
      );
      writeFileSync(process.env.RACKFORM_TEST_DURATIONS, `${JSON.stringify(d, null, 2)}\n`);
    }
  }
}
