/**
 * Debian's Chromium, headless, for the browser tests: the DOM of a page after it loaded (`--dump-dom`) and a
 * screenshot. A missing Chromium fails with what to install (scripts/setup.sh --tests installs it).
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { until } from "./until.js";

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

/** A page open in headless Chromium, driven over the DevTools protocol (undici's WebSocket: no new dependency). */
export interface BrowserPage {
  /** Evaluates an expression in the page and resolves with its (JSON) value; awaits a returned promise. */
  evaluate(expression: string): Promise<unknown>;
  /** Saves a PNG of the page. */
  screenshot(file: string): Promise<void>;
  close(): Promise<void>;
}

/** Opens `url` in a headless Chromium with a DevTools port; close() ends the browser and removes its profile. */
export async function openPage(url: string, width = 1280, height = 900): Promise<BrowserPage> {
  const { spawn } = await import("node:child_process");
  const { writeFile } = await import("node:fs/promises");
  const { WebSocket } = await import("undici");
  const profile = await mkdtemp(join(tmpdir(), "rf-chromium-"));
  const args = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    `--user-data-dir=${profile}`,
    "--remote-debugging-port=0",
    `--window-size=${width},${height}`,
    url,
  ];
  const browser = spawn(chromiumBin(), args, {
    env: { ...process.env, TMPDIR: profile },
    stdio: ["ignore", "ignore", "pipe"],
  });
  const close = async () => {
    if (browser.exitCode === null) {
      const gone = new Promise((done) => browser.once("close", done));
      browser.kill("SIGKILL");
      await gone;
    }
    await rm(profile, { recursive: true, force: true });
  };
  try {
    const devtools = await new Promise<string>((done, fail) => {
      let err = "";
      const timer = setTimeout(() => fail(new Error(`chromium printed no DevTools address:\n${err}`)), 30_000);
      browser.stderr?.on("data", (d) => {
        err += d;
        const m = /DevTools listening on (ws:\/\/[^\s]+)/.exec(err);
        if (m) {
          clearTimeout(timer);
          done(m[1]);
        }
      });
    });
    const http = devtools.replace(/^ws:/, "http:").replace(/\/devtools\/.*$/, "");
    const target = await until(
      `chromium to open a page for ${url}`,
      async () => {
        const list = (await (await fetch(`${http}/json/list`)).json()) as {
          type: string;
          url: string;
          webSocketDebuggerUrl: string;
        }[];
        return list.find((t) => t.type === "page" && t.url.startsWith(url));
      },
      { everyMs: 100 },
    );
    const ws = new WebSocket(target.webSocketDebuggerUrl);
    await new Promise((done, fail) => {
      ws.addEventListener("open", done, { once: true });
      ws.addEventListener("error", () => fail(new Error("DevTools WebSocket failed")), { once: true });
    });
    let next = 1;
    const pending = new Map<number, { done: (v: unknown) => void; fail: (e: Error) => void }>();
    ws.addEventListener("message", (e) => {
      const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: { message: string } };
      const p = msg.id === undefined ? undefined : pending.get(msg.id);
      if (!p) return;
      pending.delete(msg.id as number);
      if (msg.error) p.fail(new Error(msg.error.message));
      else p.done(msg.result);
    });
    const send = (method: string, params: object) =>
      new Promise<unknown>((done, fail) => {
        const id = next++;
        pending.set(id, { done, fail });
        ws.send(JSON.stringify({ id, method, params }));
      });
    return {
      evaluate: async (expression) => {
        const r = (await send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true })) as {
          result: { value?: unknown };
          exceptionDetails?: { text: string; exception?: { description?: string } };
        };
        if (r.exceptionDetails) {
          throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
        }
        return r.result.value;
      },
      screenshot: async (file) => {
        const r = (await send("Page.captureScreenshot", { format: "png" })) as { data: string };
        await writeFile(file, Buffer.from(r.data, "base64"));
      },
      close: async () => {
        ws.close();
        await close();
      },
    };
  } catch (e) {
    await close();
    throw e;
  }
}
