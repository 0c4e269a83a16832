/** constructs/gen is exactly what `npm run gen` produces from the current schema (CI fails on stale bindings). */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../../support/rackform-e2e.js";

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

describe("constructs/gen", () => {
  it("matches the bindings generated from `rackform schema` (run `npm run gen` if not)", async () => {
    const gen = await import(join(ROOT, "scripts/gen-bindings.mjs"));
    const out = gen.scratchDir();
    await gen.generateBindings(gen.providerSchema(), out);
    const committed = join(ROOT, "constructs", "gen");
    const want = files(out)
      .map((f) => relative(out, f))
      .sort();
    expect(
      files(committed)
        .map((f) => relative(committed, f))
        .sort(),
    ).toEqual(want);
    for (const f of want) expect(readFileSync(join(committed, f), "utf8"), f).toBe(readFileSync(join(out, f), "utf8"));
  });
});
