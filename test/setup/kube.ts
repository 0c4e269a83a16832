/**
 * Global setup: one real kube-apiserver with its etcd (test/support/real-kube.ts) for the whole run when the contract
 * project is selected. Launched without waiting, so the other projects start at once; each file under
 * test/contract/kubernetes awaits `waitForKube(inject("realKube"))`. Its folder (etcd data, PKI, tokens, logs) is
 * removed at the end.
 */
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { launchRealKube, type RealKubeInfo } from "../support/real-kube.js";

declare module "vitest" {
  export interface ProvidedContext {
    realKube: RealKubeInfo | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide("realKube", null);
  if (!project.vitest.projects.some((p) => p.name === "contract")) return undefined;
  const dir = await mkdtemp(join(tmpdir(), "rf-kube-real-"));
  let kube: Awaited<ReturnType<typeof launchRealKube>>;
  try {
    kube = await launchRealKube(dir);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  project.provide("realKube", kube.info);
  return async () => {
    await kube.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
