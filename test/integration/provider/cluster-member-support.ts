/**
 * Drives rackform_cluster_member through the provider server (in process) against the lab's slurmrestd and Kubernetes
 * API on loopback, started here directly so nodes can be registered, jobs started and evictions blocked by hand.
 */
import { afterEach, beforeEach, expect } from "vitest";
import { type Diagnostic, formatPath, type ObjectValue, type Value } from "../../../src/framework/index.js";
import {
  createKubernetesApi,
  createSlurmApi,
  type KubernetesApi,
  type ListeningServer,
  type SlurmApi,
} from "../../../src/lab/scheduler/index.js";
import { ProviderData, providerSchema } from "../../../src/provider/config/config.js";
import { SchedulerClients } from "../../../src/provider/config/scheduler-config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { clusterMemberResource } from "../../../src/provider/resources/cluster-member.js";
import { clusterMemberDeps } from "../../../src/provider/resources/cluster-member-ops.js";
import { clusterMemberSchema } from "../../../src/provider/resources/cluster-member-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { resourceDriver } from "../../support/provider-rpc.js";

/** The resource type under test. */
export const T = "rackform_cluster_member";

/** Plan, apply, destroy and refresh of it, as the engine would (test/support/provider-rpc.ts). */
export const { apply, plan, destroy, read } = resourceDriver(T, clusterMemberSchema);

/** Secrets the lab accepts; tests check they never surface. */
export const SLURM_TOKEN = "slurm-jwt-SECRET-4b1d";
export const KUBE_TOKEN = "kube-bearer-SECRET-77aa";

/** "severity summary @ path: detail" lines, for readable assertion failures. */
export const lines = (ds: readonly Diagnostic[]) =>
  ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}: ${d.detail}`).join("\n");

/** Both lab schedulers on 127.0.0.1 and a configured provider server whose polls are short. */
export interface SchedulerRig {
  readonly slurm: SlurmApi;
  readonly kube: KubernetesApi;
  readonly srv: ProviderServer;
  readonly slurmUrl: string;
  readonly kubeUrl: string;
  close(): Promise<void>;
}

/**
 * Registers a file's beforeEach (a fresh rig per test) and afterEach (that rig closed); the rig returned is always the
 * current test's.
 */
export function rigPerTest(): SchedulerRig {
  let current: SchedulerRig | undefined;
  const now = (): SchedulerRig => {
    if (!current) throw new Error("rigPerTest: the rig is started in beforeEach");
    return current;
  };
  beforeEach(async () => {
    current = await startRig();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return {
    get slurm() {
      return now().slurm;
    },
    get kube() {
      return now().kube;
    },
    get srv() {
      return now().srv;
    },
    get slurmUrl() {
      return now().slurmUrl;
    },
    get kubeUrl() {
      return now().kubeUrl;
    },
    close: () => now().close(),
  };
}

/** A `timeouts` block: every timeout null, then `set`. */
export const timeouts = (set: Record<string, string>) => ({
  create: null,
  read: null,
  update: null,
  delete: null,
  ...set,
});

/** Starts the lab's slurmrestd and Kubernetes API and a provider configured for them. */
export async function startRig(opts: { readonly nodeCacheMaxAgeMs?: number } = {}): Promise<SchedulerRig> {
  const slurm = createSlurmApi({ jwtTokens: { rackform: SLURM_TOKEN } });
  const kube = createKubernetesApi({ token: KUBE_TOKEN });
  const servers: ListeningServer[] = [await slurm.listen("127.0.0.1", 0), await kube.listen("127.0.0.1", 0)];
  let data: ProviderData | undefined;
  // Polls every 20 ms: the lab runs on a fast profile, so a real-hardware interval would only be waited out.
  const provider = rackformProvider({
    // Lists are not kept between reads: each step of these tests stands for a new plan, which the engines run in a
    // new provider process.
    timings: { readyPollMs: 20, backendPollMs: 20, memberPollMs: 20, refreshListMaxAgeMs: 0 },
  });
  const srv = createServer({
    ...provider,
    async configure(req, resp) {
      await provider.configure(req, resp);
      const d = resp.resourceData as ProviderData;
      // Tests change nodes behind the provider's back and read at once: no shared read window here.
      const schedulers = new SchedulerClients(d.schedulers.slurmSettings, d.schedulers.kubernetesSettings, {
        nodeCacheMaxAgeMs: opts.nodeCacheMaxAgeMs ?? 0,
      });
      data = new ProviderData({ redfish: d.redfish, core: d.core, backends: d.backends, schedulers });
      resp.resourceData = data;
    },
    resources: () => [clusterMemberResource((d) => ({ ...clusterMemberDeps(d), pollMs: 20 }))],
  });
  const config = configOf(providerSchema, {
    slurm: { url: servers[0].url, user: "rackform", token: SLURM_TOKEN },
    kubernetes: { url: servers[1].url, token: KUBE_TOKEN, ca_file: null },
  });
  const r = await srv.configureProvider({ terraformVersion: "1.11.4", config });
  expect(lines(r.diagnostics)).toBe("");
  return {
    slurm,
    kube,
    srv,
    slurmUrl: servers[0].url,
    kubeUrl: servers[1].url,
    async close() {
      await data?.schedulers.close();
      await Promise.all(servers.map((s) => s.close()));
    },
  };
}

/** A member config: every attribute null, then `set`. */
export function member(set: Record<string, Value>): ObjectValue {
  return configOf(clusterMemberSchema, set);
}

/**
 * The destroy half of a replacement (a reimage onto a new gate), as the engine runs it: it gets the replacement plan's
 * private data, which says the member goes on (so the node is only drained, not removed from its scheduler).
 */
export async function destroyForReplacement(srv: ProviderServer, state: ObjectValue, config: ObjectValue) {
  const p = await plan(srv, config, state);
  expect(p.requiresReplace.length).toBeGreaterThan(0);
  return destroy(srv, state, p.plannedPrivate);
}

/** Every secret the rig uses must be absent from `x` (diagnostics, state). */
export function expectNoSecrets(x: unknown): void {
  const text = JSON.stringify(x);
  expect(text).not.toContain(SLURM_TOKEN);
  expect(text).not.toContain(KUBE_TOKEN);
}
