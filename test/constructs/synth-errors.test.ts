/**
 * A props error in an app that `cdktf synth` runs is printed once, as its message — one `path: problem — fix` line per
 * problem — without the library's stack frames or a dump of the error's fields, and the app exits 1; RACKFORM_DEBUG
 * brings node's full report back. (cdktf itself then echoes the app's stderr in its own summary.)
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { RackformValidationError } from "../../constructs/lib/index.js";

const APP = join(import.meta.dirname, "fixtures", "bad-props-app.ts");

describe("a RackformValidationError at synth", () => {
  const outdir = mkdtempSync(join(tmpdir(), "rackform-synth-errors-"));
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));
  const synth = (env: Record<string, string>) =>
    spawnSync(process.execPath, ["--import", "tsx", APP], {
      encoding: "utf8",
      env: { ...process.env, CDKTF_OUTDIR: outdir, RACKFORM_DEBUG: "", ...env },
    });

  it("prints the message once, one line per problem, with no stack, and exits 1", () => {
    const r = synth({});
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      [
        "RackformValidationError (RACKFORM_ERR_CONSTRUCT_INVALID):",
        "gate/dcgmLevel: 9 is not a DCGM diag level in 1..4 — use 1 (quick), 2 (medium), 3 (long, the usual gate) or 4 (extended)",
        'gate/burnIn: "3 days" is not a duration of at least 1s — write a duration such as "72h" or "1h30m"',
        "",
      ].join("\n"),
    );
  });

  it("prints node's full report, stack included, when RACKFORM_DEBUG is set", () => {
    const r = synth({ RACKFORM_DEBUG: "1" });
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/\n\s+at new AcceptancePolicy/);
    expect(r.stderr.match(/gate\/dcgmLevel: 9 is not/g)?.length).toBeGreaterThanOrEqual(1);
  });

  it("is a plain error to build: constructing one installs no process-wide handler, even under synth", () => {
    const before = process.listenerCount("uncaughtException");
    const saved = process.env.CDKTF_OUTDIR;
    process.env.CDKTF_OUTDIR = outdir;
    try {
      const e = new RackformValidationError("gate", [{ path: "gate/x", problem: "bad", fix: "good" }]);
      expect(e.message).toBe("gate/x: bad — good");
    } finally {
      if (saved === undefined) delete process.env.CDKTF_OUTDIR;
      else process.env.CDKTF_OUTDIR = saved;
    }
    expect(process.listenerCount("uncaughtException")).toBe(before);
  });
});
