/** Starting and stopping a whole lab: world, Redfish endpoints, control API, and the lab file describing them. */
import { mkdirSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import { startControlServer } from "./control/server.js";
import { type BackendInfo, type BackendPorts, type Backends, startBackends } from "./glue/backends.js";
import type { JoinMode } from "./glue/joins.js";
import { type ImageServer, startImageServer } from "./images/server.js";
import { RedfishFleet } from "./redfish/server.js";
import { issueLabTls, type LabTls } from "./redfish/tls.js";
import { RequestLog } from "./request-log.js";
import { type RequestRate, rateOf } from "./request-rates.js";
import { type Clock, LabTime, profileByName, systemClock } from "./time.js";
import { defaultSpec } from "./world/generate.js";
import { World } from "./world/model.js";
import { type LabSpec, validateLabSpec } from "./world/spec.js";

/** Options of `startLab`. */
export interface StartLabOptions {
  /** The lab spec (validated). @default defaultSpec({ nodes }) */
  readonly spec?: unknown;
  /** Node count for the generated spec when `spec` is omitted. @default 8 (racks × nodesPerRack when both are given) */
  readonly nodes?: number;
  /** Nodes per rack of the generated spec. @default 8 */
  readonly nodesPerRack?: number;
  /** Racks of the generated spec. @default ceil(nodes / nodesPerRack) */
  readonly racks?: number;
  /** BlueField-3 DPUs per node of the generated spec (factory state: NicMode) when `spec` is omitted. @default 0 */
  readonly dpus?: number;
  /** Time profile name. @default "demo" */
  readonly profile?: string;
  /** Speed factor applied to the profile. @default 1 */
  readonly speed?: number;
  /** Where the CA and other state live. */
  readonly stateDir: string;
  /** Injected clock. @default the system clock */
  readonly clock?: Clock;
  /** Port on every BMC/PDU address. @default 0 (one free port shared by all addresses) */
  readonly port?: number;
  /** Control API port on 127.0.0.1. @default 0 */
  readonly controlPort?: number;
  /** Start MAAS, Ironic, warewulfd, slurmrestd and the Kubernetes API (false: only BMCs, PDUs and control, for fast tests). @default true */
  readonly backends?: boolean;
  /** Fixed backend ports on 127.0.0.1. @default 0 each */
  readonly backendPorts?: BackendPorts;
  /** When deployed nodes join Slurm/Kubernetes: per `rackform-join:` user-data marker, always, or never. @default "marker" */
  readonly join?: JoinMode;
  /** Serve the lab's page at GET /ui on the control API. @default false */
  readonly ui?: boolean;
}

/** Credentials and URL of one Redfish endpoint in the lab file. */
export interface LabEndpoint {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

/** The lab file: what examples and tests read to find the lab; backend keys are absent with `backends: false`. */
export interface LabInfo extends Partial<BackendInfo> {
  readonly ca: string;
  readonly control: { readonly url: string };
  /** The image server's base URL (ends in "/"): the demo's golden images are `<url><name>-<version>.qcow2`. */
  readonly images?: { readonly url: string };
  readonly pdus: readonly ({ readonly id: string; readonly rack: string } & LabEndpoint)[];
  readonly nodes: readonly {
    readonly name: string;
    readonly rack: string;
    readonly u: number;
    readonly pdu: string;
    readonly outlet: number;
    readonly bmc: LabEndpoint;
    /** The node's BlueField DPUs' BMCs (absent when it has none). */
    readonly dpus?: readonly ({ readonly id: string } & LabEndpoint)[];
  }[];
  [extra: string]: unknown;
}

/** A running lab. */
export interface Lab {
  /** The lab file object; add keys before `writeInfo`. */
  readonly info: LabInfo;
  readonly world: World;
  readonly requests: RequestLog;
  readonly spec: LabSpec;
  /** The running backends (undefined with `backends: false`): their test hooks (failNext, scheduler hooks, …). */
  readonly backends: Backends | undefined;
  /** The image server (golden images over HTTP, as Ironic and MAAS uploads fetch them): put/remove files, its log. */
  readonly images: ImageServer;
  /** Live Redfish sessions at a BMC or PDU address, as its SessionService counts them. */
  liveSessions(address: string): number;
  /** Requests and peak requests per second per service (Redfish, MAAS, Ironic, Slurm, Kubernetes) since `sinceMs`. */
  requestRates(sinceMs?: number): Record<string, RequestRate>;
  /** Writes `info` as JSON (mode 0600: it holds credentials). */
  writeInfo(path: string): void;
  /** Stops every server. Safe to call twice. */
  close(): Promise<void>;
}

/** Builds the world and starts every endpoint. */
export async function startLab(opts: StartLabOptions): Promise<Lab> {
  const spec = labSpecOf(opts);
  const time = new LabTime(opts.clock ?? systemClock, profileByName(opts.profile ?? "demo"), opts.speed ?? 1);
  const world = new World(spec, time);
  const requests = new RequestLog();
  mkdirSync(opts.stateDir, { recursive: true });
  const tls = await issueLabTls(opts.stateDir, redfishAddresses(world));
  const fleet = new RedfishFleet({ world, tls, log: requests, port: opts.port });
  const parts: LabParts = { world, requests, time, tls, fleet };
  const services = await startServices(opts, parts);
  const { control, images, backends } = services;
  const info = labInfoOf(spec, parts, services);
  let closed: Promise<void> | undefined;
  return {
    info,
    world,
    requests,
    spec,
    backends,
    images,
    liveSessions: (address) => fleet.liveSessions(address),
    requestRates: (since) => rates(requests, backends, since),
    writeInfo: (path) => writeFileSync(path, `${JSON.stringify(info, null, 2)}\n`, { mode: 0o600 }),
    close: () => {
      closed ??= (async () => {
        await backends?.close();
        await closeServer(control.server);
        await images.close();
        await fleet.close();
      })();
      return closed;
    },
  };
}

/** The validated spec: the given one, else one generated from the node, rack and DPU options. */
function labSpecOf(opts: StartLabOptions): LabSpec {
  return validateLabSpec(
    opts.spec ??
      defaultSpec({
        nodes: opts.nodes ?? (opts.racks !== undefined ? opts.racks * (opts.nodesPerRack ?? 8) : 8),
        ...(opts.nodesPerRack !== undefined ? { nodesPerRack: opts.nodesPerRack } : {}),
        ...(opts.racks !== undefined ? { racks: opts.racks } : {}),
        ...(opts.dpus ? { dpus: opts.dpus, dpuMode: "NicMode" } : {}),
      }),
  );
}

/** Every Redfish address in the world (node BMCs, PDUs, DPU BMCs), which the lab certificate must name. */
function redfishAddresses(world: World): string[] {
  return [
    ...[...world.nodes.values()].map((n) => n.address),
    ...[...world.pdus.values()].map((p) => p.address),
    ...[...world.dpus.values()].map((d) => d.address),
  ];
}

/** What the lab builds before starting its servers. */
interface LabParts {
  readonly world: World;
  readonly requests: RequestLog;
  readonly time: LabTime;
  readonly tls: LabTls;
  readonly fleet: RedfishFleet;
}

/** The servers a lab runs besides its Redfish fleet. */
interface LabServices {
  readonly control: { server: Server; url: string };
  readonly images: ImageServer;
  readonly backends: Backends | undefined;
}

/** Starts the fleet, control API, image server and (unless turned off) the backends; on failure closes what started. */
async function startServices(opts: StartLabOptions, parts: LabParts): Promise<LabServices> {
  const { world, requests, time, tls, fleet } = parts;
  let control: { server: Server; url: string } | undefined;
  let backends: Backends | undefined;
  let images: ImageServer | undefined;
  try {
    await fleet.start();
    control = await startControlServer(
      world,
      requests,
      "127.0.0.1",
      opts.controlPort ?? 0,
      (since) => rates(requests, backends, since),
      opts.ui ?? false,
      (address, port) => fleet.move(address, port),
    );
    images = await startImageServer();
    if (opts.backends ?? true) {
      backends = await startBackends({
        world,
        clock: time.clock,
        caPem: tls.caPem,
        ports: opts.backendPorts,
        join: opts.join,
        bmcUrl: (address) => fleet.url(address),
      });
    }
  } catch (e) {
    await images?.close();
    if (control) await closeServer(control.server);
    await fleet.close();
    throw e;
  }
  return { control, images, backends };
}

/** The lab file's object: CA, control and image URLs, every PDU and node endpoint with credentials, backend keys. */
function labInfoOf(spec: LabSpec, parts: LabParts, services: LabServices): LabInfo {
  const { world, tls, fleet } = parts;
  const { username, password } = spec.credentials;
  return {
    ca: tls.caPath,
    control: { url: services.control.url },
    images: { url: services.images.url },
    pdus: [...world.pdus.values()].map((p) => ({
      id: p.spec.id,
      rack: p.spec.rack,
      url: fleet.url(p.address),
      username,
      password,
    })),
    nodes: [...world.nodes.values()].map((n) => ({
      name: n.spec.name,
      rack: n.spec.rack,
      u: n.spec.u,
      pdu: n.spec.pdu,
      outlet: n.spec.outlet,
      bmc: { url: fleet.url(n.address), username, password },
      ...(n.spec.dpus
        ? { dpus: world.dpusOf(n.spec.name).map((d) => ({ id: d.id, url: fleet.url(d.address), username, password })) }
        : {}),
    })),
    ...services.backends?.info,
  };
}

function rates(log: RequestLog, backends: Backends | undefined, sinceMs = 0): Record<string, RequestRate> {
  const redfish = rateOf(
    log.since(0).map((e) => ({ at: Date.parse(e.time) })),
    sinceMs,
  );
  if (!backends) return { redfish };
  return {
    redfish,
    maas: rateOf(backends.maas.requests, sinceMs),
    ironic: rateOf(backends.ironic.requests, sinceMs),
    warewulf: rateOf(backends.warewulf.requests, sinceMs),
    slurm: rateOf(backends.slurm.requests, sinceMs),
    kubernetes: rateOf(backends.kubernetes.requests, sinceMs),
    bcm: rateOf(backends.bcm.requests, sinceMs),
  };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((r) => server.close(() => r()));
}
