/**
 * createBcmApi: the lab's BCM head node — cmdaemon's JSON-RPC at POST /json, with login by
 * `{"service":"login","username","password"}` setting the `cm-login-token` cookie — as a node:http handler.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { PowerDriver } from "../maas/power.js";
import { type ListeningServer, listenOn, type ServerTls } from "../net.js";
import { readText, sendJson } from "../scheduler/http-io.js";
import { type BurnRunner, dispatch, type RpcDeps, RpcError } from "./rpc.js";
import { bmcIp } from "./status.js";
import { BcmStore, type DeviceEntity } from "./store.js";

/** Options of createBcmApi. */
export interface BcmApiOptions {
  /** Accounts allowed to log in (user → password). */
  readonly users: Readonly<Record<string, string>>;
  /** Time source. @default Date.now */
  readonly now?: () => number;
  /** Redfish power to a BMC (MAAS's lab driver speaks the same protocol). */
  readonly power: PowerDriver;
  /** The Redfish URL of the BMC at this IP (the lab's BMCs share one port). @default https://<ip> */
  readonly bmcUrl?: (ip: string) => string;
  /** When the host behind the BMC at this IP finished powering on; undefined when it is not running. */
  readonly hostUpSince: (ip: string) => number | undefined;
  /** How an install ends, asked once per boot (the lab wires world faults here). @default "ok" */
  readonly installOutcome?: (d: DeviceEntity) => "ok" | "fail" | "hang";
  /** Durations. @default install 200 ms, burn 200 ms */
  readonly delays?: { readonly installMs?: number; readonly burnMs?: number };
  /** Lifetime of a login token. @default 30 minutes */
  readonly sessionTtlMs?: number;
  /** Told when a device's status changes as cmdaemon reports it (REMOVED and REDEFINED included). */
  readonly onStatus?: (d: DeviceEntity, from: string | undefined, to: string) => void;
  /** Asked before each request: a status to answer instead (the lab wires its http-status faults here). */
  readonly gate?: (service: string, call: string) => { readonly status?: number } | undefined;
}

/** One line of the request log. */
export interface BcmRequestLogEntry {
  readonly service: string;
  readonly call: string;
  readonly status: number;
  /** Wall-clock time (ms) the request arrived. */
  readonly at: number;
}

/** The running lab BCM. */
export interface BcmApi {
  readonly handler: (req: IncomingMessage, res: ServerResponse) => void;
  listen(host: string, port: number, tls?: ServerTls): Promise<ListeningServer>;
  readonly store: BcmStore;
  readonly requests: readonly BcmRequestLogEntry[];
  /** Makes the next install of the device (uuid or hostname) fail (INSTALLER_FAILED) or never finish. */
  failNextInstall(device: string, how: "fail" | "hang"): void;
  /** Sets how burn (acceptance) runs are measured. */
  setBurnRunner(r: BurnRunner): void;
  /** Registers a listener of device status changes (as reads compute them). */
  onStatus(l: (d: DeviceEntity, from: string | undefined, to: string) => void): void;
  /** Forgets every login token (as a cmdaemon restart or an expiry does). */
  expireSessions(): void;
  /** Adds a software image, as cm-create-image or a clone would. */
  addSoftwareImage(name: string): string;
}

const COOKIE = "cm-login-token";

/** Creates the lab cmdaemon. */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route table, one entry per endpoint
export function createBcmApi(opts: BcmApiOptions): BcmApi {
  const now = opts.now ?? Date.now;
  const store = new BcmStore();
  const sessions = new Map<string, number>();
  const requests: BcmRequestLogEntry[] = [];
  const pendingInstall = new Map<string, "fail" | "hang">();
  let burnRunner: BurnRunner | undefined;
  const listeners: ((d: DeviceEntity, from: string | undefined, to: string) => void)[] = [];
  if (opts.onStatus) listeners.push(opts.onStatus);
  const ttl = opts.sessionTtlMs ?? 30 * 60_000;
  const bmcUrl = opts.bmcUrl ?? ((ip: string) => `https://${ip}`);

  const deps: RpcDeps = {
    store,
    now,
    hostUpSince: opts.hostUpSince,
    installMs: () => opts.delays?.installMs ?? 200,
    burnMs: () => opts.delays?.burnMs ?? 200,
    burn: () => burnRunner,
    observe(d, from, to) {
      for (const l of listeners) l(d, from, to);
    },
    installOutcome(d) {
      const p = pendingInstall.get(d.uuid);
      if (p) {
        pendingInstall.delete(d.uuid);
        return p;
      }
      return opts.installOutcome?.(d) ?? "ok";
    },
    power: {
      async run(d, op) {
        const params = {
          power_address: bmcUrl(bmcIp(d)),
          power_user: d.bmcSettings.userName,
          power_pass: d.bmcSettings.password,
        };
        if (op === "ON") await opts.power.powerOn(params);
        if (op === "OFF") await opts.power.powerOff(params);
        if (op === "RESET") {
          await opts.power.powerOff(params);
          await opts.power.powerOn(params);
        }
        const s = await opts.power.queryPowerState(params);
        if (s === "error") throw new Error("the BMC did not report a power state");
        return s === "on" ? "ON" : "OFF";
      },
    },
  };

  function token(req: IncomingMessage): string | undefined {
    for (const part of (req.headers.cookie ?? "").split(";")) {
      const [k, ...v] = part.trim().split("=");
      if (k === COOKIE) return v.join("=");
    }
    return undefined;
  }

  function loggedIn(req: IncomingMessage): boolean {
    const t = token(req);
    const exp = t ? sessions.get(t) : undefined;
    if (exp === undefined) return false;
    if (now() > exp) {
      sessions.delete(t as string);
      return false;
    }
    return true;
  }

  async function serve(req: IncomingMessage, res: ServerResponse, log: (s: string, c: string, st: number) => void) {
    if (req.method !== "POST" || (req.url ?? "").split("?")[0] !== "/json") {
      log("", "", 404);
      return sendJson(res, 404, { error: "Not found" });
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(await readText(req));
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
      body = parsed as Record<string, unknown>;
    } catch {
      log("", "", 400);
      return sendJson(res, 400, { error: "Invalid JSON request" });
    }
    const service = String(body.service ?? "");
    const call = String(body.call ?? "");
    const gated = opts.gate?.(service, call);
    if (gated?.status) {
      log(service, call, gated.status);
      return sendJson(res, gated.status, { error: "Service temporarily unavailable" });
    }
    if (service === "login") {
      const user = String(body.username ?? "");
      if (!Object.hasOwn(opts.users, user) || opts.users[user] !== String(body.password ?? "")) {
        log(service, call, 401);
        return sendJson(res, 401, { error: "Invalid username or password" });
      }
      const t = randomBytes(24).toString("hex");
      sessions.set(t, now() + ttl);
      log(service, call, 200);
      return sendJson(res, 200, true, { "set-cookie": `${COOKIE}=${t}; Path=/; HttpOnly` });
    }
    if (!loggedIn(req)) {
      log(service, call, 401);
      return sendJson(res, 401, { error: "Not logged in" });
    }
    if (service === "logout") {
      sessions.delete(token(req) as string);
      log(service, call, 200);
      return sendJson(res, 200, true);
    }
    const args = Array.isArray(body.args) ? body.args : body.arg !== undefined ? [body.arg] : [];
    try {
      const out = await dispatch(deps, service, call, args);
      log(service, call, 200);
      return sendJson(res, 200, out);
    } catch (e) {
      const status = e instanceof RpcError ? e.httpStatus : 500;
      log(service, call, status);
      return sendJson(res, status, { error: (e as Error).message, code: status === 200 ? 1 : status });
    }
  }

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const at = Date.now();
    const log = (service: string, call: string, status: number) => requests.push({ service, call, status, at });
    serve(req, res, log).catch((e) => {
      if (!res.headersSent) sendJson(res, 500, { error: String((e as Error).message) });
    });
  };

  return {
    handler,
    listen: (host, port, tls) => listenOn(handler, host, port, { tls }),
    store,
    requests,
    failNextInstall(device, how) {
      const d = store.device(device);
      if (d) pendingInstall.set(d.uuid, how);
    },
    setBurnRunner(r) {
      burnRunner = r;
    },
    expireSessions: () => sessions.clear(),
    onStatus: (l) => {
      listeners.push(l);
    },
    addSoftwareImage: (name) => store.addImage(name).uuid,
  };
}
