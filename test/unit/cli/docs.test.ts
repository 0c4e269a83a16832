/** The committed reference pages match the schema and the error catalogue (regenerate with `npm run docs`). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderDocs } from "../../../src/cli/docs.js";
import { ERROR_CODES } from "../../../src/clients/errors.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { createServer } from "../../../src/server/index.js";
import { ROOT } from "../../support/rackform-e2e.js";

const pages = renderDocs(createServer(rackformProvider()).getProviderSchema());

describe("docs/", () => {
  for (const [name, text] of pages) {
    it(`docs/${name} is up to date (run \`npm run docs\` if not)`, () => {
      const file = join(ROOT, "docs", name);
      expect(existsSync(file), `${file} is missing`).toBe(true);
      expect(readFileSync(file, "utf8")).toBe(text);
    });
  }

  it("documents every resource of the provider and every error code", () => {
    for (const r of rackformProvider().resources())
      expect(pages.has(`resources/${r.typeName.replace(/^rackform_/, "")}.md`)).toBe(true);
    for (const code of Object.keys(ERROR_CODES)) expect(pages.get("errors.md")).toContain(`\`${code}\``);
  });

  it("describes every attribute (no empty description cells)", () => {
    for (const [name, text] of pages) expect(text, name).not.toMatch(/\| [^|]+ \| [^|]+ \| [^|]+ \| {2}\|/);
  });
});
