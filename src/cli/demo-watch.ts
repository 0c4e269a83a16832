/**
 * The demo's live view: `rackform watch` started in-process on a free loopback port over the project's cdktf.out,
 * refreshed every five seconds while the deploy runs (each refresh starts the engine and the provider once per stack, so the pace is kept low on a busy machine), so a person can open the printed URL and see the rack converge.
 */
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { startWatch, type WatchSession } from "./watch/command.js";
import { stackSources } from "./watch/sources.js";

/** A running demo watch. */
export interface DemoWatch {
  readonly url: string;
  stop(): Promise<void>;
}

/** Starts the watch page for the project's stacks (backends read with the stack's provider settings and `env`). */
export async function startDemoWatch(project: string, engine: string, env: NodeJS.ProcessEnv): Promise<DemoWatch> {
  const sources = stackSources(join(project, "cdktf.out"), { bin: engine, env });
  const session: WatchSession = await startWatch({ sources, env, listen: { host: "127.0.0.1", port: 0 } });
  const stopped = new AbortController();
  const loop = (async () => {
    while (!stopped.signal.aborted) {
      await sleep(5000, undefined, { signal: stopped.signal }).catch(() => undefined);
      if (!stopped.signal.aborted) await session.refresh().catch(() => undefined);
    }
  })();
  return {
    url: session.url as string,
    stop: async () => {
      stopped.abort();
      await loop;
      await session.close();
    },
  };
}
