/**
 * Setup file of every project: each test file gets a temporary directory of its own as TMPDIR (for itself and every
 * process it starts: engines, providers, cdktf, PostgreSQL), removed with everything in it when the file ends — lab
 * CA private keys, engine workdirs and cdktf outdirs included — however the file's own clean-up went.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "vitest";

const outer = process.env.RACKFORM_OUTER_TMPDIR ?? tmpdir();
process.env.RACKFORM_OUTER_TMPDIR = outer;
const mine = mkdtempSync(join(outer, "rf-test-"));
process.env.TMPDIR = mine;

// Registered before the file's own hooks, so it runs after them (after-hooks run in reverse order).
afterAll(() => {
  process.env.TMPDIR = outer;
  rmSync(mine, { recursive: true, force: true, maxRetries: 3 });
});
