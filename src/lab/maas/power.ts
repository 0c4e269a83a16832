/** Power control seam of the MAAS lab, and the default driver that speaks Redfish to a BMC as MAAS's redfish driver does. */
import type { Agent } from "node:https";
import { type BmcReply, BmcUnreachable, bmcRequest, settledSystem } from "../bmc-http.js";

/** A machine's power parameters as MAAS stores them for power_type "redfish". */
export interface PowerParams {
  power_address?: string;
  power_user?: string;
  power_pass?: string;
  node_id?: string;
  [key: string]: string | undefined;
}

/** Power state a driver reports (MAAS's power_state values). */
export type PowerState = "on" | "off" | "error";

/** How the MAAS lab turns machines on and off; implementations throw an Error with a message MAAS can show. */
export interface PowerDriver {
  powerOn(params: PowerParams): Promise<void>;
  powerOff(params: PowerParams): Promise<void>;
  queryPowerState(params: PowerParams): Promise<PowerState>;
}

/** Options of redfishPowerDriver. */
export interface RedfishPowerDriverOptions {
  /** PEM CA bundle the BMC certificates chain to. @default Node's default trust store */
  readonly caPem?: string;
  /** Set a one-time PXE boot override before powering on, as MAAS does. @default true */
  readonly setPxeBoot?: boolean;
  /** Per-request timeout. @default 10000 */
  readonly timeoutMs?: number;
  /** Connection pool (destroy it to drop kept-alive BMC connections at shutdown). @default Node's global agent */
  readonly agent?: Agent;
  /**
   * Pauses between attempts of a power change, as MAAS's PowerDriver.perform_power makes them: every failure but a
   * refused credential (its PowerAuthError, which is fatal) is retried after the next pause, and the last failure is
   * reported. @default MAAS_WAITING_POLICY_MS
   */
  readonly retryWaitsMs?: readonly number[];
}

/** MAAS's DEFAULT_WAITING_POLICY (provisioningserver/drivers/power/__init__.py): 1, 2, 2, 4, 6, 8, 12 seconds. */
export const MAAS_WAITING_POLICY_MS: readonly number[] = [1, 2, 2, 4, 6, 8, 12].map((s) => s * 1000);

/** A refused credential (401 or 403): MAAS gives up at once (PowerAuthError), every other power error is retried. */
class PowerAuthError extends Error {}

/** Runs a power change with MAAS's retries: one attempt per pause, the pause after each failure. */
async function withRetries(waits: readonly number[], change: () => Promise<void>): Promise<void> {
  let last: unknown;
  for (const wait of waits.length > 0 ? waits : [0]) {
    try {
      return await change();
    } catch (e) {
      if (e instanceof PowerAuthError) throw e;
      last = e;
      await new Promise((r) => setTimeout(r, wait));
    }
  }
  throw last;
}

const SETTLE_POLL_MS = 50;

/** A PowerDriver that drives a Redfish BMC over HTTPS with basic auth (System discovered via /redfish/v1/Systems). */
export function redfishPowerDriver(opts: RedfishPowerDriverOptions = {}): PowerDriver {
  const timeoutMs = opts.timeoutMs ?? 10_000;

  async function call(params: PowerParams, method: string, path: string, body?: unknown): Promise<BmcReply> {
    const target = {
      address: baseUrl(params),
      username: params.power_user ?? "",
      password: params.power_pass ?? "",
      ca: opts.caPem,
      agent: opts.agent,
      timeoutMs,
    };
    try {
      return await bmcRequest(target, method, path, body);
    } catch (e) {
      if (!(e instanceof BmcUnreachable)) throw e;
      throw new Error(`Redfish request ${method} ${e.url.pathname} to ${e.url.host} failed: ${e.message}`);
    }
  }

  async function ok(params: PowerParams, method: string, path: string, body?: unknown): Promise<BmcReply> {
    const r = await call(params, method, path, body);
    // MAAS's redfish driver raises PowerAuthError for both (redfish.py, render_response).
    if (r.status === 401 || r.status === 403)
      throw new PowerAuthError(`Redfish BMC rejected the power credentials (HTTP ${r.status})`);
    if (r.status >= 400) throw new Error(`Redfish ${method} ${path} returned HTTP ${r.status}`);
    return r;
  }

  async function systemPath(params: PowerParams): Promise<string> {
    if (params.node_id) return `/redfish/v1/Systems/${encodeURIComponent(params.node_id)}`;
    const r = await ok(params, "GET", "/redfish/v1/Systems");
    const members = r.json?.Members as Array<Record<string, string>> | undefined;
    const first = members?.[0]?.["@odata.id"];
    if (!first) throw new Error("Redfish BMC lists no ComputerSystem under /redfish/v1/Systems");
    return first;
  }

  async function state(params: PowerParams, path: string): Promise<PowerState> {
    const r = await ok(params, "GET", path);
    const s = String(r.json?.PowerState ?? "").toLowerCase();
    return s === "on" || s === "poweringoff" ? "on" : s === "off" || s === "poweringon" ? "off" : "error";
  }

  // MAAS's power actions retry while the host is PoweringOn/PoweringOff; wait it out the same way.
  const settled = async (params: PowerParams, path: string) =>
    settledSystem(async () => (await ok(params, "GET", path)).json, timeoutMs, SETTLE_POLL_MS);

  async function reset(params: PowerParams, path: string, resetType: string): Promise<void> {
    const sys = { json: await settled(params, path) };
    const actions = sys.json?.Actions as Record<string, { target?: string }> | undefined;
    const target = actions?.["#ComputerSystem.Reset"]?.target ?? `${path}/Actions/ComputerSystem.Reset`;
    await ok(params, "POST", target, { ResetType: resetType });
  }

  const waits = opts.retryWaitsMs ?? MAAS_WAITING_POLICY_MS;
  return {
    powerOn: (params) =>
      withRetries(waits, async () => {
        const path = await systemPath(params);
        if (opts.setPxeBoot ?? true) {
          await ok(params, "PATCH", path, {
            Boot: { BootSourceOverrideEnabled: "Once", BootSourceOverrideTarget: "Pxe" },
          });
        }
        const current = String((await settled(params, path))?.PowerState ?? "");
        await reset(params, path, current === "On" ? "ForceRestart" : "On");
      }),
    powerOff: (params) =>
      withRetries(waits, async () => {
        const path = await systemPath(params);
        if (String((await settled(params, path))?.PowerState ?? "") !== "Off") await reset(params, path, "ForceOff");
      }),
    async queryPowerState(params) {
      return state(params, await systemPath(params));
    },
  };
}

function baseUrl(params: PowerParams): string {
  const addr = (params.power_address ?? "").trim();
  if (!addr) throw new Error("power_address is not set");
  return /^https?:\/\//.test(addr) ? addr : `https://${addr}`;
}

/** An in-memory PowerDriver keyed by power_address, for tests and demos; `states` shows what each machine is doing. */
export function memoryPowerDriver(): PowerDriver & { states: Map<string, PowerState>; failing: Set<string> } {
  const states = new Map<string, PowerState>();
  const failing = new Set<string>();
  const key = (p: PowerParams) => {
    const k = p.power_address ?? "";
    if (failing.has(k)) throw new Error(`BMC at ${k} is unreachable`);
    return k;
  };
  return {
    states,
    failing,
    async powerOn(p) {
      states.set(key(p), "on");
    },
    async powerOff(p) {
      states.set(key(p), "off");
    },
    async queryPowerState(p) {
      return states.get(key(p)) ?? "off";
    },
  };
}
