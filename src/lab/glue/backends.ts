/**
 * Starts the lab's backends on loopback — MAAS region, Ironic, warewulfd, slurmrestd, Kubernetes API — with per-lab credentials,
 * durations from the time profile, power through the lab's own Redfish BMCs (HTTPS, lab CA), acceptance installed and
 * the joins wired.
 */
import { createHmac, randomBytes } from "node:crypto";
import { Agent } from "node:https";
import { installIronicAcceptance, installMaasAcceptance } from "../acceptance/backends.js";
import { installWarewulfAcceptance } from "../acceptance/warewulf.js";
import type { BcmApi } from "../bcm/index.js";
import { createIronicApi, type IronicApi, redfishBmc } from "../ironic/index.js";
import type { LabClock } from "../maas/clock.js";
import { createMaasApi, MAAS_WAITING_POLICY_MS, type MaasApi, redfishPowerDriver } from "../maas/index.js";
import { createKubernetesApi, createSlurmApi, type KubernetesApi, type SlurmApi } from "../scheduler/index.js";
import type { Clock } from "../time.js";
import { createWarewulfApi, type WarewulfApi } from "../warewulf/index.js";
import type { World } from "../world/model.js";
import { nodeByBmcAddress, nodeByMac, timerClock } from "./adapters.js";
import { BCM_USER, createLabBcm } from "./bcm.js";
import { worldHardwareProbe } from "./commissioning.js";
import { type JoinMode, wireJoins } from "./joins.js";

/** Fixed ports of the backends (0 or omitted = a free port). */
export interface BackendPorts {
  readonly maas?: number;
  readonly ironic?: number;
  readonly warewulf?: number;
  readonly slurm?: number;
  readonly kubernetes?: number;
  readonly bcm?: number;
}

/** Options of startBackends. */
export interface BackendOptions {
  readonly world: World;
  readonly clock: Clock;
  /** The lab CA (PEM) the BMC certificates chain to. */
  readonly caPem: string;
  /** @default "127.0.0.1" */
  readonly host?: string;
  readonly ports?: BackendPorts;
  /** @default "marker" */
  readonly join?: JoinMode;
  /** The Redfish URL of the BMC at a loopback address (BCM stores BMC IPs only). @default https://<address> */
  readonly bmcUrl?: (address: string) => string;
}

/** The lab file keys the backends add (they hold secrets: the lab file is 0600). */
export interface BackendInfo {
  readonly maas: { readonly url: string; readonly apiKey: string };
  readonly ironic: { readonly url: string };
  /** warewulfd (API and /status), HTTP Basic with an auth.conf user. */
  readonly warewulf: { readonly url: string; readonly username: string; readonly password: string };
  readonly slurm: { readonly url: string; readonly user: string; readonly token: string };
  readonly kubernetes: { readonly url: string; readonly token: string };
  readonly bcm: { readonly url: string; readonly username: string; readonly password: string };
}

/** Running backends. */
export interface Backends {
  readonly maas: MaasApi;
  readonly ironic: IronicApi;
  readonly warewulf: WarewulfApi;
  readonly slurm: SlurmApi;
  readonly kubernetes: KubernetesApi;
  readonly bcm: BcmApi;
  readonly info: BackendInfo;
  close(): Promise<void>;
}

/** The warewulfd API user of the lab's auth.conf. */
export const WAREWULF_USER = "rackform";

/** The Slurm user the lab issues a token for. */
export const SLURM_USER = "rackform";

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
function token(n: number): string {
  return [...randomBytes(n)].map((b) => ALNUM[b % ALNUM.length]).join("");
}

/** A MAAS API key as the region hands them out: consumer (18) : token (18) : secret (32). */
export function newMaasApiKey(): string {
  return `${token(18)}:${token(18)}:${token(32)}`;
}

/** An HS256 JWT as `scontrol token` issues (claims sun, iat, exp), signed with a throwaway per-lab key. */
export function newSlurmJwt(user: string, nowMs: number, lifespanS = 365 * 86_400): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const iat = Math.floor(nowMs / 1000);
  const body = `${b64({ alg: "HS256", typ: "JWT" })}.${b64({ exp: iat + lifespanS, iat, sun: user })}`;
  return `${body}.${createHmac("sha256", randomBytes(32)).update(body).digest("base64url")}`;
}

/** Starts the four backends; on failure closes what already started. */
export async function startBackends(opts: BackendOptions): Promise<Backends> {
  const { world, clock } = opts;
  const host = opts.host ?? "127.0.0.1";
  const timers = timerClock(clock);
  const apiKey = newMaasApiKey();
  const slurmToken = newSlurmJwt(SLURM_USER, clock.now());
  const kubeToken = randomBytes(32).toString("base64url");
  const resolve = (address: string | undefined) => nodeByBmcAddress(world, address);
  // One pool per lab for MAAS's and Ironic's BMC connections, destroyed at close so no kept-alive socket holds a BMC.
  const bmcAgent = new Agent({ keepAlive: true });

  const maas = createLabMaas(world, timers, apiKey, { caPem: opts.caPem, agent: bmcAgent });
  const ironic = createLabIronic(world, timers, { caPem: opts.caPem, agent: bmcAgent });
  const warewulfPassword = token(24);
  const warewulf = createLabWarewulf(world, clock, warewulfPassword);
  const schedClock = { now: () => clock.now() };
  const slurm = createSlurmApi({ jwtTokens: { [SLURM_USER]: slurmToken }, clock: schedClock });
  const kubernetes = createKubernetesApi({ token: kubeToken, clock: schedClock });
  maas.setHardwareProbe(worldHardwareProbe(world, resolve));
  installMaasAcceptance(maas, world, resolve);
  installIronicAcceptance(ironic, world, resolve);
  installWarewulfAcceptance(
    warewulf,
    world,
    () => clock.now(),
    (macs) => nodeByMac(world, macs),
  );
  const bcm = createLabBcm({ world, clock, caPem: opts.caPem, agent: bmcAgent, bmcUrl: opts.bmcUrl });
  wireJoins({ world, clock, maas, ironic, warewulf, slurm, kubernetes, bcm: bcm.api, mode: opts.join });

  const apis: BackendApis = { maas, ironic, warewulf, slurm, kubernetes, bcm: bcm.api };
  const closers: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    maas.stop();
    ironic.stop();
    bmcAgent.destroy();
    await Promise.all(closers.map((c) => c()));
  };
  try {
    const urls = await listenAll(apis, host, opts.ports ?? {}, closers);
    return {
      ...apis,
      info: {
        maas: { url: urls.maas, apiKey },
        ironic: { url: urls.ironic },
        warewulf: { url: urls.warewulf, username: WAREWULF_USER, password: warewulfPassword },
        slurm: { url: urls.slurm, user: SLURM_USER, token: slurmToken },
        kubernetes: { url: urls.kubernetes, token: kubeToken },
        bcm: { url: urls.bcm, username: BCM_USER, password: bcm.password },
      },
      close: stopAll,
    };
  } catch (e) {
    await stopAll();
    throw e;
  }
}

/** How the MAAS and Ironic power drivers reach the lab's BMCs: the lab CA and the shared connection pool. */
interface BmcReach {
  readonly caPem: string;
  readonly agent: Agent;
}

/** The MAAS region: one API key, Redfish power through the lab's BMCs, HTTP faults and durations from the world. */
function createLabMaas(world: World, timers: LabClock, apiKey: string, reach: BmcReach): MaasApi {
  const t = world.time;
  return createMaasApi({
    apiKeys: [apiKey],
    clock: timers,
    // MAAS retries a failed power change on its waiting policy, its unit scaled by the time profile.
    power: redfishPowerDriver({
      ...reach,
      retryWaitsMs: MAAS_WAITING_POLICY_MS.map((ms) => (ms / 1000) * t.duration("powerRetryUnitMs")),
    }),
    gate: (method, path) => world.faults.take("http-status", { service: "maas", method, path }),
    delays: {
      commissionMs: t.duration("commissionMs"),
      deployMs: t.duration("deployMs"),
      releaseMs: t.duration("powerOffMs"),
      eraseMs: t.duration("cleaningMs"),
      testMs: t.duration("burnInMs"),
    },
  });
}

/** Ironic: Redfish through the lab's BMCs, HTTP faults, the spec's conductor and durations from the world. */
function createLabIronic(world: World, timers: LabClock, reach: BmcReach): IronicApi {
  const t = world.time;
  return createIronicApi({
    maxVersion: "1.87",
    clock: timers,
    bmc: redfishBmc(reach),
    gate: (method, path) => world.faults.take("http-status", { service: "ironic", method, path }),
    conductor: world.spec.ironic?.conductor,
    delays: {
      verifyMs: 0,
      inspectMs: t.duration("commissionMs"),
      cleanMs: t.duration("cleaningMs"),
      deployMs: t.duration("deployMs"),
      deleteMs: t.duration("powerOffMs"),
      powerMs: t.duration("powerOnMs"),
      allocationMs: 0,
      stepMs: t.duration("burnInMs"),
    },
    powerSync: { intervalMs: t.duration("powerSyncMs"), recoveryIntervalMs: t.duration("powerRecoveryMs") },
  });
}

/** warewulfd with one auth.conf user, observing a node's power, boot source and deploy faults through the world. */
function createLabWarewulf(world: World, clock: Clock, password: string): WarewulfApi {
  const t = world.time;
  return createWarewulfApi({
    users: { [WAREWULF_USER]: password },
    now: () => clock.now(),
    deployMs: () => t.duration("deployMs"),
    observe: (macs) => {
      const n = nodeByMac(world, macs);
      if (!n) return undefined;
      const p = world.powerState(n);
      return {
        on: p === "On" || p === "PoweringOn",
        since: n.power.since,
        pxe: n.lastBootSource === "Pxe",
        installFails: world.faults.find("deploy-failure", { node: n.spec.name }) !== undefined,
      };
    },
  });
}

/** The backend APIs, before they listen. */
type BackendApis = Omit<Backends, "info" | "close">;

/** Each backend's URL once it listens. */
type BackendUrls = Record<keyof BackendApis, string>;

/** Starts each backend's server in turn, adding its closer as it goes so a later failure can close the earlier ones. */
async function listenAll(
  apis: BackendApis,
  host: string,
  p: BackendPorts,
  closers: (() => Promise<void>)[],
): Promise<BackendUrls> {
  const m = await apis.maas.listen(host, p.maas ?? 0);
  closers.push(m.close);
  const i = await apis.ironic.listen(host, p.ironic ?? 0);
  closers.push(i.close);
  const w = await apis.warewulf.listen(host, p.warewulf ?? 0);
  closers.push(w.close);
  const s = await apis.slurm.listen(host, p.slurm ?? 0);
  closers.push(s.close);
  const k = await apis.kubernetes.listen(host, p.kubernetes ?? 0);
  closers.push(k.close);
  const b = await apis.bcm.listen(host, p.bcm ?? 0);
  closers.push(b.close);
  return { maas: m.url, ironic: i.url, warewulf: w.url, slurm: s.url, kubernetes: k.url, bcm: b.url };
}
