/**
 * Debian's Chromium, headless, for the browser tests: the DOM of a page after it loaded (`--dump-dom`) and a
 * screenshot. A missing Chromium fails with what to install (scripts/setup.sh --tests installs it).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The Chromium binary on PATH; throws naming the fix when there is none. */
export function chromiumBin(): string {
  for (const dir of (process.env.PATH ?? "").split(":")) {
    for (const name of ["chromium", "chromium-browser"]) if (existsSync(join(dir, name))) return join(dir, name);
  }
  throw new Error("chromium is not on PATH: run scripts/setup.sh --tests (apt-get install -y chromium)");
}

/** Runs headless Chromium on `url` with extra flags, in a throwaway profile; resolves with its stdout. */
async function headless(url: string, flags: readonly string[]): Promise<string> {
  const profile = await mkdtemp(join(tmpdir(), "rf-chromium-"));
  try {
    return await new Promise<string>((done, fail) => {
      const args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--disable-dev-shm-usage",
        `--user-data-dir=${profile}`,
        ...flags,
        url,
      ];
      // Chromium's own temp files (org.chromium.Chromium.*) go into the profile folder, removed below.
      const env = { ...process.env, TMPDIR: profile };
      execFile(chromiumBin(), args, { env, timeout: 60_000, maxBuffer: 16 << 20 }, (err, stdout, stderr) => {
        if (err) fail(new Error(`chromium ${flags.join(" ")} ${url} failed: ${err.message}\n${stderr}`));
        else done(stdout);
      });
    });
  } finally {
    await rm(profile, { recursive: true, force: true });
  }
}

/** The page's DOM after its load event (scripts that run before it included). */
export function dumpDom(url: string): Promise<string> {
  return headless(url, ["--dump-dom"]);
}

/** Saves a PNG of the page at `width`×`height` to `file`. */
export async function screenshot(url: string, file: string, width = 1280, height = 900): Promise<void> {
  await headless(url, [`--screenshot=${file}`, `--window-size=${width},${height}`, "--hide-scrollbars"]);
}

/** `data-stage` of every `.node` in a dumped DOM, by `data-node`. */
export function nodeStages(dom: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of dom.matchAll(/<div class="node" data-node="([^"]+)" data-stage="([^"]+)"/g)) out.set(m[1], m[2]);
  return out;
}

/** `data-count` of every `.count` in a dumped DOM, by `data-stage`. */
export function stageCounts(dom: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of dom.matchAll(/<span class="count" data-stage="([^"]+)" data-count="(\d+)"/g))
    out[m[1]] = Number(m[2]);
  return out;
}
