/**
 * What the sushy-emulator contract files share: the run's emulator (test/setup/sushy-emulator.ts) and a RedfishClient
 * of it that records the client's log lines, so a test can say which requests were (not) sent.
 */
import { RedfishClient, type RedfishClientOptions } from "../../../src/clients/redfish/index.js";
import type { SushyEmulatorInfo } from "../../support/real-sushy.js";
import { sharedSushyEmulator } from "../../support/shared-counterparts.js";

export { SUSHY_SYSTEMS } from "../../support/real-sushy.js";

/** The run's emulator; fails (never skips) when the global setup did not start one. */
export function emulator(): Promise<SushyEmulatorInfo> {
  return sharedSushyEmulator();
}

/** A client of the emulator with its CA and credentials, and the lines it logged (already redacted). */
export function emulatorClient(
  info: SushyEmulatorInfo,
  opts: Partial<Pick<RedfishClientOptions, "auth" | "password" | "ca">> = {},
): { client: RedfishClient; log: string[] } {
  const log: string[] = [];
  const client = new RedfishClient({
    baseUrl: info.url,
    username: info.username,
    password: opts.password ?? info.password,
    ca: opts.ca ?? info.caPem,
    auth: opts.auth,
    http: { log: (line) => log.push(line), retry: { maxAttempts: 2, baseDelayMs: 50, maxDelayMs: 200 } },
  });
  return { client, log };
}
