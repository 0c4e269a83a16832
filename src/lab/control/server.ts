/**
 * The lab control API (plain HTTP on 127.0.0.1): read the world and the request log, inject and clear faults, flip
 * outlets behind the engine's back, rotate a BMC's or PDU's password, move a BMC or PDU to a new port. Errors are `{"error":{"code","message"}}` with a RACKFORM_ERR_LAB_* code.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { measureAcceptance, paramsFrom } from "../acceptance/signals.js";
import type { RequestLog } from "../request-log.js";
import { FaultSpecError, parseFaultSpec } from "../world/faults.js";
import { COMPONENTS, type LabNode, type World } from "../world/model.js";
import { trustRoute } from "./trust.js";
import { labPage } from "./ui-page.js";

/** A control API failure with HTTP status and stable code. */
class ControlError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Summary of one node, as GET /world shows it. */
export function nodeSummary(world: World, n: LabNode) {
  const o = world.outlet(n.spec.pdu, n.spec.outlet);
  return {
    name: n.spec.name,
    rack: n.spec.rack,
    u: n.spec.u,
    vendor: n.spec.vendor,
    pdu: n.spec.pdu,
    outlet: n.spec.outlet,
    outletState: o.on ? "On" : "Off",
    bmc: world.bmcState(n),
    bmcAddress: n.address,
    systemId: n.systemId,
    serial: n.serial,
    powerState: world.powerState(n),
    boot: { ...n.boot, lastBootSource: n.lastBootSource },
    gpus: { model: n.spec.hardware.gpus?.model ?? null, count: world.visibleGpus(n).length },
    macs: n.ports.map((p) => p.mac),
    firmware: Object.fromEntries(COMPONENTS.map((c) => [c, world.firmwareVersion(n, c)])),
  };
}

/** The state summary served at GET /world. */
export function worldSummary(world: World) {
  return {
    time: new Date(world.now()).toISOString(),
    profile: world.time.profile.name,
    speed: world.time.speed,
    racks: world.spec.racks,
    pdus: [...world.pdus.values()].map((p) => ({
      id: p.spec.id,
      rack: p.spec.rack,
      address: p.address,
      outlets: p.outlets.map((_, i) => (world.outlet(p.spec.id, i + 1).on ? "On" : "Off")),
    })),
    nodes: [...world.nodes.values()].map((n) => nodeSummary(world, n)),
    faults: world.faults.list(),
  };
}

function readJson(req: IncomingMessage): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      if (text.trim() === "") return resolve(undefined);
      try {
        resolve(JSON.parse(text));
      } catch {
        reject(new ControlError(400, "RACKFORM_ERR_LAB_BAD_JSON", "request body is not valid JSON"));
      }
    });
    req.on("error", reject);
  });
}

function outletAction(body: unknown): "On" | "Off" | "PowerCycle" {
  const s = (body as { state?: unknown } | undefined)?.state;
  if (s !== "On" && s !== "Off" && s !== "PowerCycle") {
    throw new ControlError(400, "RACKFORM_ERR_LAB_BAD_STATE", 'state: must be "On", "Off" or "PowerCycle"');
  }
  return s;
}

/** The new password of a rotation; at least 8 characters, as the lab's AccountService states (MinPasswordLength). */
function newPassword(body: unknown): string {
  const p = (body as { password?: unknown } | undefined)?.password;
  if (typeof p !== "string" || p.length < 8 || p.length > 128) {
    throw new ControlError(400, "RACKFORM_ERR_LAB_BAD_PASSWORD", "password: must be a string of 8 to 128 characters");
  }
  return p;
}

/** The port of a move (0 or absent: any free one). */
function newPort(body: unknown): number {
  const p = (body as { port?: unknown } | undefined)?.port ?? 0;
  if (typeof p !== "number" || !Number.isInteger(p) || p < 0 || p > 65535)
    throw new ControlError(400, "RACKFORM_ERR_LAB_BAD_PORT", "port: must be an integer 0–65535 (0: any free port)");
  return p;
}

/** Moves the BMC or PDU at an address to a new port (0: any free one); resolves to its new base URL. */
export type EndpointMover = (address: string, port: number) => Promise<string>;

async function moved(move: EndpointMover | undefined, address: string, body: unknown) {
  if (!move) throw new ControlError(404, "RACKFORM_ERR_LAB_NOT_FOUND", "this control API cannot move endpoints");
  const port = newPort(body);
  try {
    return { status: 200, body: { url: await move(address, port) } };
  } catch (e) {
    const busy = (e as NodeJS.ErrnoException).code === "EADDRINUSE";
    if (busy) throw new ControlError(409, "RACKFORM_ERR_LAB_PORT_IN_USE", `port ${port} is in use on ${address}`);
    throw e;
  }
}

/** The /faults endpoints, or undefined for another method or path under it. */
async function faultsRoute(
  world: World,
  m: string,
  parts: readonly string[],
  req: IncomingMessage,
  known: { nodes: Set<string>; pdus: Set<string> },
): Promise<{ status: number; body?: unknown } | undefined> {
  if (m === "GET" && parts.length === 1) return { status: 200, body: world.faults.list() };
  if (m === "POST" && parts.length === 1) {
    try {
      return { status: 201, body: world.faults.add(parseFaultSpec(await readJson(req), known)) };
    } catch (e) {
      if (e instanceof FaultSpecError) throw new ControlError(400, e.code, e.message);
      throw e;
    }
  }
  if (m === "DELETE" && parts.length === 1) {
    world.faults.clear();
    return { status: 204 };
  }
  if (m === "DELETE" && parts.length === 2) {
    if (!world.faults.remove(parts[1]))
      throw new ControlError(404, "RACKFORM_ERR_LAB_NOT_FOUND", `no fault "${parts[1]}"`);
    return { status: 204 };
  }
  return undefined;
}

async function route(
  world: World,
  log: RequestLog,
  req: IncomingMessage,
  rates: RatesSource | undefined,
  move?: EndpointMover,
): Promise<{ status: number; body?: unknown; text?: string; type?: string }> {
  const url = new URL(req.url ?? "/", "http://control");
  const parts = url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  const m = req.method ?? "GET";
  const known = { nodes: new Set([...world.nodes.keys(), ...world.dpus.keys()]), pdus: new Set(world.pdus.keys()) };
  if (m === "GET" && url.pathname === "/world") return { status: 200, body: worldSummary(world) };
  if (m === "GET" && url.pathname === "/requests/rates" && rates) {
    const since = Number(url.searchParams.get("since_ms") ?? 0);
    if (!Number.isFinite(since) || since < 0)
      throw new ControlError(400, "RACKFORM_ERR_LAB_BAD_QUERY", "since_ms: must be a time in ms since the epoch ≥ 0");
    return { status: 200, body: rates(since) };
  }
  if (m === "GET" && url.pathname === "/requests") {
    const since = Number(url.searchParams.get("since") ?? 0);
    const limit = Number(url.searchParams.get("limit") ?? Number.POSITIVE_INFINITY);
    if (!Number.isFinite(since) || since < 0)
      throw new ControlError(400, "RACKFORM_ERR_LAB_BAD_QUERY", "since: must be a sequence number ≥ 0");
    return { status: 200, body: { last: log.last(), entries: log.since(since, limit) } };
  }
  if (parts[0] === "attestation" || parts[0] === "secure-boot") {
    const fail = (status: number, code: string, message: string) => new ControlError(status, code, message);
    const r = await trustRoute(world, m, parts, url.searchParams, () => readJson(req), fail);
    if (r) return r;
  }
  if (parts[0] === "faults") {
    const r = await faultsRoute(world, m, parts, req, known);
    if (r) return r;
  }
  if (parts[0] === "nodes" && parts.length >= 2) {
    const n = world.node(parts[1]);
    if (!n) throw new ControlError(404, "RACKFORM_ERR_LAB_NOT_FOUND", `no node "${parts[1]}"`);
    if (m === "GET" && parts.length === 2) return { status: 200, body: nodeSummary(world, n) };
    if (m === "GET" && parts.length === 3 && parts[2] === "acceptance") {
      // What the node's acceptance run would report now, without going through a backend.
      const q = url.searchParams;
      let params: ReturnType<typeof paramsFrom>;
      try {
        params = paramsFrom({
          dcgm_level: q.get("dcgm_level") ?? undefined,
          burn_in: q.get("burn_in") ?? undefined,
          nccl_min_busbw_gbps: q.get("nccl_min_busbw_gbps") ?? undefined,
        });
      } catch (e) {
        throw new ControlError(400, "RACKFORM_ERR_LAB_BAD_QUERY", (e as Error).message);
      }
      return { status: 200, body: measureAcceptance(world, n, params) };
    }
    if (m === "POST" && parts.length === 4 && parts[2] === "bmc" && parts[3] === "password") {
      // An operator rotates the BMC's password on the device; backends keep the old one until told.
      world.setPassword(n.address, newPassword(await readJson(req)));
      return { status: 204 };
    }
    if (m === "POST" && parts.length === 4 && parts[2] === "bmc" && parts[3] === "move") {
      // The BMC gets a new address on the management network (here: a new port); the old one stops answering.
      return moved(move, n.address, await readJson(req));
    }
    if (m === "POST" && parts.length === 4 && parts[2] === "bmc" && parts[3] === "reset") {
      // The BMC reboots (Manager.Reset from outside): unreachable for the profile's bmcResetMs; the host runs on.
      world.resetBmc(n);
      return { status: 200, body: nodeSummary(world, n) };
    }
    if (m === "POST" && parts.length === 3 && parts[2] === "outlet") {
      world.setOutlet(n.spec.pdu, n.spec.outlet, outletAction(await readJson(req)));
      return { status: 200, body: nodeSummary(world, n) };
    }
  }
  if (parts[0] === "pdus" && parts.length === 3 && parts[2] === "password" && m === "POST") {
    const p = world.pdus.get(parts[1]);
    if (!p) throw new ControlError(404, "RACKFORM_ERR_LAB_NOT_FOUND", `no PDU "${parts[1]}"`);
    world.setPassword(p.address, newPassword(await readJson(req)));
    return { status: 204 };
  }
  if (parts[0] === "pdus" && parts.length === 3 && parts[2] === "move" && m === "POST") {
    const p = world.pdus.get(parts[1]);
    if (!p) throw new ControlError(404, "RACKFORM_ERR_LAB_NOT_FOUND", `no PDU "${parts[1]}"`);
    return moved(move, p.address, await readJson(req));
  }
  if (parts[0] === "pdus" && parts.length === 4 && parts[2] === "outlets" && m === "POST") {
    const p = world.pdus.get(parts[1]);
    const i = Number(parts[3]);
    if (!p) throw new ControlError(404, "RACKFORM_ERR_LAB_NOT_FOUND", `no PDU "${parts[1]}"`);
    if (!Number.isInteger(i) || i < 1 || i > p.outlets.length)
      throw new ControlError(404, "RACKFORM_ERR_LAB_NOT_FOUND", `no outlet ${parts[3]} on "${p.spec.id}"`);
    world.setOutlet(p.spec.id, i, outletAction(await readJson(req)));
    return { status: 200, body: { pdu: p.spec.id, outlet: i, state: world.outlet(p.spec.id, i).on ? "On" : "Off" } };
  }
  throw new ControlError(404, "RACKFORM_ERR_LAB_NOT_FOUND", `no control endpoint ${m} ${url.pathname}`);
}

/** Requests and peak rate per service since a time (ms since the epoch): lab.ts computes them from the logs. */
export type RatesSource = (sinceMs: number) => Record<string, { requests: number; peakPerSecond: number }>;

/** Starts the control API on `host:port` (port 0 = any). */
export async function startControlServer(
  world: World,
  log: RequestLog,
  host = "127.0.0.1",
  port = 0,
  rates?: RatesSource,
  ui = false,
  move?: EndpointMover,
): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res: ServerResponse) => {
    if (ui && req.method === "GET" && new URL(req.url ?? "/", "http://control").pathname === "/ui") {
      res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" });
      res.end(labPage(worldSummary(world)));
      return;
    }
    route(world, log, req, rates, move)
      .then(({ status, body, text, type }) => {
        if (text !== undefined) return res.writeHead(status, { "Content-Type": type ?? "text/plain" }).end(text);
        if (body === undefined) return res.writeHead(status).end();
        res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
      })
      .catch((e: unknown) => {
        const ce = e instanceof ControlError ? e : new ControlError(500, "RACKFORM_ERR_LAB_INTERNAL", String(e));
        res
          .writeHead(ce.status, { "Content-Type": "application/json" })
          .end(JSON.stringify({ error: { code: ce.code, message: ce.message } }));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolve());
  });
  const a = server.address();
  return { server, url: `http://${host}:${typeof a === "object" && a ? a.port : port}` };
}
