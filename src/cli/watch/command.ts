/**
 * `rackform watch`: a rollout as it happens, read-only. Each refresh reads every stack through the engine's
 * `show -json` and each backend's machine list once, then prints (a table with `--once`, else one line per rack when
 * something changed) and, with `--listen`, updates the web page over server-sent events.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { type CommandSpec, helpText, oneOf, parseCommand, positiveNumber, UsageError } from "../args.js";
import { findEngine } from "../engine.js";
import { SETTLED } from "../stages.js";
import { type BackendSettings, backendSettings, LiveReader } from "./live.js";
import { WatchModel, type WatchSnapshot } from "./model.js";
import { renderLines, renderTable } from "./render.js";
import { parseListen, startWatchServer, type WatchServer } from "./server.js";
import { type StackRead, type StackSource, stackSources, WatchSourceError } from "./sources.js";

/** The command line of `rackform watch`. */
export const WATCH: CommandSpec = {
  name: "watch",
  positionals: "[RACK=]STACK...",
  brief: "watch a rollout live, read-only: stages per node and rack, failures, ETA",
  summary: `show each node's stage (off … testing, joined; failed, quarantined, draining, releasing) per rack while an
apply runs, read-only: STACK is a CDKTF project folder (cdktf.json), a cdktf.out folder, a stack or working directory,
a .tfstate file, or postgres://…#schema (pg backend); local state is read as JSON, anything else with the engine's
\`show -json\`; backends and schedulers are read with the provider's settings (cdk.tf.json, TF_VAR_*, RACKFORM_*)`,
  options: [
    { name: "--once", help: "print one table (counts per stage and rack, failures) and exit" },
    {
      name: "--listen",
      value: "HOST:PORT",
      help: "serve the live page (rack elevations, failures) at http://HOST:PORT/ (port 0: any free port)",
      parse: parseListen,
    },
    { name: "--interval", value: "S", help: "seconds between refreshes (default 5)", parse: positiveNumber },
    {
      name: "--engine",
      value: "E",
      help: "terraform or tofu (default: $TERRAFORM_BINARY_NAME, else terraform if on PATH, else the OpenTofu build)",
      parse: oneOf(["terraform", "tofu"]),
    },
    {
      name: "--until-settled",
      help: "exit once every node is joined, failed, quarantined or unhealthy (1 if any is not joined)",
    },
  ],
};

/** A running watch: its page's URL (with --listen), its latest snapshot, and how to stop it. */
export interface WatchSession {
  readonly url: string | undefined;
  refresh(): Promise<WatchSnapshot>;
  latest(): WatchSnapshot;
  close(): Promise<void>;
}

/** What a watch reads and where it serves. */
export interface WatchOptions {
  readonly sources: readonly StackSource[];
  /** Backends to read live; absent: from the first stack's cdk.tf.json and the environment. */
  readonly backends?: BackendSettings;
  readonly listen?: { readonly host: string; readonly port: number };
  readonly env?: NodeJS.ProcessEnv;
}

/** Starts a watch (reads once before it resolves); the caller refreshes it (`refresh`) at its own pace. */
export async function startWatch(opts: WatchOptions): Promise<WatchSession> {
  const model = new WatchModel();
  let live: LiveReader | undefined;
  let snapshot: WatchSnapshot = { time: new Date().toISOString(), racks: [], failures: [], liveErrors: [] };
  let server: WatchServer | undefined;
  const refresh = async () => {
    const reads: { label: string; read?: StackRead; error?: string }[] = [];
    // One stack after another: each read runs the engine and the provider, and the machine may be busy applying.
    for (const s of opts.sources) {
      try {
        reads.push({ label: s.label, read: await s.read() });
      } catch (e) {
        if (!(e instanceof WatchSourceError) && !(e instanceof SyntaxError)) throw e;
        reads.push({ label: s.label, error: e.message });
      }
    }
    live ??= new LiveReader(
      opts.backends ?? backendSettings(reads.find((r) => r.read?.config)?.read?.config, opts.env ?? process.env),
    );
    const view = live.enabled ? await live.read() : undefined;
    snapshot = model.update(reads, view, Date.now());
    server?.publish(snapshot);
    return snapshot;
  };
  await refresh();
  if (opts.listen) server = await startWatchServer(opts.listen.host, opts.listen.port, () => snapshot);
  return {
    url: server?.url,
    refresh,
    latest: () => snapshot,
    close: async () => {
      await server?.close();
      await live?.close();
      for (const s of opts.sources) s.close();
    },
  };
}

const settled = (s: WatchSnapshot) =>
  s.racks.length > 0 &&
  s.racks.every((r) => !r.error && r.nodes.length > 0 && r.nodes.every((n) => SETTLED.has(n.stage)));

/** Runs `rackform watch ARGS`; resolves with the exit code. */
export async function watch(
  argv: readonly string[],
  out: (s: string) => void,
  err: (s: string) => void,
): Promise<number> {
  const { help, values, positionals } = parseCommand(WATCH, argv);
  if (help) {
    out(helpText(WATCH));
    return 0;
  }
  const v = values as { once?: boolean; listen?: { host: string; port: number }; interval?: number; engine?: string };
  if (positionals.length === 0)
    throw new UsageError(
      "which stacks? e.g. rackform watch . in a CDKTF project (or cdktf.out, a .tfstate, postgres://…#schema)",
    );
  if (v.once && v.listen) throw new UsageError("--once prints one table and exits; give --listen without it");
  const envEngine = process.env.TERRAFORM_BINARY_NAME;
  const engine = { bin: v.engine || !envEngine ? findEngine(v.engine) : envEngine, env: process.env };
  let sources: StackSource[];
  try {
    sources = positionals.flatMap((p) => stackSources(p, engine));
  } catch (e) {
    if (e instanceof WatchSourceError) throw new UsageError(e.message);
    throw e;
  }
  const session = await startWatch({ sources, listen: v.listen });
  try {
    if (v.once) {
      const s = session.latest();
      out(renderTable(s));
      return s.racks.some((r) => r.error) ? 1 : 0;
    }
    if (session.url) out(`watch: ${session.url}\n`);
    const stop = new AbortController();
    const onSignal = () => stop.abort();
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    let last = "";
    let lastPrintMs = 0;
    const reported = new Set<string>();
    try {
      for (;;) {
        const s = session.latest();
        const lines = renderLines(s);
        const key = lines.map((l) => l.slice(11)).join("\n");
        // A line per rack when something changed, and at least once a minute so a CI log shows the watch is alive.
        if (key !== last || Date.now() - lastPrintMs > 60_000) {
          out(`${lines.join("\n")}\n`);
          last = key;
          lastPrintMs = Date.now();
        }
        for (const f of s.failures) {
          const id = `${f.rack}/${f.node} ${f.stage}: ${f.detail}`;
          if (!reported.has(id)) out(`  ${f.rack}/${f.node} ${f.stage}: ${f.detail || "(no detail)"}\n`);
          reported.add(id);
        }
        if (values["until-settled"] && settled(s)) {
          if (s.failures.length > 0) out(renderTable(s));
          return s.failures.length > 0 ? 1 : 0;
        }
        await sleep((v.interval ?? 5) * 1000, undefined, { signal: stop.signal }).catch(() => undefined);
        if (stop.signal.aborted) return 0;
        await session.refresh().catch((e: unknown) => err(`watch: refresh failed: ${(e as Error).message}\n`));
      }
    } finally {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    }
  } finally {
    await session.close();
  }
}
