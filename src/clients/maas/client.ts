/**
 * MaasClient: one MAAS region API (2.0). Reads of many machines are batched into one list shared by concurrent
 * callers (MachineCache); POST operations are sent once; every error is a RackformClientError without secrets.
 */
import { ClientConfigError } from "../errors.js";
import { CONTROLLER_CONCURRENCY, HttpCore, type HttpCoreOptions } from "../http/core.js";
import { StepDurations } from "../http/poll.js";
import { safeUrl } from "../redact.js";
import { MaasCatalog } from "./catalog.js";
import { powerQueryRefusal } from "./errors.js";
import type { Form } from "./form.js";
import { MachineCache } from "./machine-cache.js";
import { type OAuthSource, parseApiKey } from "./oauth.js";
import { parseEvents, parseMachine, parseMachines, parseScriptResults } from "./parse.js";
import { MaasTransport } from "./transport.js";
import type {
  MaasCommissionOptions,
  MaasCreateMachine,
  MaasDeployOptions,
  MaasEvent,
  MaasMachine,
  MaasRedfishPower,
  MaasReleaseOptions,
  MaasScriptResultSet,
  MaasUpdateMachine,
} from "./types.js";
import { progressKey, type WaitForStatusOptions, waitForStatus } from "./wait.js";

/** Options of a MaasClient. */
export interface MaasClientOptions {
  /** Region URL, e.g. http://maas:5240/MAAS/ (a trailing api/2.0/ is accepted). */
  readonly url: string;
  /** `consumer_key:token_key:token_secret`; a secret, never shown. */
  readonly apiKey: string;
  /** CA bundle (PEM text or path) of the region's certificate. @default the Node.js root store */
  readonly ca?: string;
  /** Skip TLS verification; only when the user asks. @default false */
  readonly insecure?: boolean;
  /** A shared core. @default a core owned and closed by this client */
  readonly core?: HttpCore;
  /** Options of the owned core when `core` is not given. */
  readonly http?: Omit<HttpCoreOptions, "tls">;
  /** Requests in flight to the region. @default CONTROLLER_CONCURRENCY (16) */
  readonly maxConcurrent?: number;
  /** A finished machine list is reused this long by readers. @default 0 (only in-flight lists are shared) */
  readonly machineListMaxAgeMs?: number;
  /** Clock and sleep of status polling (tests inject them). @default real time */
  readonly clock?: {
    readonly now?: () => number;
    readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  };
  /** Nonce and timestamp of OAuth signatures (tests inject them). @default random nonce, current time */
  readonly oauth?: OAuthSource;
}

/** Filters of a machine list; each list matches any of its values (MAAS ORs repeated keys). */
export interface MachineFilter {
  readonly hostname?: readonly string[];
  readonly systemId?: readonly string[];
  readonly macAddress?: readonly string[];
}

/** A client of one MAAS region. */
export class MaasClient {
  /** API root, e.g. http://maas:5240/MAAS/api/2.0/. */
  readonly apiRoot: string;
  /** The batched machine reader shared by every caller of this client. */
  readonly machines: MachineCache;
  /** How long each kind of step took for this client's machines, so waits poll densely around it. */
  private readonly steps = new StepDurations();
  /** Tags, boot resources. */
  readonly catalog: MaasCatalog;
  private readonly core: HttpCore;
  private readonly ownsCore: boolean;
  private readonly t: MaasTransport;

  constructor(private readonly opts: MaasClientOptions) {
    const creds = parseApiKey(opts.apiKey);
    let u: URL;
    try {
      u = new URL(opts.url);
    } catch {
      throw new ClientConfigError(`url: ${JSON.stringify(safeUrl(opts.url))} is not a URL; use http://host:5240/MAAS/`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      throw new ClientConfigError(`url: unsupported scheme ${u.protocol}; use http(s)://host:5240/MAAS/`);
    }
    const base = u.pathname.replace(/\/+$/, "").replace(/\/api\/2\.0$/, "");
    this.apiRoot = `${u.origin}${base}/api/2.0/`;
    const tls = { ca: opts.ca, insecure: opts.insecure };
    const limit = opts.maxConcurrent ?? CONTROLLER_CONCURRENCY;
    this.ownsCore = !opts.core;
    this.core = opts.core ?? new HttpCore({ ...opts.http, tls, maxConcurrentPerHost: limit });
    if (opts.core) {
      const ownTls = opts.ca !== undefined || opts.insecure !== undefined;
      this.core.configureOrigin(u.origin, { tls: ownTls ? tls : undefined, maxConcurrent: limit });
    }
    this.core.redactor.add(opts.apiKey, creds.tokenSecret, `&${creds.tokenSecret}`);
    this.t = new MaasTransport(this.core, this.apiRoot, creds, opts.oauth);
    this.machines = new MachineCache(async (ids) => parseMachines(await this.t.get("machines/", { id: ids })), {
      maxAgeMs: opts.machineListMaxAgeMs,
      now: opts.clock?.now,
    });
    this.catalog = new MaasCatalog(this.t, () => this.machines.invalidate());
  }

  /** Every machine (one shared request) or, with a filter, the machines matching it. */
  async listMachines(filter?: MachineFilter, signal?: AbortSignal): Promise<readonly MaasMachine[]> {
    if (!filter) return this.machines.all();
    const q: Form = { hostname: filter.hostname, id: filter.systemId, mac_address: filter.macAddress };
    return parseMachines(await this.t.get("machines/", q, signal));
  }

  /** One machine, read directly (RACKFORM_ERR_MAAS_NOT_FOUND when absent). */
  async getMachine(systemId: string, signal?: AbortSignal): Promise<MaasMachine> {
    const m = parseMachine(await this.t.get(`machines/${enc(systemId)}/`, {}, signal));
    this.machines.sawDirect(systemId);
    return m;
  }

  /** Enlists a machine with redfish power; MAAS starts commissioning unless `commission` is false. */
  async createMachine(m: MaasCreateMachine, signal?: AbortSignal): Promise<MaasMachine> {
    const form: Form = {
      architecture: m.architecture,
      mac_addresses: m.macAddresses,
      hostname: m.hostname,
      description: m.description,
      domain: m.domain,
      pool: m.pool,
      zone: m.zone,
      commission: m.commission,
      ...this.powerForm(m.power),
    };
    return this.write(() => this.t.post("machines/", undefined, form, signal));
  }

  /** Changes the given fields of a machine. */
  async updateMachine(systemId: string, m: MaasUpdateMachine, signal?: AbortSignal): Promise<MaasMachine> {
    const form: Form = {
      hostname: m.hostname,
      description: m.description,
      architecture: m.architecture,
      pool: m.pool,
      zone: m.zone,
      ...(m.power ? this.powerForm(m.power) : {}),
    };
    return this.write(() => this.t.put(`machines/${enc(systemId)}/`, form, signal));
  }

  /** Deletes a machine; an absent machine counts as deleted. */
  async deleteMachine(systemId: string, signal?: AbortSignal): Promise<void> {
    await this.t.delete(`machines/${enc(systemId)}/`, signal);
    this.machines.invalidate();
  }

  /** Starts commissioning (and the given tests). */
  commission(systemId: string, o: MaasCommissionOptions = {}): Promise<MaasMachine> {
    return this.op(systemId, "commission", {
      enable_ssh: o.enableSsh,
      skip_networking: o.skipNetworking,
      skip_storage: o.skipStorage,
      commissioning_scripts: o.commissioningScripts?.join(","),
      testing_scripts: o.testingScripts?.join(","),
    });
  }

  /** Allocates a Ready machine to the API key's user, by system_id, hostname or tags. */
  allocate(
    by: { readonly systemId?: string; readonly hostname?: string; readonly tags?: readonly string[] },
    comment?: string,
  ): Promise<MaasMachine> {
    const form: Form = { system_id: by.systemId, name: by.hostname, tags: by.tags?.join(","), comment };
    return this.write(() => this.t.post("machines/", "allocate", form));
  }

  /** Deploys an allocated (or Ready) machine; user data is sent base64-encoded as MAAS requires. */
  deploy(systemId: string, o: MaasDeployOptions = {}): Promise<MaasMachine> {
    return this.op(systemId, "deploy", {
      osystem: o.osystem,
      distro_series: o.distroSeries,
      hwe_kernel: o.hweKernel,
      install_kvm: o.installKvm,
      user_data: o.userData === undefined ? undefined : Buffer.from(o.userData, "utf8").toString("base64"),
    });
  }

  /** Releases a machine, optionally erasing its disks. */
  release(systemId: string, o: MaasReleaseOptions = {}): Promise<MaasMachine> {
    return this.op(systemId, "release", {
      erase: o.erase,
      secure_erase: o.secureErase,
      quick_erase: o.quickErase,
      comment: o.comment,
    });
  }

  /** Powers a machine on through MAAS. */
  powerOn(systemId: string, comment?: string): Promise<MaasMachine> {
    return this.op(systemId, "power_on", { comment });
  }

  /** Powers a machine off; `soft` asks the OS to shut down. */
  powerOff(
    systemId: string,
    o: { readonly stopMode?: "hard" | "soft"; readonly comment?: string } = {},
  ): Promise<MaasMachine> {
    return this.op(systemId, "power_off", { stop_mode: o.stopMode, comment: o.comment });
  }

  /**
   * Asks the BMC (through MAAS) for the power state now: "on", "off", "unknown" or "error". A BMC that refused the
   * power driver's credentials is RACKFORM_ERR_MAAS_POWER_DENIED; one that did not answer is MAAS's HTTP 503.
   */
  async queryPowerState(systemId: string, signal?: AbortSignal): Promise<string> {
    const j = await this.t.get(`machines/${enc(systemId)}/`, { op: "query_power_state" }, signal).catch((e) => {
      throw powerQueryRefusal(e);
    });
    const state = (j as { state?: unknown }).state;
    return typeof state === "string" ? state : "unknown";
  }

  /** Marks a machine Broken. */
  markBroken(systemId: string, comment?: string): Promise<MaasMachine> {
    return this.op(systemId, "mark_broken", { comment });
  }

  /** Marks a Broken machine fixed (back to Ready). */
  markFixed(systemId: string, comment?: string): Promise<MaasMachine> {
    return this.op(systemId, "mark_fixed", { comment });
  }

  /**
   * Sets owner data keys of an allocated machine (op=set_owner_data; an empty value removes the key). MAAS drops all
   * of it when the machine is released.
   */
  setOwnerData(systemId: string, data: Readonly<Record<string, string>>, signal?: AbortSignal): Promise<MaasMachine> {
    return this.write(() => this.t.post(`machines/${enc(systemId)}/`, "set_owner_data", data, signal));
  }

  /** Aborts the current action (commissioning, deploying, releasing, testing). */
  abort(systemId: string, comment?: string): Promise<MaasMachine> {
    return this.op(systemId, "abort", { comment });
  }

  /** Runs hardware tests (e.g. ["smartctl-validate", "memtester"]). */
  test(
    systemId: string,
    o: { readonly testingScripts?: readonly string[]; readonly enableSsh?: boolean } = {},
  ): Promise<MaasMachine> {
    return this.op(systemId, "test", { testing_scripts: o.testingScripts?.join(","), enable_ssh: o.enableSsh });
  }

  /** Script result sets of a machine; `type` filters: "commissioning", "testing", "installation". */
  async scriptResults(systemId: string, type?: string, signal?: AbortSignal): Promise<MaasScriptResultSet[]> {
    return parseScriptResults(await this.t.get(`nodes/${enc(systemId)}/results/`, { type }, signal));
  }

  /** Events, newest first; for one machine when `systemId` is given. */
  async events(
    o: { readonly systemId?: string; readonly limit?: number; readonly level?: string } = {},
    signal?: AbortSignal,
  ): Promise<MaasEvent[]> {
    const q: Form = { op: "query", id: o.systemId, limit: o.limit, level: o.level };
    return parseEvents(await this.t.get("events/", q, signal));
  }

  /** Polls (through the shared list) until the machine reaches one of `wanted`; see WaitForStatusOptions. */
  waitForStatus(
    systemId: string,
    wanted: readonly (number | string)[],
    o: WaitForStatusOptions = {},
  ): Promise<MaasMachine> {
    // Each poll takes any list of this process's machines started since its previous read: many waits, one list.
    let mark: number | undefined;
    const read = async (id: string): Promise<MaasMachine> => {
      const m =
        (await this.machines.get(id, mark === undefined ? { fresh: true } : { newerThan: mark })) ??
        (await this.getMachine(id));
      mark = this.machines.mark();
      return m;
    };
    const events = (id: string) => this.events({ systemId: id, limit: 5 });
    const changed = (id: string, seen: string, signal: AbortSignal) =>
      new Promise<void>((resolve) => {
        if (signal.aborted) return;
        const off = this.machines.onList((list) => {
          const m = list.find((x) => x.systemId === id);
          if (m && progressKey(m) !== seen) {
            off();
            resolve();
          }
        });
        signal.addEventListener("abort", off, { once: true });
      });
    const deps = { read, events, changed, redactor: this.core.redactor, steps: this.steps, ...this.opts.clock };
    return waitForStatus(deps, systemId, wanted, o);
  }

  /** Closes the owned HTTP core (a shared core is left open). */
  async close(): Promise<void> {
    if (this.ownsCore) await this.core.close();
  }

  private powerForm(p: Partial<MaasRedfishPower>): Form {
    this.core.redactor.add(p.powerPass);
    return {
      power_type: "redfish",
      power_parameters_power_address: p.powerAddress,
      power_parameters_power_user: p.powerUser,
      power_parameters_power_pass: p.powerPass,
      power_parameters_node_id: p.nodeId,
    };
  }

  private op(systemId: string, op: string, form: Form): Promise<MaasMachine> {
    return this.write(() => this.t.post(`machines/${enc(systemId)}/`, op, form));
  }

  private async write(f: () => Promise<unknown>): Promise<MaasMachine> {
    try {
      return parseMachine(await f());
    } finally {
      // Even a failed write may have changed something; later reads must not reuse an older list.
      this.machines.invalidate();
    }
  }
}

function enc(id: string): string {
  return encodeURIComponent(id);
}
