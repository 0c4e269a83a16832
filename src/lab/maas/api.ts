/** createMaasApi: the lab's MAAS region (API 2.0 at /MAAS/api/2.0/) as a node:http handler with fault and outcome hooks. */
import type { IncomingMessage, ServerResponse } from "node:http";
import { listenOn } from "../net.js";
import { type ApiCredential, authenticate, NonceStore, parseApiKeys, unauthorizedChallenge } from "./auth.js";
import { type LabClock, systemClock } from "./clock.js";
import { maasHandlers } from "./handlers.js";
import { MaasHttpError, Params, parseBody, parseQuery, readBody, sendJson, sendText } from "./http-io.js";
import { Lifecycle } from "./lifecycle.js";
import type {
  FaultOp,
  HardwareProbe,
  MaasDelays,
  ScriptOutcome,
  ScriptRunner,
  StatusListener,
} from "./lifecycle-types.js";
import { type PowerDriver, redfishPowerDriver } from "./power.js";
import type { RegionDeps } from "./region-deps.js";
import { API } from "./render.js";
import { Router } from "./router.js";
import { seedRegion } from "./seed.js";
import { MaasStore, type MachineRecord, type ScriptRecord } from "./store.js";

/** A testing script the region ships with (added by whoever composes the lab, e.g. acceptance). */
export type BuiltinScript = Pick<ScriptRecord, "name" | "title" | "description" | "hardwareType" | "tags"> &
  Partial<Pick<ScriptRecord, "timeoutSeconds" | "destructive" | "parameters">> & { readonly content: string };

/** Options of createMaasApi. */
export interface MaasApiOptions {
  /** API keys accepted, each "consumer_key:token_key:token_secret" (all belong to the admin user). */
  readonly apiKeys: readonly string[];
  /** Durations of long operations. @default 2000 ms each */
  readonly delays?: Partial<MaasDelays>;
  /** Time source and timers. @default systemClock */
  readonly clock?: LabClock;
  /** How machines are powered. @default redfishPowerDriver() with Node's default trust store */
  readonly power?: PowerDriver;
  /** Asked before each request: a status to answer instead (a 503/429 storm; the lab wires its faults here). */
  readonly gate?: ServiceGate;
}

/** A forced answer for a request (`status`, optional Retry-After seconds), or undefined to serve it. */
export type ServiceGate = (
  method: string,
  path: string,
) => { readonly status?: number; readonly retryAfterS?: number } | undefined;

/** One line of the request log. */
export interface MaasRequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly op: string | null;
  /** The query string as sent (filters such as id=…&id=…), without the leading "?". */
  readonly query: string;
  readonly status: number;
  /** Wall-clock time (ms since the epoch) the request arrived: the request rate the region sees. */
  readonly at: number;
}

/** The running lab region: an http handler plus test hooks. */
export interface MaasApi {
  /** node:http request listener. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Serves the handler on host:port (port 0 picks one); resolves with the base URL (…/MAAS/) and a close function. */
  listen(host: string, port: number): Promise<{ url: string; port: number; close(): Promise<void> }>;
  /** Every request handled so far, in order. */
  readonly requests: readonly MaasRequestLogEntry[];
  /** Makes the next commission/deploy/release/erase/test of the machine fail. */
  failNext(systemId: string, op: FaultOp): void;
  /** Sets the status and output a script reports on its next runs on the machine. */
  setScriptOutcome(systemId: string, scriptName: string, outcome: ScriptOutcome): void;
  /** What commissioning finds on a machine (cpu_count, memory, hardware_info, NICs), e.g. from the simulated hardware. */
  setHardwareProbe(fn: HardwareProbe | undefined): void;
  /** Decides outcomes of scripts without a setScriptOutcome (e.g. from the simulated hardware). */
  setScriptRunner(fn: ScriptRunner | undefined): void;
  /** Adds (or replaces) a built-in testing script. */
  addBuiltinScript(script: BuiltinScript): void;
  /** Calls `fn` after every machine status change (from, to: NodeStatus numbers). */
  onStatusChange(fn: StatusListener): void;
  /** The lab's record of a machine (includes what the API does not show, e.g. the deployed user_data). */
  machine(systemId: string): Readonly<MachineRecord> | undefined;
  /** Cancels pending timers (call before dropping the lab). */
  stop(): void;
}

/** Creates a MAAS region with its own in-memory store, seeded with Ubuntu images and built-in scripts. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table, one entry per endpoint
export function createMaasApi(opts: MaasApiOptions): MaasApi {
  const creds: ApiCredential[] = parseApiKeys(opts.apiKeys);
  const clock = opts.clock ?? systemClock;
  const delays: MaasDelays = { commissionMs: 2000, deployMs: 2000, releaseMs: 2000, eraseMs: 2000, ...opts.delays };
  const store = new MaasStore(() => clock.now());
  const lifecycle = new Lifecycle(store, clock, delays, opts.power ?? redfishPowerDriver());
  const deps: RegionDeps = { store, lifecycle, clock };
  seedRegion(store);
  const router = new Router(maasHandlers(deps));
  const requests: MaasRequestLogEntry[] = [];
  const nonces = new NonceStore();

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<{ op: string | null; status: number }> {
    const url = new URL(req.url ?? "/", "http://lab.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    const query = parseQuery(url.search);
    let params = query;
    let form: Params | undefined;
    let raw: Buffer | undefined;
    if (method === "POST" || method === "PUT") {
      raw = await readBody(req);
      const type = req.headers["content-type"] ?? "";
      // A file upload's bytes are the body itself, not a form.
      if (!type.startsWith("application/octet-stream")) {
        form = parseBody(type, raw);
        params = Params.merge(query, form);
      }
    }
    // As OperationsHandlerMixin.dispatch (maasserver/api/support.py): `request.GET.get("op") or
    // request.POST.get("op")`, so an empty op (Go clients send `?op=` on every create) is no operation.
    const op = query.get("op") || form?.get("op") || null;
    const forced = opts.gate?.(method, url.pathname);
    if (forced) {
      const retry = forced.retryAfterS !== undefined ? { "Retry-After": String(forced.retryAfterS) } : undefined;
      throw new MaasHttpError(forced.status ?? 503, "Service Unavailable (lab fault)", retry);
    }
    if (url.pathname === `${API}/describe/` || url.pathname === `${API}/describe`) {
      sendJson(res, 200, router.describe(`http://${req.headers.host ?? "localhost"}`));
      return { op, status: 200 };
    }
    const matched = router.match(url.pathname);
    if (!matched) throw new MaasHttpError(404, `Unknown API endpoint: ${url.pathname}.`);
    // A present but bad OAuth header is rejected even on anonymous actions, as piston authenticates first.
    const user = authenticate(req.headers.authorization, creds, nonces);
    const action = router.action(matched.handler, method, op ?? undefined);
    if (!action.anon && !user) throw unauthorizedChallenge();
    const reply = await action.run({ params, user, path: matched.path, raw });
    if ("text" in reply) {
      sendText(res, reply.status ?? 200, reply.text);
      return { op, status: reply.status ?? 200 };
    }
    if (!("json" in reply)) {
      res.writeHead(204);
      res.end();
      return { op, status: 204 };
    }
    const status = reply.status ?? 200;
    sendJson(res, status, reply.json);
    return { op, status };
  }

  const handler = (req: IncomingMessage, res: ServerResponse): void => {
    const path = new URL(req.url ?? "/", "http://lab.invalid").pathname;
    const method = (req.method ?? "GET").toUpperCase();
    const search = new URL(req.url ?? "/", "http://lab.invalid").searchParams;
    const opGuess = search.get("op") || null;
    const query = search.toString();
    const at = Date.now();
    serve(req, res).then(
      ({ op, status }) => requests.push({ method, path, op, query, status, at }),
      (e: unknown) => {
        const err =
          e instanceof MaasHttpError
            ? e
            : e instanceof SyntaxError
              ? new MaasHttpError(400, `Bad Request: ${e.message}`)
              : new MaasHttpError(500, `Internal server error: ${(e as Error).message}`);
        requests.push({ method, path, op: opGuess, query, status: err.status, at });
        if (res.headersSent) return void res.end();
        if (typeof err.body === "string") sendText(res, err.status, err.body, err.headers);
        else sendJson(res, err.status, err.body);
      },
    );
  };

  return {
    handler,
    requests,
    failNext: (id, op) => lifecycle.failNext(id, op),
    setScriptOutcome: (id, name, outcome) => lifecycle.setScriptOutcome(id, name, outcome),
    machine: (id) => store.machine(id),
    setHardwareProbe: (fn) => {
      lifecycle.hardwareProbe = fn;
    },
    setScriptRunner: (fn) => {
      lifecycle.scriptRunner = fn;
    },
    addBuiltinScript: (s) => {
      const prior = store.scripts.get(s.name);
      store.scripts.set(s.name, {
        id: prior?.id ?? store.nextId("script"),
        type: 2,
        timeoutSeconds: 3600,
        destructive: false,
        ...s,
        tags: [...s.tags],
        isDefault: true,
        content: Buffer.from(s.content),
      });
    },
    onStatusChange: (fn) => lifecycle.onStatusChange(fn),
    stop() {
      for (const m of store.machines.values()) {
        m.cancel?.();
        m.cancel = null;
      }
    },
    listen: (host, port) => listenOn(handler, host, port, { urlSuffix: "/MAAS/" }),
  };
}
