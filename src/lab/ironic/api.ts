/** createIronicApi: the lab's OpenStack Ironic API (/v1, noauth) as a node:http handler with fault and outcome hooks. */
import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { ServiceGate } from "../maas/api.js";
import { type LabClock, systemClock } from "../maas/clock.js";
import { listenOn } from "../net.js";
import { type BmcDriver, redfishBmc } from "./bmc.js";
import { Conductor } from "./conductor.js";
import type {
  ConductorDeployDefaults,
  FaultOp,
  IronicDelays,
  ProvisionListener,
  StepRunner,
} from "./conductor-types.js";
import type { Ctx } from "./context.js";
import { fault, IronicHttpError, notFound, pyJson, webobError } from "./errors.js";
import { type ImageFetcher, loopbackFetcher } from "./images.js";
import { type PowerSyncOptions, startPowerSync } from "./power-sync.js";
import { ironicRoutes } from "./routes.js";
import type { StepOutcome } from "./steps.js";
import { IronicStore, type NodeRecord } from "./store.js";
import {
  formatVersion,
  MAX_HEADER,
  MIN_HEADER,
  negotiate,
  parseVersion,
  rootDocument,
  VERSION_HEADER,
  v1Document,
} from "./versions.js";

/** Options of createIronicApi. */
export interface IronicApiOptions {
  /** Newest microversion served; "1.87" or later enables the service verb. @default "1.82" (Debian's Ironic 21.4.4) */
  readonly maxVersion?: string;
  /** Durations of conductor work. @default 200 ms each (verify and allocation 0, power 50) */
  readonly delays?: Partial<IronicDelays>;
  /** Time source and timers. @default systemClock */
  readonly clock?: LabClock;
  /** How redfish nodes' BMCs are reached. @default redfishBmc() with Node's trust store */
  readonly bmc?: BmcDriver;
  /** ironic.conf `[conductor]deploy_kernel` / `deploy_ramdisk` for nodes whose driver_info names neither. @default none */
  readonly conductor?: ConductorDeployDefaults;
  /** The periodic power-state sync and power-failure recovery (power-sync.ts). @default off */
  readonly powerSync?: PowerSyncOptions;
  /**
   * How image_source is reached (HEAD at deploy validation, GET + checksum when the image is written). @default
   * loopback http(s) only; other hosts are not fetched
   */
  readonly images?: ImageFetcher;
  /** Asked before each request: a status to answer instead (a 503/429 storm; the lab wires its faults here). */
  readonly gate?: ServiceGate;
}

/** One line of the request log. */
export interface IronicRequestLogEntry {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  /** Microversion the request was served at (null when negotiation failed or not under /v1). */
  readonly version: string | null;
  /** Wall-clock time (ms since the epoch) the request arrived: the request rate the API sees. */
  readonly at: number;
  /** PUT …/states/provision, …/states/power: the target asked (e.g. "rebuild", "rebooting", "service"). */
  readonly target?: string;
  /** PUT …/maintenance: the reason given. */
  readonly reason?: string;
}

/** The running lab Ironic. */
export interface IronicApi {
  /** node:http request listener. */
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  /** Serves on host:port (0 picks one); resolves with the base URL (http://host:port, no /v1) and close. */
  listen(host: string, port: number): Promise<{ url: string; port: number; close(): Promise<void> }>;
  /** Every request handled so far, in order. */
  readonly requests: readonly IronicRequestLogEntry[];
  /** Makes the next manage/inspect/clean/deploy/delete/service/power of the node (uuid or name) fail. */
  failNext(node: string, op: FaultOp): void;
  /** Sets what a clean/service step (e.g. "burnin_gpu") does on its next runs on the node. */
  setStepOutcome(node: string, step: string, outcome: StepOutcome): void;
  /** Decides what steps do when no setStepOutcome applies (e.g. from the simulated hardware). */
  setStepRunner(fn: StepRunner | undefined): void;
  /** Adds a step beyond the driver's catalogue, as an in-band hardware manager would (e.g. deploy.rackform_acceptance). */
  addStep(iface: string, step: string): void;
  /** Calls `fn` after every provision state change. */
  onProvisionState(fn: ProvisionListener): void;
  /** The lab's record of a node (uuid or name). */
  node(ident: string): Readonly<NodeRecord> | undefined;
  /** Cancels pending timers (call before dropping the lab). */
  stop(): void;
}

/** What the request log keeps of a PUT's body: a state change's target, a maintenance reason. */
function bodyFields(method: string, raw: string): { target?: string; reason?: string } {
  if (method !== "PUT" || raw === "") return {};
  try {
    const b = JSON.parse(raw) as Record<string, unknown>;
    return {
      ...(typeof b.target === "string" ? { target: b.target } : {}),
      ...(typeof b.reason === "string" ? { reason: b.reason } : {}),
    };
  } catch {
    return {};
  }
}

/** Creates an Ironic API with its own in-memory conductor. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table, one entry per endpoint
export function createIronicApi(opts: IronicApiOptions = {}): IronicApi {
  const clock = opts.clock ?? systemClock;
  const max = parseVersion(opts.maxVersion ?? "1.82");
  if (!max) throw new Error(`maxVersion must look like "1.82", got ${opts.maxVersion}`);
  const range = { min: { major: 1, minor: 1 }, max };
  const delays: IronicDelays = {
    verifyMs: 0,
    inspectMs: 200,
    cleanMs: 200,
    deployMs: 200,
    deleteMs: 0,
    powerMs: 50,
    allocationMs: 0,
    stepMs: 200,
    ...opts.delays,
  };
  const store = new IronicStore(() => clock.now());
  const bmc = opts.bmc ?? redfishBmc();
  const conductor = new Conductor(store, clock, delays, bmc, opts.images ?? loopbackFetcher);
  conductor.deployDefaults = { ...opts.conductor };
  const stopSync = opts.powerSync ? startPowerSync(store, clock, bmc, opts.powerSync) : () => undefined;
  const routes = ironicRoutes(clock, delays);
  const requests: IronicRequestLogEntry[] = [];

  function send(out: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
    const text = body === undefined ? "" : pyJson(body);
    out.writeHead(status, {
      ...headers,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      "Content-Length": String(Buffer.byteLength(text)),
      "Openstack-Request-Id": `req-${randomUUID()}`,
    });
    out.end(text);
  }

  async function serve(
    req: IncomingMessage,
    rawBody: string,
  ): Promise<{ status: number; body: unknown; headers: Record<string, string>; version: string | null }> {
    const url = new URL(req.url ?? "/", "http://lab.invalid");
    const method = (req.method ?? "GET").toUpperCase();
    const path = url.pathname.replace(/\/+$/, "") || "/";
    const base = `http://${req.headers.host ?? "localhost"}`;
    const forced = opts.gate?.(method, url.pathname);
    if (forced) {
      const e = fault(forced.status ?? 503, "Service Unavailable (lab fault)", "Server");
      const retry: Record<string, string> =
        forced.retryAfterS !== undefined ? { "Retry-After": String(forced.retryAfterS) } : {};
      throw new IronicHttpError(e.status, e.body, retry, e.message);
    }
    if (path === "/") return { status: 200, body: rootDocument(base, range), headers: {}, version: null };
    const headerValue = req.headers[VERSION_HEADER.toLowerCase()];
    const version = negotiate(Array.isArray(headerValue) ? headerValue[0] : headerValue, range);
    const headers: Record<string, string> = {
      [MIN_HEADER]: formatVersion(range.min),
      [MAX_HEADER]: formatVersion(range.max),
      [VERSION_HEADER]: formatVersion(version),
    };
    if (path === "/v1") return { status: 200, body: v1Document(base, range), headers, version: formatVersion(version) };
    try {
      for (const [m, pattern, handler] of routes) {
        const match = pattern.exec(path);
        if (!match || m !== method) continue;
        const params: Record<string, string> = match[1] ? { id: decodeURIComponent(match[1]) } : {};
        const ctx: Ctx = { method, params, query: url.searchParams, base, version, rawBody, store, conductor };
        const reply = await handler(ctx);
        return {
          status: reply.status,
          body: reply.body,
          headers: { ...headers, ...reply.headers },
          version: formatVersion(version),
        };
      }
      const known = routes.some(([, pattern]) => pattern.test(path));
      throw known ? webobError(405, "Method Not Allowed") : webobError(404, "Not Found");
    } catch (e) {
      if (e instanceof IronicHttpError)
        throw new IronicHttpError(e.status, e.body, { ...headers, ...e.headers }, e.message);
      throw e;
    }
  }

  const handler = (req: IncomingMessage, out: ServerResponse): void => {
    const method = (req.method ?? "GET").toUpperCase();
    const path = new URL(req.url ?? "/", "http://lab.invalid").pathname;
    const at = Date.now();
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", async () => {
      try {
        const raw = Buffer.concat(chunks).toString("utf8");
        const r = await serve(req, raw);
        requests.push({ method, path, status: r.status, version: r.version, at, ...bodyFields(method, raw) });
        send(out, r.status, r.body, r.headers);
      } catch (e) {
        const err = e instanceof IronicHttpError ? e : fault(500, (e as Error).message, "Server");
        requests.push({ method, path, status: err.status, version: err.headers[VERSION_HEADER] ?? null, at });
        send(out, err.status, err.body, err.headers);
      }
    });
  };

  const uuidOf = (ident: string) => {
    const n = store.findNode(ident);
    if (!n) throw notFound("Node", ident);
    return n.uuid;
  };

  return {
    handler,
    requests,
    failNext: (node, op) => conductor.failNext(uuidOf(node), op),
    setStepOutcome: (node, step, outcome) => conductor.setStepOutcome(uuidOf(node), step, outcome),
    node: (ident) => store.findNode(ident),
    setStepRunner: (fn) => {
      conductor.stepRunner = fn;
    },
    addStep: (iface, step) => {
      conductor.extraSteps.push({ interface: iface, step });
    },
    onProvisionState: (fn) => conductor.onProvisionState(fn),
    stop: () => {
      stopSync();
      conductor.stop();
    },
    listen: (host, port) =>
      listenOn(handler, host, port, {
        onClose: () => {
          stopSync();
          conductor.stop();
        },
      }),
  };
}
