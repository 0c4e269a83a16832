/**
 * The counterparts started once per run by the global setups (test/setup/*.ts), as test files reach them. Only for
 * test files: this module uses vitest's `inject`, which works in a test worker, not in the global setup's process.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { openDatabase, type Postgres, startPostgres } from "./postgres.js";
import { type RealIronicInfo, waitForIronic } from "./real-ironic.js";
import { type SushyEmulatorInfo, waitForSushy } from "./real-sushy.js";
import { until } from "./until.js";

/**
 * The run's real Ironic (fake-hardware and redfish), once it lists its drivers, held exclusively until `release()`
 * (call it in afterAll): the files that use it run one at a time against it — its single conductor's timing (a
 * deploy's node lock, a redfish inspection) is part of what they check — while every other file runs in parallel.
 */
export async function sharedRealIronic(): Promise<RealIronicInfo & { release(): void }> {
  const info = inject("realIronic");
  if (!info) {
    throw new Error(
      "no real Ironic in this run: test/setup/ironic.ts starts one when the contract project is selected (vitest.config.ts)",
    );
  }
  await waitForIronic(info);
  const lock = join(info.dir, "in-use");
  await until(
    `the real Ironic to be free (${lock})`,
    () => {
      try {
        mkdirSync(lock); // atomic: exactly one file holds it
        return true;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
        return false;
      }
    },
    { timeoutMs: 10 * 60_000, everyMs: 100 },
  );
  return { ...info, release: () => rmSync(lock, { recursive: true, force: true }) };
}

/**
 * The run's sushy-tools emulator, once its service root answers. Shared by its files at once: each works on a fake
 * system of its own (SUSHY_SYSTEMS in real-sushy.ts).
 */
export async function sharedSushyEmulator(): Promise<SushyEmulatorInfo> {
  const info = inject("sushyEmulator");
  if (!info) {
    throw new Error(
      "no sushy-tools emulator in this run: test/setup/sushy-emulator.ts starts one when the contract project is selected (vitest.config.ts)",
    );
  }
  await waitForSushy(info);
  return info;
}

/** A fresh database on the run's PostgreSQL server (dropped by `stop`); a server of its own outside the e2e projects. */
export function testDatabase(tag: string): Promise<Postgres> {
  const server = inject("postgres");
  if (!server) return startPostgres();
  return openDatabase(server, `rf_${tag.replace(/\W/g, "_")}_${randomBytes(4).toString("hex")}`);
}
