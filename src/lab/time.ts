/**
 * Simulated time for the lab. Every long operation reads its duration from a profile and the clock, so tests can run
 * with zero delays (`instant`) or a manual clock while demos look like a real datacenter, only faster.
 */

/** Durations (milliseconds, before the speed factor) of every long operation the lab simulates. */
export interface TimeProfile {
  readonly name: string;
  /** BMC boot after its outlet is switched on (BMC unreachable meanwhile). */
  readonly bmcBootMs: number;
  /** Host power-on (PoweringOn → On). */
  readonly powerOnMs: number;
  /** Host power-off (PoweringOff → Off). */
  readonly powerOffMs: number;
  /** Off time of a PDU outlet PowerCycle. */
  readonly outletCycleMs: number;
  /** SimpleUpdate task duration. */
  readonly firmwareUpdateMs: number;
  /** Manager (BMC) reset: unreachable for this long. */
  readonly bmcResetMs: number;
  /** Durations used by the simulated backends (MAAS, Ironic) and acceptance; the lab core only carries them. */
  readonly commissionMs: number;
  readonly deployMs: number;
  readonly burnInMs: number;
  readonly cleaningMs: number;
  /** slurm.conf SlurmdTimeout: a registered node whose slurmd stops answering goes DOWN "Not responding" (real: 300 s). */
  readonly slurmdTimeoutMs: number;
  /** kube-controller-manager --node-monitor-grace-period: a silent kubelet's Node goes NotReady (real: 40 s). */
  readonly nodeMonitorGraceMs: number;
  /** Ironic [conductor]sync_power_state_interval: how often the conductor reads power from the BMCs (real: 60 s). */
  readonly powerSyncMs: number;
  /** Ironic [conductor]power_failure_recovery_interval: re-reads of nodes in power-failure maintenance (real: 300 s). */
  readonly powerRecoveryMs: number;
  /**
   * MAAS's power-action retry unit: a failed power change is retried after 1, 2, 2, 4, 6, 8 and 12 of these
   * (provisioningserver.drivers.power DEFAULT_WAITING_POLICY, in seconds on a real region: 1000).
   */
  readonly powerRetryUnitMs: number;
}

/** Profiles by name: `instant` for unit tests, `demo` for an 8-node rack well under a minute, `realistic` for soak tests. */
export const PROFILES: Readonly<Record<string, TimeProfile>> = {
  instant: {
    name: "instant",
    bmcBootMs: 0,
    powerOnMs: 0,
    powerOffMs: 0,
    outletCycleMs: 0,
    firmwareUpdateMs: 0,
    bmcResetMs: 0,
    commissionMs: 0,
    deployMs: 0,
    burnInMs: 0,
    cleaningMs: 0,
    slurmdTimeoutMs: 0,
    nodeMonitorGraceMs: 0,
    powerSyncMs: 0,
    powerRecoveryMs: 0,
    powerRetryUnitMs: 0,
  },
  demo: {
    name: "demo",
    bmcBootMs: 500,
    powerOnMs: 200,
    powerOffMs: 100,
    outletCycleMs: 300,
    firmwareUpdateMs: 2_000,
    bmcResetMs: 500,
    commissionMs: 3_000,
    deployMs: 5_000,
    burnInMs: 3_000,
    cleaningMs: 2_000,
    slurmdTimeoutMs: 3_000,
    nodeMonitorGraceMs: 1_000,
    powerSyncMs: 1_000,
    powerRecoveryMs: 3_000,
    powerRetryUnitMs: 50,
  },
  realistic: {
    name: "realistic",
    bmcBootMs: 120_000,
    powerOnMs: 5_000,
    powerOffMs: 3_000,
    outletCycleMs: 5_000,
    firmwareUpdateMs: 600_000,
    bmcResetMs: 120_000,
    commissionMs: 600_000,
    deployMs: 900_000,
    burnInMs: 3_600_000,
    cleaningMs: 600_000,
    slurmdTimeoutMs: 300_000,
    nodeMonitorGraceMs: 40_000,
    powerSyncMs: 60_000,
    powerRecoveryMs: 300_000,
    powerRetryUnitMs: 1_000,
  },
};

/** Names of the built-in profiles. */
export type ProfileName = "instant" | "demo" | "realistic";

/** Looks up a profile by name; throws naming the valid choices. */
export function profileByName(name: string): TimeProfile {
  const p = PROFILES[name];
  if (!p) throw new Error(`unknown lab time profile "${name}" (use one of: ${Object.keys(PROFILES).join(", ")})`);
  return p;
}

/** A clock the lab reads; injectable so tests can advance time by hand. */
export interface Clock {
  /** Milliseconds since the epoch, simulated. */
  now(): number;
  /** Resolves after `ms` of simulated time. */
  sleep(ms: number): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)).unref?.()),
};

/** A clock that only moves when told to; sleepers wake when `advance` passes their deadline. */
export class ManualClock implements Clock {
  private t: number;
  private sleepers: { at: number; wake: () => void }[] = [];
  /** Starts at `startMs` (default 2026-01-01T00:00:00Z) so timestamps in payloads are stable. */
  constructor(startMs = Date.UTC(2026, 0, 1)) {
    this.t = startMs;
  }
  now(): number {
    return this.t;
  }
  sleep(ms: number): Promise<void> {
    return new Promise((wake) => {
      if (ms <= 0) return wake();
      this.sleepers.push({ at: this.t + ms, wake });
    });
  }
  /** Moves time forward and wakes every sleeper whose deadline passed. */
  advance(ms: number): void {
    this.t += ms;
    const due = this.sleepers.filter((s) => s.at <= this.t);
    this.sleepers = this.sleepers.filter((s) => s.at > this.t);
    for (const s of due) s.wake();
  }
}

/** Profile durations scaled by a speed factor (2 = twice as fast). */
export class LabTime {
  /** The profile scaled by `speed`. */
  readonly scaled: TimeProfile;
  constructor(
    readonly clock: Clock,
    readonly profile: TimeProfile,
    readonly speed = 1,
  ) {
    if (!(speed > 0)) throw new Error(`lab speed must be > 0, got ${speed}`);
    const entries = Object.entries(profile).map(([k, v]) => [k, typeof v === "number" ? Math.round(v / speed) : v]);
    this.scaled = Object.fromEntries(entries) as unknown as TimeProfile;
  }
  /** Simulated now in ms. */
  now(): number {
    return this.clock.now();
  }
  /** Duration of one named operation after the speed factor. */
  duration(op: Exclude<keyof TimeProfile, "name">): number {
    return this.scaled[op];
  }
}
