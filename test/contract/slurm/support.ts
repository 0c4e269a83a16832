/** What the real-Slurm contract files share: the injected instance (a failure when absent), clients and a caught error. */
import { inject } from "vitest";
import { SlurmClient, SlurmError } from "../../../src/clients/slurm/index.js";
import type { RealSlurmInfo } from "../../support/real-slurm.js";

/** The run's real Slurm; throws (never skips) when the global setup did not start one. */
export function realSlurm(): RealSlurmInfo {
  const info = inject("realSlurm");
  if (!info)
    throw new Error(
      "no real Slurm: test/setup/slurm.ts starts it for the contract project (scripts/setup.sh installs it)",
    );
  return info;
}

/** A client of the real slurmrestd that reads fresh every time. */
export function client(info: RealSlurmInfo, opts: { token?: string; apiVersion?: string } = {}): SlurmClient {
  return new SlurmClient({
    url: info.url,
    user: info.user,
    token: opts.token ?? info.token,
    nodeCacheMaxAgeMs: 0,
    ...(opts.apiVersion ? { apiVersion: opts.apiVersion } : {}),
    http: { retry: { maxAttempts: 1 } },
  });
}

/** The SlurmError `p` rejects with. */
export async function caught(p: Promise<unknown>): Promise<SlurmError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof SlurmError) return e;
    throw e;
  }
  throw new Error("expected a SlurmError");
}
