/**
 * ProviderData: what configure hands every resource and data source — the resolved provider block (config.ts), one
 * HTTP core per process so connections are reused, the Redfish clients, and the process-wide budget, image work and
 * host sightings.
 */

import { createHash } from "node:crypto";
import type { HttpCore } from "../../clients/http/index.js";
import { StepDurations } from "../../clients/http/poll.js";
import { RedfishClient } from "../../clients/redfish/index.js";
import { DisruptionBudget } from "../budget/disruption-budget.js";
import { HealthBudget } from "../budget/health-budget.js";
import { CredentialFingerprints } from "../shared/credential-fingerprint.js";
import type { HostPace } from "../shared/host-power.js";
import { HostSightings } from "../shared/host-sightings.js";
import { ImageWork } from "../shared/image-work.js";
import { PowerOnStagger, pduCircuit, type StaggerClock } from "../shared/power-on-stagger.js";
import { RolloutHandovers } from "../shared/rollout-handover.js";
import type { BackendSettings, RedfishSettings } from "./config.js";
import { SchedulerClients } from "./scheduler-config.js";
import { DEFAULT_HOST_POLL, DEFAULT_TIMINGS, type ProviderTimings } from "./timings.js";

/** What ProviderData is made of: the resolved settings, the shared HTTP core, and the clocks tests may replace. */
export interface ProviderDataInit {
  readonly redfish: RedfishSettings;
  readonly core: HttpCore;
  /** @default none configured */
  readonly backends?: BackendSettings;
  /** @default no scheduler configured */
  readonly schedulers?: SchedulerClients;
  /** @default DEFAULT_TIMINGS */
  readonly timings?: ProviderTimings;
  /** Clock of the power-on stagger (tests drive it by hand). */
  readonly powerOnClock?: StaggerClock;
}

/** What every resource receives from configure. */
export class ProviderData {
  private readonly clients = new Map<string, RedfishClient>();
  private fingerprints: CredentialFingerprints | undefined;
  /** Power-on spacing per PDU (power-on-stagger.ts). */
  readonly stagger: PowerOnStagger;
  /** Cluster members' disruption budget: how many nodes of a key may be drained at once in this run. */
  readonly budget = new DisruptionBudget();
  /** Image uploads and node teardowns under way, which order deployments and images (image-work.ts). */
  readonly images = new ImageWork();
  /** Rolling reimages offered by deployments and gates to the nodes' cluster members (rollout-handover.ts). */
  readonly rollouts = new RolloutHandovers();
  /** Health remediation steps taken per budget in this process, against max_unhealthy (health-budget.ts). */
  readonly unhealthy = new HealthBudget();
  /** Host power this process read from BMCs, which spares deployments a backend's power query (host-sightings.ts). */
  readonly sightings = new HostSightings();
  /** How long hosts' resets took in this process, so a roll's later nodes are polled around it (host-power.ts). */
  private readonly hostSteps = new StepDurations();

  readonly redfish: RedfishSettings;
  readonly core: HttpCore;
  readonly backends: BackendSettings;
  /** Slurm and Kubernetes clients (scheduler-config.ts), made on first use. */
  readonly schedulers: SchedulerClients;
  /** Poll intervals of every wait (timings.ts). */
  readonly timings: ProviderTimings;

  constructor(init: ProviderDataInit) {
    this.redfish = init.redfish;
    this.core = init.core;
    this.backends = init.backends ?? {};
    this.schedulers = init.schedulers ?? new SchedulerClients();
    this.timings = init.timings ?? DEFAULT_TIMINGS;
    this.stagger = new PowerOnStagger(init.redfish.powerOnIntervalMs, init.powerOnClock);
  }

  /** How a wait on a host's power or firmware after a reset polls. */
  get hostPace(): HostPace {
    return { pace: this.timings.hostPollMs ?? DEFAULT_HOST_POLL, steps: this.hostSteps };
  }

  /** The Redfish client of one endpoint, shared by every resource in this process (one session per BMC). */
  redfishClient(endpoint: string): RedfishClient {
    let c = this.clients.get(endpoint);
    if (!c) {
      c = new RedfishClient({
        baseUrl: endpoint,
        username: this.redfish.username ?? "",
        password: this.redfish.password ?? "",
        core: this.core,
        maxConcurrent: this.redfish.maxConcurrent,
      });
      this.clients.set(endpoint, c);
    }
    return c;
  }

  /**
   * Fingerprints of the BMC credentials the backends get (credential-fingerprint.ts): "unknown" while the provider
   * configuration is not known yet, undefined when no username or password is set.
   */
  bmcFingerprints(): CredentialFingerprints | "unknown" | undefined {
    if (this.redfish.credentialsUnknown) return "unknown";
    const { username, password } = this.redfish;
    if (!username || !password) return undefined;
    this.fingerprints ??= new CredentialFingerprints(username, password);
    return this.fingerprints;
  }

  /** Logs out of every BMC and PDU session this process opened (Redfish services allow few); never rejects. */
  /**
   * The client of a BlueField DPU's BMC: its own credentials when the resource names them, else the provider's
   * redfish ones. Kept with the BMC clients, so its session is released at close like theirs.
   */
  dpuClient(endpoint: string, username?: string, password?: string): RedfishClient {
    const user = username ?? this.redfish.username ?? "";
    const key = `dpu:${endpoint}#${user}#${createHash("sha256")
      .update(password ?? "")
      .digest("hex")
      .slice(0, 16)}`;
    let c = this.clients.get(key);
    if (!c) {
      c = new RedfishClient({
        baseUrl: endpoint,
        username: user,
        password: password ?? this.redfish.password ?? "",
        core: this.core,
        maxConcurrent: this.redfish.maxConcurrent,
      });
      this.clients.set(key, c);
    }
    return c;
  }

  async closeSessions(): Promise<void> {
    await Promise.allSettled([...this.clients.values()].map((c) => c.logout()));
  }

  /** Waits for this power-on's turn on its PDU: power-ons on one PDU are spaced by power_on_interval. */
  powerOnTurn(endpointOrigin: string, pduId: string): Promise<void> {
    return this.stagger.turn(pduCircuit(endpointOrigin, pduId));
  }
}
