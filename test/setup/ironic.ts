/**
 * Global setup: one real Ironic (Debian's 21.4, fake-hardware and redfish) for the whole run when the contract project
 * is selected. Launched without waiting, so the other projects start at once; each contract file awaits
 * `waitForIronic(inject("realIronic"))`. Its state directory is removed at the end.
 */
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { launchRealIronic, type RealIronicInfo } from "../support/real-ironic.js";

declare module "vitest" {
  export interface ProvidedContext {
    realIronic: RealIronicInfo | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide("realIronic", null);
  if (!project.vitest.projects.some((p) => p.name === "contract")) return undefined;
  const dir = await mkdtemp(join(tmpdir(), "rf-ironic-real-"));
  const ironic = await launchRealIronic(dir);
  project.provide("realIronic", { url: ironic.url, dir: ironic.dir });
  return async () => {
    await ironic.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
