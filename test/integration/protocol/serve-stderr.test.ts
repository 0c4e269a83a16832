/**
 * Regression (found by test/e2e/rack-crash.test.ts): after the engine was SIGKILLed mid-apply, a provider that kept
 * logging spun a core forever — each log line failed with EPIPE, the unhandled stream error was reported on stderr,
 * which failed again, in a nextTick loop that starved the orphan check. A closed stderr now ends the process.
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { type PluginProcess, startPlugin } from "../../support/protocol/plugin-process.js";

const CHATTY = fileURLToPath(new URL("../../support/protocol/chatty-provider.ts", import.meta.url));
const running: PluginProcess[] = [];
afterEach(() => {
  for (const p of running.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
});

describe("a provider whose engine stopped reading its stderr", () => {
  it("exits instead of spinning on EPIPE", async () => {
    const p = await startPlugin({ script: CHATTY });
    running.push(p);
    const exited = new Promise<number | null>((r) => p.child.on("exit", (code) => r(code)));
    // WHEN the reading end of its stderr goes away, as when the engine is killed
    p.child.stderr?.destroy();
    // THEN its next log line ends it (bounded only so a regression fails instead of hanging)
    const code = await Promise.race([exited, new Promise<string>((r) => setTimeout(() => r("still running"), 20_000))]);
    expect(code).toBe(0);
  });
});
