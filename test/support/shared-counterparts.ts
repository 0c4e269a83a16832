/**
 * The counterparts started once per run by the global setups (test/setup/*.ts), as test files reach them. Only for
 * test files: this module uses vitest's `inject`, which works in a test worker, not in the global setup's process.
 */
import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import { openDatabase, type Postgres, startPostgres } from "./postgres.js";
import { type RealIronicInfo, waitForIronic } from "./real-ironic.js";

/** The run's real Ironic (fake-hardware and redfish), once it lists its drivers. */
export async function sharedRealIronic(): Promise<RealIronicInfo> {
  const info = inject("realIronic");
  if (!info) {
    throw new Error(
      "no real Ironic in this run: test/setup/ironic.ts starts one when the contract project is selected (vitest.config.ts)",
    );
  }
  await waitForIronic(info);
  return info;
}

/** A fresh database on the run's PostgreSQL server (dropped by `stop`); a server of its own outside the e2e projects. */
export function testDatabase(tag: string): Promise<Postgres> {
  const server = inject("postgres");
  if (!server) return startPostgres();
  return openDatabase(server, `rf_${tag.replace(/\W/g, "_")}_${randomBytes(4).toString("hex")}`);
}
