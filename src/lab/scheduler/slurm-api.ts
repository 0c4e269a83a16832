/**
 * createSlurmApi: the lab's slurmrestd. As 24.05 (the default) it serves data_parser v0.0.39–v0.0.41 with node reads,
 * updates and deletes; as 22.05 it serves openapi/v0.0.36–v0.0.38, which only read nodes. GET /openapi/v3 lists the
 * paths, as the real one does. Authentication is rest_auth/jwt: X-SLURM-USER-NAME + X-SLURM-USER-TOKEN on every
 * request. Nodes appear when "slurmd registers" them (a hook).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type ListeningServer,
  listenOn,
  readText,
  type SchedulerClock,
  type SchedulerRequestLogEntry,
  type ServerTls,
  sendJson,
  sendText,
  wallClock,
} from "./http-io.js";
import {
  type LabSlurmNode,
  type NodeRegistration,
  SLURM_ERRNO,
  SLURM_STRERROR,
  SlurmCtldError,
  SlurmNodeTable,
  type SlurmTransition,
  type UpdateNodeMsg,
} from "./slurm-nodes.js";
import {
  meta,
  meta0038,
  noVal,
  openapiDocument,
  renderNode,
  renderNode0038,
  SERVED_VERSIONS,
  type SlurmRestError,
  type SlurmRestRelease,
} from "./slurm-render.js";

/** Options of createSlurmApi. */
export interface SlurmApiOptions {
  /** JWT accepted per user name (what `scontrol token` would have issued). */
  readonly jwtTokens: Readonly<Record<string, string>>;
  /** Users allowed to update nodes (Slurm operators/admins). @default every user in jwtTokens */
  readonly operators?: readonly string[];
  /** Time source for timestamps. @default the wall clock */
  readonly clock?: SchedulerClock;
  /** The slurmrestd release served (its API versions and shapes, slurm-render.ts). @default "24.05" */
  readonly release?: SlurmRestRelease;
}

/** Test hooks: what slurmd and the job scheduler would do. */
export interface SlurmLabHooks {
  /** slurmd on the node booted and registered with slurmctld. */
  registerNode(name: string, reg?: NodeRegistration): void;
  /** slurmd stopped answering (host off or reimaged): after SlurmdTimeout slurmctld sets the node DOWN "Not responding". */
  nodeLost(name: string, reason?: string): void;
  /**
   * slurmd registered with fewer GRES than slurm.conf configures: slurmctld drains the node itself (reason set by
   * slurm, flag INVALID_REG) with `reason`, e.g. "gres/gpu count reported lower than configured (7 < 8)".
   */
  invalidRegistration(name: string, reason: string): void;
  /** A job starts on the node; returns its job id. */
  startJob(node: string): number;
  /** The job ends (its node leaves ALLOCATED; a DRAIN-flagged node becomes drained). */
  endJob(jobId: number): void;
  /** The lab's record of a node. */
  node(name: string): Readonly<LabSlurmNode> | undefined;
  /** Makes the next `count` authenticated requests fail as when slurmrestd cannot reach slurmctld (500, errors[1007]). */
  failNext(count: number): void;
  /** slurmctld's log of node transitions (state or comment changed), oldest first. */
  transitions(): readonly SlurmTransition[];
}

/** The running lab slurmrestd. */
export interface SlurmApi {
  /** node:http request listener. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Serves on host:port; `url` is the slurmrestd base (http://host:port). */
  listen(host: string, port: number, tls?: ServerTls): Promise<ListeningServer>;
  /** Every request handled so far. */
  readonly requests: readonly SchedulerRequestLogEntry[];
  readonly hooks: SlurmLabHooks;
  /** Nothing is scheduled; kept for the lab's uniform shape. */
  stop(): void;
}

const ROUTE = /^\/slurm\/(v\d+\.\d+\.\d+)\/(?:(nodes)|node\/([^/]+))$/;

class RestFailure extends Error {
  constructor(
    readonly status: number,
    readonly errors: SlurmRestError[],
    /** A plain-text body instead of the JSON envelope (slurmrestd's answers before routing reaches a plugin). */
    readonly text?: string,
  ) {
    super(errors[0]?.error ?? String(status));
  }
}

/** Creates a lab slurmrestd with an empty node table. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table, one entry per endpoint
export function createSlurmApi(opts: SlurmApiOptions): SlurmApi {
  const clock = opts.clock ?? wallClock;
  const release = opts.release ?? "24.05";
  const table = new SlurmNodeTable(clock);
  const operators = new Set(opts.operators ?? Object.keys(opts.jwtTokens));
  const requests: SchedulerRequestLogEntry[] = [];
  let failures = 0;

  function authenticate(req: IncomingMessage): string | undefined {
    const user = header(req, "x-slurm-user-name");
    const token = header(req, "x-slurm-user-token");
    if (!user || !token) return undefined;
    return opts.jwtTokens[user] === token ? user : undefined;
  }

  async function serve(req: IncomingMessage, res: ServerResponse, source: string, at: Route): Promise<number> {
    const url = new URL(req.url ?? "/", "http://lab.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    const user = authenticate(req);
    const path = url.pathname.replace(/\/+$/, "");
    // rest_auth/jwt rejects a request without both headers before any routing, with a plain-text body. A token that
    // is present but wrong goes on to slurmctld: 24.05 answers 401; 22.05 passes slurmctld's refusal on as HTTP 500
    // with errno -1 "Unspecified error" (seen on Debian's 22.05.8).
    const hasHeaders = Boolean(header(req, "x-slurm-user-name") && header(req, "x-slurm-user-token"));
    if (!user && (release !== "22.05" || !hasHeaders)) {
      sendText(res, 401, "Authentication failure");
      return 401;
    }
    if (["/openapi/v3", "/openapi", "/openapi.json"].includes(path) && method === "GET") {
      sendJson(res, 200, openapiDocument(release));
      return 200;
    }
    const route = ROUTE.exec(path);
    if (!route || !SERVED_VERSIONS[release].includes(route[1])) {
      if (release === "22.05") {
        throw new RestFailure(404, [], "Unable find requested URL. Please view /openapi/v3 for API reference.");
      }
      throw new RestFailure(404, [
        restError(9007, "Unknown URL or method", `Unable to find ${method} ${url.pathname}`, "rest_api"),
      ]);
    }
    at.version = route[1];
    if (!user) throw new RestFailure(500, [restError(-1, "Unspecified error", "", "")]);
    if (release === "22.05" && method !== "GET") {
      throw new RestFailure(
        405,
        [],
        "Requested REST method is not defined at URL. Please view /openapi/v3 for API reference.",
      );
    }
    const m = { source, user };
    if (failures > 0) {
      failures--;
      throw new RestFailure(500, [
        restError(
          1007,
          "Unable to contact slurm controller (connect failure)",
          "Failure to query nodes",
          "_dump_nodes",
        ),
      ]);
    }
    const envelope = (extra: Record<string, unknown>) =>
      release === "22.05"
        ? { meta: meta0038(at.version ?? ""), errors: [], ...extra }
        : { ...extra, meta: meta(m, at.version), errors: [], warnings: [] };
    const render = release === "22.05" ? renderNode0038 : renderNode;
    if (route[2] && method === "GET") {
      const nodes = [...table.nodes.values()].map(render);
      sendJson(res, 200, envelope({ nodes, last_update: noVal(table.lastUpdate) }));
      return 200;
    }
    const name = decodeURIComponent(route[3] ?? "");
    if (route[3] && method === "GET") {
      sendJson(res, 200, envelope({ nodes: [render(table.get(name))], last_update: noVal(table.lastUpdate) }));
      return 200;
    }
    if (route[3] && method === "POST") {
      if (!operators.has(user)) {
        throw new SlurmCtldError(SLURM_ERRNO.ESLURM_ACCESS_DENIED, `Failure to update node ${name}`);
      }
      const msg = parseUpdate(await readText(req));
      table.update(name, msg, user);
      sendJson(res, 200, envelope({}));
      return 200;
    }
    if (route[3] && method === "DELETE") {
      if (!operators.has(user)) {
        throw new SlurmCtldError(SLURM_ERRNO.ESLURM_ACCESS_DENIED, `Failure to delete node ${name}`);
      }
      table.remove(name);
      sendJson(res, 200, envelope({}));
      return 200;
    }
    throw new RestFailure(404, [
      restError(9007, "Unknown URL or method", `Unable to find ${method} ${url.pathname}`, "rest_api"),
    ]);
  }

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const method = (req.method ?? "GET").toUpperCase();
    const path = new URL(req.url ?? "/", "http://lab.invalid").pathname;
    const at = Date.now();
    const source = `[${req.socket.remoteAddress ?? "?"}]:${req.socket.remotePort ?? 0}`;
    const route: Route = {};
    serve(req, res, source, route).then(
      (status) => requests.push({ method, path, status, at }),
      (e: unknown) => {
        const f = toFailure(e);
        requests.push({ method, path, status: f.status, at });
        if (res.headersSent) return void res.end();
        if (f.text !== undefined) return void sendText(res, f.status, f.text);
        if (release === "22.05") {
          // Before data_parser: `errno` instead of error_number, no description or source; GET answers keep nodes[].
          const errors = f.errors.map((x) => ({ error: x.error, errno: x.error_number }));
          const nodes = method === "GET" ? { nodes: [] } : {};
          return void sendJson(res, f.status, { meta: meta0038(route.version ?? ""), errors, ...nodes });
        }
        sendJson(res, f.status, {
          meta: meta({ source, user: "" }, route.version),
          errors: f.errors,
          warnings: [],
        });
      },
    );
  };

  return {
    handler,
    requests,
    hooks: {
      registerNode: (name, reg = {}) => void table.register(name, reg),
      nodeLost: (name, reason) => table.lost(name, reason),
      invalidRegistration: (name, reason) => table.invalidRegistration(name, reason),
      startJob: (node) => table.startJob(node),
      endJob: (id) => table.endJob(id),
      node: (name) => table.nodes.get(name),
      transitions: () => table.transitions,
      failNext: (count) => {
        failures = count;
      },
    },
    stop() {},
    listen: (host, port, tls) => listenOn(handler, host, port, { tls }),
  };
}

/** The version a request named, once routing found it (for the error envelope). */
interface Route {
  version?: string;
}

function parseUpdate(text: string): UpdateNodeMsg {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (e) {
    throw new SlurmCtldError(
      SLURM_ERRNO.ESLURM_REST_FAIL_PARSING,
      `Unable to parse JSON: ${(e as Error).message}`,
      400,
    );
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new SlurmCtldError(SLURM_ERRNO.ESLURM_REST_FAIL_PARSING, "Expected a JSON object", 400);
  }
  const msg = body as Record<string, unknown>;
  if (msg.state !== undefined && !Array.isArray(msg.state)) {
    throw new SlurmCtldError(SLURM_ERRNO.ESLURM_REST_FAIL_PARSING, "state must be an array of node states", 400);
  }
  return msg as UpdateNodeMsg;
}

function toFailure(e: unknown): RestFailure {
  if (e instanceof RestFailure) return e;
  if (e instanceof SlurmCtldError) {
    return new RestFailure(e.httpStatus, [
      // `source` is the slurmrestd function that failed, as real responses show it.
      restError(
        e.errorNumber,
        SLURM_STRERROR[e.errorNumber] ?? e.message,
        e.description,
        e.description.startsWith("Failure to update")
          ? "_update_node"
          : e.description.startsWith("Failure to delete")
            ? "slurm_delete_node()"
            : "_dump_nodes",
      ),
    ]);
  }
  return new RestFailure(500, [restError(1000, "Unspecified error", String((e as Error)?.message ?? e), "slurmrestd")]);
}

function restError(errorNumber: number, error: string, description: string, source: string): SlurmRestError {
  return { description, error_number: errorNumber, error, source };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}
