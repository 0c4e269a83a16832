/** Every code the provider or the constructs raise is catalogued (docs/errors.md lists the catalogues), nothing more. */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../../src/clients/errors.js";
import { CONSTRUCT_ERROR_CODES, PROVIDER_ERROR_CODES } from "../../../src/provider/errors/error-codes.js";

const ROOT = join(import.meta.dirname, "../../..");

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith(".ts") ? [p] : [];
  });
}

const codesIn = (dir: string) =>
  new Set(sources(join(ROOT, dir)).flatMap((f) => readFileSync(f, "utf8").match(/"RACKFORM_ERR_[A-Z0-9_]+"/g) ?? []));

describe("provider and constructs error catalogue", () => {
  it("documents every quoted code in src/provider (the provider's own or a client's)", () => {
    const known = { ...ERROR_CODES, ...PROVIDER_ERROR_CODES };
    for (const q of codesIn("src/provider")) {
      const code = JSON.parse(q) as string;
      expect(known, `${code} is raised but not catalogued`).toHaveProperty(code);
    }
  });

  it("lists only codes the provider raises, and the constructs' code is the one constructs/lib raises", () => {
    const provider = codesIn("src/provider");
    for (const code of Object.keys(PROVIDER_ERROR_CODES)) expect(provider.has(`"${code}"`), code).toBe(true);
    const constructs = codesIn("constructs/lib");
    for (const code of Object.keys(CONSTRUCT_ERROR_CODES)) expect(constructs.has(`"${code}"`), code).toBe(true);
    for (const [code, text] of Object.entries({ ...PROVIDER_ERROR_CODES, ...CONSTRUCT_ERROR_CODES })) {
      expect(code).toMatch(/^RACKFORM_ERR_[A-Z]+(_[A-Z0-9]+)*$/);
      expect(text.length, code).toBeGreaterThan(20);
    }
  });
});
