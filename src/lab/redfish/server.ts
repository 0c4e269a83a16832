/**
 * One HTTP server behind TLS for every BMC and PDU of the lab. Each BMC/PDU has its own loopback address, TCP listener
 * and certificate; accepted sockets are wrapped in TLS with that address's certificate and handed to the single HTTP
 * server, which tells them apart by local address. A BMC without power (or booting, or faulted unreachable) resets
 * connections, as a dead management port would.
 */
import {
  createServer as createHttpServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from "node:http";
import { createServer as createNetServer, type Server as NetServer, type Socket } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { createSecureContext, type SecureContext, TLSSocket } from "node:tls";
import type { RequestLog } from "../request-log.js";
import type { World } from "../world/model.js";
import { hasQuirk } from "../world/quirks.js";
import { DEFAULT_SESSION_LIMITS } from "../world/spec.js";
import { bluefieldRoutes } from "./bluefield.js";
import { bootOptionRoutes } from "./boot-options.js";
import { componentIntegrityRoutes } from "./component-integrity.js";
import { errorBody, RedfishError } from "./errors.js";
import { drop, internal, normalize, readBody, send } from "./http-io.js";
import { inventoryRoutes } from "./inventory.js";
import { logServiceRoutes } from "./log-service.js";
import { oemPciRoutes } from "./oem-pci.js";
import { pduRoutes } from "./pdu.js";
import {
  bodyEtag,
  type Expand,
  ExpandQueryError,
  expandBody,
  MAX_EXPAND_LEVELS,
  noneMatch,
  parseExpand,
} from "./representation.js";
import { type Ctx, type Reply, Router, type Target } from "./router.js";
import { secureBootRoutes } from "./secure-boot.js";
import { serviceRoutes } from "./services.js";
import { authenticate, PDU_SESSION_LIMIT, SessionStore, sessionRoutes } from "./sessions.js";
import { systemRoutes } from "./system.js";
import type { LabTls } from "./tls.js";
import { virtualMediaRoutes } from "./virtual-media.js";

const router = new Router([
  ...systemRoutes,
  ...bootOptionRoutes,
  ...sessionRoutes,
  ...inventoryRoutes,
  ...oemPciRoutes,
  ...serviceRoutes,
  ...virtualMediaRoutes,
  ...logServiceRoutes,
  ...componentIntegrityRoutes,
  ...secureBootRoutes,
  ...pduRoutes,
]);
/** A BlueField DPU's BMC serves its own resource tree (bluefield.ts), not a host's. */
const dpuRouter = new Router(bluefieldRoutes);
/** Sessions a DPU BMC keeps (OpenBMC's bmcweb default). */
const DPU_SESSION_LIMIT = 64;

/** Options of the Redfish fleet. */
export interface RedfishFleetOptions {
  readonly world: World;
  readonly tls: LabTls;
  readonly log: RequestLog;
  /** Port on every address. @default 0: one free port, picked on the first address and reused on the others */
  readonly port?: number;
}

/** All BMC and PDU endpoints of a world. */
export class RedfishFleet {
  private readonly http: HttpServer;
  private readonly contexts = new Map<string, SecureContext>();
  private readonly listeners: NetServer[] = [];
  /** Raw accepted sockets: a TLS wrapper does not always tear down its parent, and close() must not wait on them. */
  private readonly sockets = new Set<Socket>();
  private readonly targets = new Map<string, Target>();
  private readonly sessions = new Map<string, SessionStore>();
  private readonly hung = new Map<ServerResponse, string>();
  /** Port by address. */
  readonly ports = new Map<string, number>();
  /** The listener serving each address now. */
  private readonly listenerAt = new Map<string, NetServer>();

  /** Live Redfish sessions at one BMC or PDU address (0 for an unknown address). */
  liveSessions(address: string): number {
    return this.sessions.get(address)?.liveCount() ?? 0;
  }

  constructor(private readonly opts: RedfishFleetOptions) {
    const { world } = opts;
    for (const node of world.nodes.values()) this.targets.set(node.address, { kind: "bmc", node });
    for (const pdu of world.pdus.values()) this.targets.set(pdu.address, { kind: "pdu", pdu });
    for (const dpu of world.dpus.values()) this.targets.set(dpu.address, { kind: "dpu", dpu });
    for (const [a, t] of this.targets) {
      const limit =
        t.kind === "bmc"
          ? (t.node.spec.sessionLimit ?? DEFAULT_SESSION_LIMITS[t.node.spec.vendor])
          : t.kind === "dpu"
            ? DPU_SESSION_LIMIT
            : PDU_SESSION_LIMIT;
      this.sessions.set(a, new SessionStore(() => world.credentials(a), limit));
    }
    world.onPasswordRotated((a) => this.sessions.get(a)?.clear());
    this.http = createHttpServer({ keepAlive: true }, (req, res) => {
      this.handle(req, res).catch(() => drop(req.socket));
    });
    this.http.keepAliveTimeout = 30_000;
    world.faults.onRemoved(() => this.releaseHung());
  }

  /** Binds every address; resolves when all listen. */
  async start(): Promise<void> {
    let shared = this.opts.port ?? 0;
    for (const address of this.targets.keys()) {
      const port = await this.listen(address, shared).catch((e: NodeJS.ErrnoException) => {
        // Someone else holds this address:port; any free port on this address will do.
        if (e.code === "EADDRINUSE" && !this.opts.port) return this.listen(address, 0);
        throw e;
      });
      this.ports.set(address, port);
      if (shared === 0) shared = port;
    }
  }

  /** Base URL of the service at `address`. */
  url(address: string): string {
    return `https://${address}:${this.ports.get(address)}`;
  }

  /**
   * Moves the BMC or PDU at `address` to another port (0: any free one), as when a device is given a new address on
   * the management network: the old port refuses connections from now on and its open connections are dropped, so a
   * backend still holding the old address fails as it would. Returns the service's new base URL.
   */
  async move(address: string, port = 0): Promise<string> {
    if (!this.targets.has(address)) throw new Error(`no BMC or PDU at ${address}`);
    const old = this.listenerAt.get(address);
    const oldPort = this.ports.get(address);
    const moved = await this.listen(address, port);
    this.ports.set(address, moved);
    if (old) {
      this.listeners.splice(this.listeners.indexOf(old), 1);
      old.close();
    }
    for (const s of this.sockets) if (s.localAddress === address && s.localPort === oldPort) s.destroy();
    return this.url(address);
  }

  /** Stops listening and drops every connection. */
  async close(): Promise<void> {
    for (const res of this.hung.keys()) res.socket?.destroy();
    this.hung.clear();
    // Stop accepting first, then drop open keep-alive connections: a listener's close waits for its sockets to end,
    // so awaiting it before dropping them stalls until clients (e.g. a provider's pool) hang up by themselves.
    const closed = this.listeners.map((l) => new Promise((r) => l.close(r)));
    this.http.closeAllConnections();
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(closed);
    await new Promise((r) => this.http.close(r));
  }

  private listen(address: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const server = createNetServer((socket) => this.accept(address, socket));
      server.once("error", reject);
      server.listen({ host: address, port, backlog: 511 }, () => {
        server.off("error", reject);
        this.listeners.push(server);
        this.listenerAt.set(address, server);
        const a = server.address();
        resolve(typeof a === "object" && a ? a.port : port);
      });
    });
  }

  private reachable(t: Target | undefined): boolean {
    if (t?.kind === "dpu") return this.opts.world.dpuBmcState(t.dpu) === "up";
    return t !== undefined && (t.kind === "pdu" || this.opts.world.bmcState(t.node) === "up");
  }

  private accept(address: string, socket: Socket): void {
    socket.on("error", () => {});
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
    if (!this.reachable(this.targets.get(address))) {
      socket.resetAndDestroy();
      return;
    }
    let context = this.contexts.get(address);
    if (!context) {
      context = createSecureContext({ cert: this.opts.tls.certFor.get(address), key: this.opts.tls.keyPem });
      this.contexts.set(address, context);
    }
    const tls = new TLSSocket(socket, { isServer: true, secureContext: context });
    tls.on("error", () => tls.destroy());
    this.http.emit("connection", tls);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const address = req.socket.localAddress ?? "";
    const target = this.targets.get(address);
    const path = normalize(req.url ?? "/");
    const query = (req.url ?? "").split("#")[0].split("?")[1] ?? "";
    const method = req.method ?? "GET";
    const name =
      target?.kind === "bmc" ? target.node.spec.name : target?.kind === "dpu" ? target.dpu.id : target?.pdu.spec.id;
    res.on("close", () => {
      this.hung.delete(res);
      this.opts.log.append({
        time: new Date().toISOString(),
        method,
        path,
        ...(query ? { query: decodeURIComponent(query) } : {}),
        host: req.headers.host ?? "",
        address,
        target: name,
        status: res.headersSent ? res.statusCode : 0,
        durationMs: Math.round((performance.now() - started) * 100) / 100,
      });
    });
    if (!target || !this.reachable(target)) {
      drop(req.socket);
      return;
    }
    const faults = this.opts.world.faults;
    const scope = {
      node: target.kind !== "pdu" ? name : undefined,
      pdu: target.kind === "pdu" ? name : undefined,
      path,
      method,
    };
    if (faults.take("connection-reset", scope)) {
      drop(req.socket);
      return;
    }
    const hang = faults.take("hang", scope);
    if (hang) {
      this.hung.set(res, hang.id);
      return;
    }
    const latency = faults.find("latency", scope);
    if (latency) {
      faults.take("latency", scope);
      await delay(latency.ms ?? 0);
    }
    let reply: Reply;
    try {
      const forced = faults.take("http-status", scope);
      if (forced) {
        const retry = forced.retryAfterS !== undefined ? { "Retry-After": String(forced.retryAfterS) } : undefined;
        const key = forced.status === 503 ? "ServiceTemporarilyUnavailable" : "GeneralError";
        const arg = forced.status === 503 ? String(forced.retryAfterS ?? 0) : `Injected HTTP ${forced.status}.`;
        throw new RedfishError(forced.status ?? 500, key, [arg], retry);
      }
      const upload = this.upload(target, method, path, req);
      reply = upload ? await upload : this.dispatch(target, method, path, req, await readBody(req));
      if (method === "GET" && reply.status === 200) reply = this.represent(target, query, req, reply);
    } catch (e) {
      reply =
        e instanceof RedfishError
          ? { status: e.status, body: errorBody(e.key, e.args, e.vendor), headers: e.headers }
          : internal(e);
    }
    send(res, reply);
  }

  /** The route of a request, after authentication (404 when none). */
  /** The route a request matches and the handler context for it (`ctx(body)`), after authentication. */
  private resolve(target: Target, method: string, path: string, req: IncomingMessage) {
    const m = (target.kind === "dpu" ? dpuRouter : router).match(path);
    const store = this.sessions.get(req.socket.localAddress ?? "") as SessionStore;
    const anonymous = m?.route.anonymous?.includes(method) ?? false;
    const user = anonymous ? "" : authenticate(store, req.headers);
    if (!m) throw new RedfishError(404, "ResourceNotFound", ["Resource", path]);
    const world = this.opts.world;
    const ctx = (body: unknown): Ctx => ({
      world,
      target,
      sessions: store,
      method,
      path,
      query: (req.url ?? "").split("#")[0].split("?")[1] ?? "",
      params: m.params,
      headers: req.headers,
      body,
      user,
    });
    return { m, ctx };
  }

  /** A POST to a route that reads its own body (a firmware push), else undefined. */
  private upload(target: Target, method: string, path: string, req: IncomingMessage): Promise<Reply> | undefined {
    if (method !== "POST" || target.kind !== "bmc" || !router.match(path)?.route.upload) return undefined;
    const { m, ctx } = this.resolve(target, method, path, req);
    return (m.route.upload as NonNullable<typeof m.route.upload>)(ctx(undefined), req);
  }

  private dispatch(target: Target, method: string, path: string, req: IncomingMessage, raw: string): Reply {
    const { m, ctx } = this.resolve(target, method, path, req);
    const handler = m.route.methods[method as keyof typeof m.route.methods];
    if (!handler) {
      const allow = [...Object.keys(m.route.methods), ...(m.route.upload ? ["POST"] : [])];
      throw new RedfishError(405, "OperationNotAllowed", [], { Allow: allow.join(", ") });
    }
    let body: unknown;
    if (raw.trim() !== "") {
      try {
        body = JSON.parse(raw);
      } catch {
        throw new RedfishError(400, "MalformedJSON");
      }
    }
    return handler(ctx(body));
  }

  /**
   * A GET's body as this BMC sends it: expanded when asked and supported, with its ETag (header and @odata.etag), or
   * 304 without a body when If-None-Match names that ETag. A BMC with quirk no-expand-query ignores `$expand`; one
   * with no-etags sends no ETag and ignores If-None-Match.
   */
  private represent(target: Target, query: string, req: IncomingMessage, reply: Reply): Reply {
    const body = reply.body;
    if (typeof body !== "object" || body === null || Array.isArray(body)) return reply;
    const node = target.kind === "bmc" ? target.node : undefined;
    let expand: Expand | undefined;
    try {
      expand = node && !hasQuirk(node, "no-expand-query") ? parseExpand(query) : undefined;
      if (expand && node && hasQuirk(node, "expand-one-level")) expand = { ...expand, levels: 1 };
    } catch (e) {
      if (!(e instanceof ExpandQueryError)) throw e;
      throw new RedfishError(400, e.key, [e.value, "$expand", `1-${MAX_EXPAND_LEVELS}`]);
    }
    let out = body as Record<string, unknown>;
    if (expand) {
      out = expandBody(out, expand, (ref) => {
        try {
          const r = this.dispatch(target, "GET", normalize(ref), req, "");
          return r.status === 200 && typeof r.body === "object" && r.body !== null ? (r.body as typeof out) : undefined;
        } catch {
          return undefined;
        }
      });
    }
    const { ETag: own, ...headers } = reply.headers ?? {};
    if (node && hasQuirk(node, "no-etags")) return { status: 200, body: out, headers };
    // An expanded representation is another representation: its ETag covers everything expanded into it.
    const etag = expand || own === undefined ? bodyEtag(out) : own;
    if (noneMatch(req.headers["if-none-match"], etag)) return { status: 304, headers: { ...headers, ETag: etag } };
    return { status: 200, body: { ...out, "@odata.etag": etag }, headers: { ...headers, ETag: etag } };
  }

  private releaseHung(): void {
    const live = new Set(this.opts.world.faults.list().map((f) => f.id));
    for (const [res, id] of this.hung) {
      if (!live.has(id)) {
        this.hung.delete(res);
        res.socket?.destroy();
      }
    }
  }
}
