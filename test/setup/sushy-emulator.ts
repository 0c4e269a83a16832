/**
 * Global setup: one sushy-tools Redfish emulator (fake system driver, TLS with a test CA, HTTP Basic auth) for the whole
 * run when the contract project is selected. Launched without waiting, so the other projects start at once; each
 * file under test/contract/sushy-emulator awaits `waitForSushy(inject("sushyEmulator"))`. Its folder (state, PKI,
 * htpasswd, log) is removed at the end.
 */
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { launchSushyEmulator, type SushyEmulatorInfo } from "../support/real-sushy.js";

declare module "vitest" {
  export interface ProvidedContext {
    sushyEmulator: SushyEmulatorInfo | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide("sushyEmulator", null);
  if (!project.vitest.projects.some((p) => p.name === "contract")) return undefined;
  const dir = await mkdtemp(join(tmpdir(), "rf-sushy-emulator-"));
  let emulator: Awaited<ReturnType<typeof launchSushyEmulator>>;
  try {
    emulator = await launchSushyEmulator(dir);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  const { ready: _ready, stop: _stop, ...info } = emulator;
  project.provide("sushyEmulator", info);
  return async () => {
    await emulator.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
