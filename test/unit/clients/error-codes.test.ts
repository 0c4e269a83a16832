/** Every error code a client can throw is in the ERROR_CODES catalogue (the docs list it), and nothing else is. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../../src/clients/errors.js";

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

describe("error catalogue", () => {
  const used = new Set(
    sources(join(import.meta.dirname, "../../../src/clients")).flatMap(
      (f) => readFileSync(f, "utf8").match(/RACKFORM_ERR_[A-Z0-9_]+/g) ?? [],
    ),
  );

  it("documents every code used in src/clients with a one-line description", () => {
    for (const code of used) expect(ERROR_CODES, `${code} is thrown but not catalogued`).toHaveProperty(code);
    for (const [code, text] of Object.entries(ERROR_CODES)) {
      expect(code).toMatch(/^RACKFORM_ERR_[A-Z]+(_[A-Z0-9]+)*$/);
      expect(text.length, code).toBeGreaterThan(20);
      expect(text).not.toContain("\n");
    }
  });

  it("lists no code that nothing throws (each appears quoted somewhere: the catalogue keys are bare)", () => {
    const all = sources(join(import.meta.dirname, "../../../src/clients"))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const orphans = Object.keys(ERROR_CODES).filter((c) => !all.includes(`"${c}"`));
    expect(orphans).toEqual([]);
  });
});
