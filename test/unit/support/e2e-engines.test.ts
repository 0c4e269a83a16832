import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { E2E_ENGINES, e2eFilesFor, enginesOf } from "../../setup/e2e-engines.js";

const root = join(import.meta.dirname, "../../..");
const files = readdirSync(join(root, "test/e2e")).filter((f) => f.endsWith(".test.ts"));

describe("which engines run each e2e file", () => {
  it("places every e2e file, and names no file that is gone", () => {
    expect(files.filter((f) => !(f in E2E_ENGINES))).toEqual([]);
    expect(Object.keys(E2E_ENGINES).filter((f) => !files.includes(f))).toEqual([]);
  });

  it("runs every e2e file under at least one engine, and the two engines' lists together cover them all", () => {
    const union = new Set([...e2eFilesFor("terraform", root), ...e2eFilesFor("tofu", root)]);
    expect([...union].sort()).toEqual(files.map((f) => `test/e2e/${f}`).sort());
    for (const f of files) expect(enginesOf(f).length, f).toBeGreaterThan(0);
  });

  it("keeps under both engines the files where the engines differ (state, plan rendering, protocol, install)", () => {
    for (const f of ["schema.test.ts", "sigkill.test.ts", "rack-crash.test.ts", "plan-summary.test.ts"]) {
      expect(enginesOf(f), f).toEqual(["terraform", "tofu"]);
    }
  });

  it("runs a file it does not know under both engines", () => {
    expect(enginesOf("not-yet-placed.test.ts")).toEqual(["terraform", "tofu"]);
  });
});
