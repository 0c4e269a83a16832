/**
 * The lab's scheduler endpoints are an independent implementation: they import only node: builtins, each other and the
 * lab's listening helper (src/lab/net.ts: sockets, no protocol knowledge).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const DIR = join(import.meta.dirname, "../../../src/lab/scheduler");
const LAB_PLUMBING = new Set(["../net.js"]);

describe("src/lab/scheduler isolation", () => {
  it("imports nothing from the rest of src (a shared misunderstanding would pass both sides' tests)", () => {
    const bad: string[] = [];
    for (const f of readdirSync(DIR).filter((x) => x.endsWith(".ts"))) {
      const text = readFileSync(join(DIR, f), "utf8");
      for (const m of text.matchAll(/from\s+"([^"]+)"/g)) {
        if (!m[1].startsWith("node:") && !/^\.\/[\w-]+\.js$/.test(m[1]) && !LAB_PLUMBING.has(m[1]))
          bad.push(`${f}: ${m[1]}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
