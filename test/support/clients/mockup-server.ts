/**
 * Serves a DMTF mockup directory (<dir>/index.json is /redfish/v1, <dir>/Systems/index.json is
 * /redfish/v1/Systems …) from node:http on 127.0.0.1 port 0, with sessions, basic auth, ETags, reset,
 * boot and BIOS settings PATCH, outlet power control and a SimpleUpdate task. Test support only; not the lab.
 */
import { createHash, randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { FIXTURES as SHARED_FIXTURES } from "../fixtures.js";

/** Where the shared fixtures live. */
export const FIXTURES = `${SHARED_FIXTURES}/redfish`;

/** Throws a clear message when the fixtures folder is missing, so a test fails instead of skipping. */
export function requireFixtures(): string {
  if (!existsSync(join(FIXTURES, "dmtf", "mockups"))) {
    throw new Error(`Redfish fixtures are missing: expected ${FIXTURES}/dmtf/mockups (see ${FIXTURES}/SOURCES.md)`);
  }
  return FIXTURES;
}

/** Reads a fixture JSON file relative to FIXTURES. */
export function fixture(rel: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(requireFixtures(), rel), "utf8"));
}

/** A recorded request. */
export interface Seen {
  readonly method: string;
  readonly path: string;
  /** The query string, without "?" ("" when none). */
  readonly query: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: string;
}

/** Options of the mockup server. */
export interface MockupOptions {
  readonly username?: string;
  readonly password?: string;
  /** Fixed token to hand out (e.g. from sushy's session_creation_headers.json). @default random */
  readonly token?: string;
  /** Answer the first If-Match PATCH with 412 after changing the resource, as a concurrent writer would. */
  readonly staleEtagOnce?: boolean;
  /** The service root needs credentials too (some vendors' BMCs). */
  readonly rootRequiresAuth?: boolean;
  /** Final state of the update task. @default "Completed" */
  readonly taskEnds?: "Completed" | "Exception";
  /** Polls of the update task before it completes. @default 2 */
  readonly taskPolls?: number;
}

/** What a route answers. */
export interface RouteAnswer {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Record<string, string>;
}

/**
 * A handler for one method and path (after authentication), e.g. an action or a POST the mockup does not know;
 * "hang" never answers (a component that does not respond), undefined leaves the request to the mockup.
 */
export type Route = (req: {
  readonly body: string;
  readonly query: string;
  readonly headers: IncomingMessage["headers"];
}) => RouteAnswer | "hang" | undefined;

/** A running mockup server. */
export interface MockupServer {
  readonly url: string;
  readonly seen: Seen[];
  /** Replace or patch a resource by path (e.g. to restrict AllowableValues). */
  override(path: string, patch: (json: Record<string, unknown>) => Record<string, unknown>): void;
  /** Adds (or replaces) a resource the mockup does not have, e.g. a registry from another sample. */
  put(path: string, json: Record<string, unknown>): void;
  /** Answers `method path` with `route` (undefined from it: the mockup's own handling). */
  route(method: string, path: string, route: Route): void;
  /** Forget every issued token, as a BMC does when sessions expire. */
  expireSessions(): void;
  readonly tokens: Set<string>;
  close(): Promise<void>;
}

/** Starts a server for the mockup in `dir`. */
export async function startMockup(dir: string, opts: MockupOptions = {}): Promise<MockupServer> {
  const user = opts.username ?? "admin";
  const pass = opts.password ?? "secret";
  const tokens = new Set<string>();
  const store = new Map<string, Record<string, unknown>>();
  const seen: Seen[] = [];
  const routes = new Map<string, Route>();
  let stale = opts.staleEtagOnce ?? false;
  let taskPolls = 0;

  const load = (p: string): Record<string, unknown> | undefined => {
    const key = p.replace(/\/+$/, "") || "/redfish/v1";
    const cached = store.get(key);
    if (cached) return cached;
    const rel = key.replace(/^\/redfish\/v1/, "");
    const file = join(dir, rel, "index.json");
    if (!existsSync(file)) return undefined;
    const json = JSON.parse(readFileSync(file, "utf8"));
    store.set(key, json);
    return json;
  };
  const etagOf = (j: unknown) => `"${createHash("sha256").update(JSON.stringify(j)).digest("hex").slice(0, 12)}"`;
  const send = (res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}) => {
    const text = body === undefined ? "" : JSON.stringify(body);
    res.writeHead(status, { "content-type": "application/json", ...headers });
    res.end(text);
  };
  const redfishError = (message: string, ext?: string) => ({
    error: {
      code: "Base.1.8.GeneralError",
      message,
      "@Message.ExtendedInfo": ext ? [{ MessageId: "Base.1.8.X", Message: ext }] : [],
    },
  });

  const handle = (req: IncomingMessage, res: ServerResponse, body: string) => {
    const url = new URL(req.url ?? "/", "http://x");
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const query = decodeURIComponent(url.search.replace(/^\?/, ""));
    seen.push({ method: req.method ?? "", path, query, headers: req.headers, body });
    const root = load("/redfish/v1") ?? {};
    const sessionsPath = (
      (root.Links as Record<string, { "@odata.id": string }> | undefined)?.Sessions?.["@odata.id"] ??
      "/redfish/v1/SessionService/Sessions"
    ).replace(/\/+$/, "");
    const isRoot = req.method === "GET" && (path === "/redfish/v1" || path === "/redfish");
    if (isRoot && !opts.rootRequiresAuth) return send(res, 200, root);
    if (req.method === "POST" && path === sessionsPath) {
      const creds = JSON.parse(body || "{}");
      if (creds.UserName !== user || creds.Password !== pass) {
        return send(res, 401, redfishError("Login failed.", `Invalid credentials for ${creds.UserName}.`));
      }
      const token = opts.token && !tokens.has(opts.token) ? opts.token : randomBytes(16).toString("hex");
      tokens.add(token);
      const id = randomBytes(4).toString("hex");
      return send(
        res,
        201,
        { "@odata.id": `${sessionsPath}/${id}`, Id: id, UserName: user },
        {
          "x-auth-token": token,
          location: `${sessionsPath}/${id}`,
        },
      );
    }
    const basic = `Basic ${Buffer.from(`${user}:${pass}`).toString("base64")}`;
    const token = req.headers["x-auth-token"];
    if (!(typeof token === "string" && tokens.has(token)) && req.headers.authorization !== basic) {
      return send(res, 401, fixture("sushy/json_samples/session_error.json"));
    }
    if (isRoot) return send(res, 200, root);
    const routed = routes.get(`${req.method} ${path}`)?.({ body, query, headers: req.headers });
    if (routed === "hang") return;
    if (routed) return send(res, routed.status, routed.body, routed.headers);
    if (req.method === "DELETE" && path.startsWith(`${sessionsPath}/`)) {
      if (typeof token === "string") tokens.delete(token);
      return send(res, 204);
    }
    if (req.method === "GET" && path.startsWith("/redfish/v1/TaskService/Tasks/upd")) {
      taskPolls++;
      const done = taskPolls >= (opts.taskPolls ?? 2);
      return send(res, done ? 200 : 202, {
        "@odata.id": path,
        Id: "upd",
        TaskState: done ? (opts.taskEnds ?? "Completed") : "Running",
        TaskStatus: done && opts.taskEnds === "Exception" ? "Critical" : "OK",
        PercentComplete: done ? 100 : 50,
        Messages: !done
          ? []
          : opts.taskEnds === "Exception"
            ? [{ Message: "Image %1 failed signature verification.", MessageArgs: ["bmc.bin"] }]
            : [{ Message: "The update of %1 completed.", MessageArgs: ["BMC"] }],
      });
    }
    if (req.method === "GET") {
      const j = load(path);
      return j ? send(res, 200, j, { etag: etagOf(j) }) : send(res, 404, redfishError(`Resource ${path} not found.`));
    }
    if (req.method === "PATCH") {
      const j = load(path);
      if (!j) return send(res, 404, redfishError(`Resource ${path} not found.`));
      const ifMatch = req.headers["if-match"];
      if (stale && ifMatch) {
        stale = false;
        j.AssetTag = `changed-${Date.now()}`;
        return send(res, 412, redfishError("The ETag supplied did not match.", "Precondition failed."));
      }
      if (ifMatch && ifMatch !== etagOf(j)) return send(res, 412, redfishError("The ETag supplied did not match."));
      const patch = JSON.parse(body || "{}");
      if (patch.Boot) j.Boot = { ...(j.Boot as object), ...patch.Boot };
      if (patch.Attributes) j.Attributes = { ...(j.Attributes as object), ...patch.Attributes };
      return send(res, 200, j, { etag: etagOf(j) });
    }
    if (req.method === "POST" && path.endsWith("/ComputerSystem.Reset")) {
      const sys = load(path.split("/").slice(0, -2).join("/"));
      const { ResetType } = JSON.parse(body || "{}");
      if (sys) sys.PowerState = /Off|Shutdown/.test(ResetType) ? "Off" : "On";
      return send(res, 204);
    }
    if (req.method === "POST" && path.endsWith("/Outlet.PowerControl")) {
      const outlet = load(path.split("/").slice(0, -1).join("/"));
      const { PowerState } = JSON.parse(body || "{}");
      if (outlet) outlet.PowerState = PowerState === "Off" ? "Off" : "On";
      return send(res, 204);
    }
    if (req.method === "POST" && (path.includes("SimpleUpdate") || path.endsWith("/multipart-push"))) {
      return send(res, 202, undefined, { location: "/redfish/v1/TaskService/Tasks/upd1" });
    }
    return send(res, 405, redfishError(`${req.method} ${path} is not supported by the mockup server.`));
  };

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => handle(req, res, Buffer.concat(chunks).toString("utf8")));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    tokens,
    override(p, patch) {
      const j = load(p);
      if (!j) throw new Error(`no resource ${p} in ${dir}`);
      store.set(p.replace(/\/+$/, ""), patch(j));
    },
    put(p, json) {
      store.set(p.replace(/\/+$/, ""), json);
    },
    route(method, p, route) {
      routes.set(`${method} ${p.replace(/\/+$/, "")}`, route);
    },
    expireSessions() {
      tokens.clear();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
