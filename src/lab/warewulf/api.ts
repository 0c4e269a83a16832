/**
 * createWarewulfApi: the lab's warewulfd (Warewulf 4.7): the REST API under /api (HTTP Basic against auth.conf users,
 * only from the API's allowed subnets) and the unauthenticated GET /status, whose stages follow the world's hosts.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { type ListeningServer, listenOn } from "../net.js";
import { imagesRoute, overlaysRoute, profilesRoute } from "./catalog-api.js";
import { ApiError, type Req, sendError, sendJson, sendPlain } from "./http.js";
import { nodesRoute, type Routed } from "./nodes-api.js";
import { type ObserveHost, StatusBoard } from "./status.js";
import { compact, type Fields, mergeOverwrite, WarewulfStore } from "./store.js";

/** Options of createWarewulfApi. */
export interface WarewulfApiOptions {
  /** auth.conf users: name → password (warewulfd compares bcrypt hashes; the lab keeps the passwords). */
  readonly users: Readonly<Record<string, string>>;
  /** The lab clock (ms). */
  readonly now: () => number;
  /** Time from power-on to runtime. */
  readonly deployMs: () => number;
  /** The world seam: the host behind a node's MACs. */
  readonly observe: ObserveHost;
  /** warewulf.conf `api: allowed subnets` as IPv4 prefixes (e.g. "127.0.0.0/8"). @default ["127.0.0.0/8"] */
  readonly allowedSubnets?: readonly string[];
  /** Boot through GRUB (efiboot, grub stages) instead of iPXE. @default false */
  readonly grub?: boolean;
}

/** A program on a node at runtime: tags to write back, or undefined. */
export type NodeAgent = (id: string, node: Fields) => Record<string, string> | undefined;

/** One handled request. */
export interface WarewulfRequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly at: number;
}

/** Test hooks. */
export interface WarewulfHooks {
  /** The node stops at `stage` on its next boots (never reaches runtime); undefined clears it. */
  stall(id: string, stage: string | undefined): void;
  /** Makes the next `count` API requests fail with HTTP 503 (before authentication). */
  failNext(count: number): void;
}

/** The running lab warewulfd. */
export interface WarewulfApi {
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  listen(host: string, port: number): Promise<ListeningServer>;
  readonly store: WarewulfStore;
  readonly requests: readonly WarewulfRequestLogEntry[];
  readonly hooks: WarewulfHooks;
  /**
   * Adds a program running on every node at runtime (what a runtime overlay starts): before each API or /status
   * request it sees the node's merged fields and may return tags to write on the node, as the node would through the
   * API with its own user.
   */
  addNodeAgent(f: NodeAgent): void;
  /** Calls `f` once per boot when a node reaches runtime (as /status first shows it), with its merged fields. */
  onRuntime(f: (id: string, node: Fields) => void): void;
  stop(): void;
}

function inSubnet(ip: string, cidr: string): boolean {
  const [net, bits] = cidr.split("/");
  const toInt = (a: string) => a.split(".").reduce((acc, o) => (acc << 8) + Number(o), 0) >>> 0;
  if (!/^\d+\.\d+\.\d+\.\d+$/.test(ip) || !net) return false;
  const b = Number(bits ?? 32);
  const mask = b === 0 ? 0 : (~0 << (32 - b)) >>> 0;
  return (toInt(ip) & mask) === (toInt(net) & mask);
}

/** Creates a lab warewulfd with the default profile, no nodes, no images and the distribution overlays. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table, one entry per endpoint
export function createWarewulfApi(opts: WarewulfApiOptions): WarewulfApi {
  const store = new WarewulfStore();
  const board = new StatusBoard(store, opts.observe, {
    now: opts.now,
    deployMs: opts.deployMs,
    grub: opts.grub,
    onRuntime: (id, node) => {
      for (const f of runtimeListeners) f(id, node);
    },
  });
  const runtimeListeners: ((id: string, node: Fields) => void)[] = [];
  const requests: WarewulfRequestLogEntry[] = [];
  const agents: NodeAgent[] = [];
  const runAgents = () => {
    if (agents.length === 0) return;
    for (const id of [...store.nodes.keys()]) {
      if (!board.running(id)) continue;
      for (const agent of agents) {
        const node = store.merged(id);
        const tags = node && agent(id, node);
        if (!tags) continue;
        store.nodes.set(id, compact(mergeOverwrite(store.nodes.get(id) ?? {}, { tags })));
        store.generation++;
      }
    }
  };
  const subnets = opts.allowedSubnets ?? ["127.0.0.0/8"];
  let failures = 0;
  const reload = () => {
    store.generation++;
  };
  const date = () => new Date(opts.now()).toUTCString();

  function authorized(req: IncomingMessage): boolean {
    const h = req.headers.authorization ?? "";
    const m = /^Basic\s+(.+)$/i.exec(h);
    if (!m) return false;
    const text = Buffer.from(m[1], "base64").toString("utf8");
    const i = text.indexOf(":");
    if (i < 0) return false;
    const user = text.slice(0, i);
    return Object.hasOwn(opts.users, user) && opts.users[user] === text.slice(i + 1);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<number> {
    const url = new URL(req.url ?? "/", "http://warewulfd");
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const method = req.method ?? "GET";
    runAgents();
    if (url.pathname === "/status" && method === "GET") {
      sendJson(res, 200, board.document(), date());
      return 200;
    }
    if (!url.pathname.startsWith("/api/")) {
      sendPlain(res, 404, "404 page not found", date());
      return 404;
    }
    if (failures > 0) {
      failures--;
      sendPlain(res, 503, "Service Unavailable", date());
      return 503;
    }
    const remote = (req.socket.remoteAddress ?? "").replace(/^::ffff:/, "");
    if (!subnets.some((s) => inSubnet(remote, s))) {
      sendPlain(res, 403, "Forbidden", date());
      return 403;
    }
    if (!authorized(req)) {
      sendPlain(res, 401, "Unauthorized", date(), { "www-authenticate": 'Basic realm="Restricted"' });
      return 401;
    }
    const segs = url.pathname.split("/").slice(2);
    const [collection, ...rest] = segs;
    const r: Req = {
      method,
      parts: rest.filter((p, i) => p !== "" || i < rest.length - 1).map(decodeURIComponent),
      headers: req.headers,
      query: url.searchParams,
      body: Buffer.concat(chunks).toString("utf8"),
    };
    let out: Routed;
    try {
      if (collection === "nodes") out = nodesRoute(store, r, reload);
      else if (collection === "profiles") out = profilesRoute(store, r, reload);
      else if (collection === "images") out = imagesRoute(store, r, () => Math.floor(opts.now() / 1000));
      else if (collection === "overlays") out = overlaysRoute(store, r);
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      out = e;
    }
    if (out === undefined) {
      sendPlain(res, 404, "404 page not found", date());
      return 404;
    }
    if (out instanceof ApiError) {
      sendError(res, out, date());
      return out.httpStatus;
    }
    sendJson(res, 200, out.body, date());
    return 200;
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const at = Date.now();
    const path = (req.url ?? "/").split("?")[0];
    handle(req, res).then(
      (status) => requests.push({ method: req.method ?? "GET", path, status, at }),
      (e: unknown) => {
        requests.push({ method: req.method ?? "GET", path, status: 500, at });
        if (!res.headersSent) sendJson(res, 500, { error: String((e as Error)?.message ?? e) }, date());
      },
    );
  };

  return {
    handler,
    listen: (host, port) => listenOn(handler, host, port),
    store,
    requests,
    hooks: {
      stall: (id, stage) => board.stall(id, stage),
      failNext: (count) => {
        failures = count;
      },
    },
    addNodeAgent: (f) => {
      agents.push(f);
    },
    onRuntime: (f) => {
      runtimeListeners.push(f);
    },
    stop: () => {},
  };
}
