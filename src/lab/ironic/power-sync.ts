/**
 * The conductor's periodic power-state sync and power-failure recovery, as Ironic's `[conductor]` options make them:
 * every `sync_power_state_interval` the power state of each node (not in maintenance, not locked, not in a wait state)
 * is read from its BMC and, with `force_power_state_during_sync = false` (the default), written to the database. After
 * `power_state_sync_max_retries` failed reads in a row the node goes to maintenance with fault `power failure` and
 * power_state None; every `power_failure_recovery_interval` such nodes are read again, and one that answers leaves
 * maintenance with its power state recorded.
 */
import type { LabClock } from "../maas/clock.js";
import type { BmcDriver, RedfishDriverInfo } from "./bmc.js";
import { S } from "./states.js";
import type { IronicStore, NodeRecord } from "./store.js";

/** The `[conductor]` settings the sync models (ms of the injected clock). */
export interface PowerSyncOptions {
  /** sync_power_state_interval. Ironic's default: 60 s. */
  readonly intervalMs: number;
  /** power_state_sync_max_retries. @default 3 (Ironic's) */
  readonly maxRetries?: number;
  /** power_failure_recovery_interval. Ironic's default: 300 s. */
  readonly recoveryIntervalMs: number;
  /** The shortest wait between two passes, so that a zero interval (the lab's `instant` profile) does not spin. @default 250 */
  readonly minPassMs?: number;
}

/** Ironic's SYNC_EXCLUDED_STATES, plus enroll (whose credentials are not verified yet). */
const EXCLUDED = new Set<string>([
  S.ENROLL,
  "deploy wait",
  "clean wait",
  "inspect wait",
  "service wait",
  "rescue wait",
]);

/** Starts both periodic tasks; returns a function that stops them. */
export function startPowerSync(
  store: IronicStore,
  clock: LabClock,
  bmc: BmcDriver,
  opts: PowerSyncOptions,
): () => void {
  const maxRetries = opts.maxRetries ?? 3;
  const minPass = opts.minPassMs ?? 250;
  const failures = new Map<string, number>();
  let stopped = false;
  const cancels = new Set<() => void>();

  const info = (n: NodeRecord) => n.driver_info as RedfishDriverInfo;
  const busy = (n: NodeRecord) => n.reservation !== null || n.target_power_state !== null;

  async function syncOne(n: NodeRecord): Promise<void> {
    if (n.driver !== "redfish" || n.maintenance || busy(n) || EXCLUDED.has(n.provision_state)) return;
    try {
      const state = await bmc.getPowerState(info(n));
      failures.delete(n.uuid);
      if (n.maintenance || busy(n) || n.power_state === state) return;
      n.power_state = state;
      store.touch(n);
    } catch (e) {
      const count = (failures.get(n.uuid) ?? 0) + 1;
      failures.set(n.uuid, count);
      if (count < maxRetries || n.maintenance || busy(n)) return;
      failures.delete(n.uuid);
      n.maintenance = true;
      n.fault = "power failure";
      n.maintenance_reason =
        `During sync_power_state, max retries exceeded for node ${n.uuid}, node state None does not match expected ` +
        `state '${n.power_state}'. Updating DB state to 'None' Switching node to maintenance mode. ` +
        `Error: ${(e as Error).message}`;
      n.power_state = null;
      store.touch(n);
    }
  }

  async function recoverOne(n: NodeRecord): Promise<void> {
    if (n.driver !== "redfish" || !n.maintenance || n.fault !== "power failure") return;
    try {
      const state = await bmc.getPowerState(info(n));
      if (!n.maintenance || n.fault !== "power failure") return;
      n.power_state = state;
      n.maintenance = false;
      n.maintenance_reason = null;
      n.fault = null;
      store.touch(n);
    } catch {
      // still unreachable: it stays in maintenance until a later pass
    }
  }

  function every(ms: number, pass: (n: NodeRecord) => Promise<void>): void {
    const cancel = clock.setTimer(
      async () => {
        cancels.delete(cancel);
        if (stopped) return;
        await Promise.all([...store.nodes.values()].map((n) => pass(n).catch(() => undefined)));
        if (!stopped) every(ms, pass);
      },
      Math.max(ms, minPass),
    );
    cancels.add(cancel);
  }

  every(opts.intervalMs, syncOne);
  every(opts.recoveryIntervalMs, recoverOne);
  return () => {
    stopped = true;
    for (const c of cancels) c();
    cancels.clear();
  };
}
