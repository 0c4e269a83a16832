/**
 * createSlurmApi: the lab's slurmrestd (openapi/slurmctld, data_parser v0.0.41). Authentication is rest_auth/jwt:
 * X-SLURM-USER-NAME + X-SLURM-USER-TOKEN on every request. Nodes appear when "slurmd registers" them (a hook).
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
import { meta, noVal, renderNode, SLURM_API_VERSION, type SlurmRestError } from "./slurm-render.js";

/** Options of createSlurmApi. */
export interface SlurmApiOptions {
  /** JWT accepted per user name (what `scontrol token` would have issued). */
  readonly jwtTokens: Readonly<Record<string, string>>;
  /** Users allowed to update nodes (Slurm operators/admins). @default every user in jwtTokens */
  readonly operators?: readonly string[];
  /** Time source for timestamps. @default the wall clock */
  readonly clock?: SchedulerClock;
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

const PREFIX = `/slurm/${SLURM_API_VERSION}`;

class RestFailure extends Error {
  constructor(
    readonly status: number,
    readonly errors: SlurmRestError[],
  ) {
    super(errors[0]?.error ?? String(status));
  }
}

/** Creates a lab slurmrestd with an empty node table. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table, one entry per endpoint
export function createSlurmApi(opts: SlurmApiOptions): SlurmApi {
  const clock = opts.clock ?? wallClock;
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

  async function serve(req: IncomingMessage, res: ServerResponse, source: string): Promise<number> {
    const url = new URL(req.url ?? "/", "http://lab.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    const user = authenticate(req);
    // rest_auth/jwt rejects before any routing, with a plain-text body.
    if (!user) {
      sendText(res, 401, "Authentication failure");
      return 401;
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
    const path = url.pathname.replace(/\/+$/, "");
    if (path === `${PREFIX}/nodes` && method === "GET") {
      const nodes = [...table.nodes.values()].map(renderNode);
      sendJson(res, 200, { nodes, last_update: noVal(table.lastUpdate), meta: meta(m), errors: [], warnings: [] });
      return 200;
    }
    const one = new RegExp(`^${PREFIX}/node/([^/]+)$`).exec(path);
    if (one && method === "GET") {
      const node = table.get(decodeURIComponent(one[1]));
      sendJson(res, 200, {
        nodes: [renderNode(node)],
        last_update: noVal(table.lastUpdate),
        meta: meta(m),
        errors: [],
        warnings: [],
      });
      return 200;
    }
    if (one && method === "POST") {
      const name = decodeURIComponent(one[1]);
      if (!operators.has(user)) {
        throw new SlurmCtldError(SLURM_ERRNO.ESLURM_ACCESS_DENIED, `Failure to update node ${name}`);
      }
      const msg = parseUpdate(await readText(req));
      table.update(name, msg, user);
      sendJson(res, 200, { meta: meta(m), errors: [], warnings: [] });
      return 200;
    }
    if (one && method === "DELETE") {
      const name = decodeURIComponent(one[1]);
      if (!operators.has(user)) {
        throw new SlurmCtldError(SLURM_ERRNO.ESLURM_ACCESS_DENIED, `Failure to delete node ${name}`);
      }
      table.remove(name);
      sendJson(res, 200, { meta: meta(m), errors: [], warnings: [] });
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
    serve(req, res, source).then(
      (status) => requests.push({ method, path, status, at }),
      (e: unknown) => {
        const f = toFailure(e);
        requests.push({ method, path, status: f.status, at });
        if (res.headersSent) return void res.end();
        sendJson(res, f.status, { meta: meta({ source, user: "" }), errors: f.errors, warnings: [] });
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
