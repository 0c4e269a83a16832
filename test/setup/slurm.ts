/**
 * Global setup: one real Slurm (Debian's 22.05: munged, slurmctld, slurmrestd with JWT) for the whole run when the
 * contract or an e2e project is selected (test/support/real-slurm.ts). Test files read where it answers with
 * `inject("realSlurm")` and start the real slurmd daemons they need. Its directory, with every daemon a test left
 * running in it, is stopped and removed at the end.
 */
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { launchRealSlurm, type RealSlurmInfo } from "../support/real-slurm.js";

declare module "vitest" {
  export interface ProvidedContext {
    realSlurm: RealSlurmInfo | null;
  }
}

/** The projects whose files drive the real Slurm. */
const USERS = ["contract", "e2e-terraform", "e2e-tofu"];

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  project.provide("realSlurm", null);
  if (!project.vitest.projects.some((p) => USERS.includes(p.name))) return undefined;
  const dir = await mkdtemp(join(tmpdir(), "rf-slurm-real-"));
  let slurm: Awaited<ReturnType<typeof launchRealSlurm>>;
  try {
    slurm = await launchRealSlurm(dir, ["ct-dyn1"]);
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  project.provide("realSlurm", slurm.info);
  return async () => {
    await slurm.stop();
    rmSync(dir, { recursive: true, force: true });
  };
}
