/**
 * Rack-level e2e ground: the demo's generated configuration (outlet → bmc → machine → deployment → acceptance →
 * cluster_member per node) for a chosen backend and set of lab nodes, driven by a real engine, and readers for what
 * the engine recorded, what it plans and what the lab's Slurm reports.
 */
import { createHash } from "node:crypto";
import { expect } from "vitest";
import { uploadImages } from "../../src/cli/demo.js";
import { type DemoConfigOptions, type DemoImage, demoConfig } from "../../src/cli/demo-config.js";
import { KubernetesClient } from "../../src/clients/kubernetes/index.js";
import { SlurmClient } from "../../src/clients/slurm/index.js";
import type { Lab } from "../../src/lab/index.js";
import { type Engine, Workdir } from "./engines.js";

/** The golden image the rack deploys, as the demo does. */
export const GOLDEN_IMAGE: DemoImage = {
  name: "ubuntu-gpu",
  version: "2026.06.2",
  sha256: createHash("sha256").update("ubuntu-gpu-2026.06.2").digest("hex"),
};

/** The chain's resource types, in the order a node walks them. */
export const CHAIN = [
  "rackform_pdu_outlet",
  "rackform_bmc",
  "rackform_machine",
  "rackform_deployment",
  "rackform_acceptance",
  "rackform_cluster_member",
] as const;

/** A resource as `show -json` reports it from state. */
export interface ShownResource {
  readonly address: string;
  readonly type: string;
  readonly name: string;
  readonly values: Record<string, unknown>;
}

/** One planned change as `show -json <planfile>` reports it. */
export interface PlannedChange {
  readonly address: string;
  readonly type: string;
  readonly name: string;
  readonly actions: readonly string[];
}

/** The HCL resource name the demo configuration gives a node. */
export const resourceName = (node: string): string => node.replaceAll("-", "_");

/** Uploads the golden image to the lab MAAS as custom/<name>-<version>, as an operator does before deploying. */
export async function uploadGoldenImage(lab: Lab, image: DemoImage = GOLDEN_IMAGE): Promise<void> {
  if (!lab.info.maas) throw new Error("the lab started without MAAS");
  await uploadImages(lab.info, [image]);
}

/** A golden image of another version (sha256 derived from name and version, as GOLDEN_IMAGE's). */
export function goldenImage(version: string): DemoImage {
  const name = GOLDEN_IMAGE.name;
  return { name, version, sha256: createHash("sha256").update(`${name}-${version}`).digest("hex") };
}

/** What a rack stack deploys beyond the demo's defaults. */
export interface RackOptions {
  /** @default GOLDEN_IMAGE */
  readonly image?: DemoImage;
  /** Every member's max_unavailable. @default unset (no limit) */
  readonly maxUnavailable?: number;
  /** The scheduler every node joins. @default "slurm" */
  readonly scheduler?: "slurm" | "kubernetes";
  /** Reimage in place through each member (DemoConfigOptions.rolling). @default true when maxUnavailable is set */
  readonly rolling?: boolean;
  /** Firmware baselines and BIOS settings by node name (DemoConfigOptions.firmware). @default none */
  readonly firmware?: DemoConfigOptions["firmware"];
  /** The health remediation ladder (DemoConfigOptions.remediation). @default off */
  readonly remediation?: DemoConfigOptions["remediation"];
  /** Evidence max age for every node or by node (DemoConfigOptions.evidenceMaxAge). @default none */
  readonly evidenceMaxAge?: DemoConfigOptions["evidenceMaxAge"];
  /** Secure Boot and attestation (DemoConfigOptions.trust). @default neither */
  readonly trust?: DemoConfigOptions["trust"];
}

/** The demo configuration for `nodes` on `backend` (main.tf of a rack stack); rewrite it to change the rack. */
export function rackConfig(
  lab: Lab,
  backend: "maas" | "ironic",
  nodes: readonly string[],
  opts: RackOptions = {},
): string {
  const extra = {
    ...(opts.maxUnavailable !== undefined ? { maxUnavailable: opts.maxUnavailable } : {}),
    ...(opts.scheduler !== undefined ? { scheduler: opts.scheduler } : {}),
    ...(opts.rolling !== undefined ? { rolling: opts.rolling } : {}),
    ...(opts.firmware !== undefined ? { firmware: opts.firmware } : {}),
    ...(opts.remediation !== undefined ? { remediation: opts.remediation } : {}),
    ...(opts.evidenceMaxAge !== undefined ? { evidenceMaxAge: opts.evidenceMaxAge } : {}),
    ...(opts.trust !== undefined ? { trust: opts.trust } : {}),
  };
  return demoConfig(lab.info, opts.image ?? GOLDEN_IMAGE, { backend, nodes, ...extra });
}

/** A working directory holding the demo configuration for `nodes` on `backend`, secrets passed as TF_VAR_*. */
export async function rackStack(
  eng: Engine,
  cliConfig: string,
  lab: Lab,
  backend: "maas" | "ironic",
  nodes: readonly string[],
  opts: RackOptions = {},
): Promise<Workdir> {
  const slurm = lab.info.slurm;
  const kube = lab.info.kubernetes;
  if (!slurm || !kube) throw new Error("the lab started without Slurm or Kubernetes");
  const env: Record<string, string> = {
    TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
    ...(opts.scheduler === "kubernetes" ? { TF_VAR_kube_token: kube.token } : { TF_VAR_slurm_token: slurm.token }),
  };
  if (backend === "maas") env.TF_VAR_maas_api_key = lab.info.maas!.apiKey;
  return Workdir.create(eng, cliConfig, { "main.tf": rackConfig(lab, backend, nodes, opts) }, env);
}

/** Writes `files` (e.g. rotatedVars) into a rack stack, then init and apply: the converged rack a case starts from. */
export async function converged(w: Workdir, files: Record<string, string> = {}): Promise<Workdir> {
  await w.write(files);
  await w.ok(["init", "-no-color"]);
  await w.ok(["apply", "-auto-approve", "-no-color"]);
  return w;
}

/** The resources in the engine's state (`show -json`). */
export async function shownState(w: Workdir): Promise<ShownResource[]> {
  const r = await w.ok(["show", "-json", "-no-color"]);
  const shown = JSON.parse(r.stdout) as { values?: { root_module?: { resources?: ShownResource[] } } };
  return shown.values?.root_module?.resources ?? [];
}

/** Plans into a file and returns its resource_changes (`plan -out` then `show -json <plan>`). */
export async function plannedChanges(w: Workdir): Promise<PlannedChange[]> {
  await w.ok(["plan", "-out=rack.tfplan", "-no-color"]);
  const r = await w.ok(["show", "-json", "-no-color", "rack.tfplan"]);
  const plan = JSON.parse(r.stdout) as {
    resource_changes?: { address: string; type: string; name: string; change: { actions: string[] } }[];
  };
  return (plan.resource_changes ?? []).map((c) => ({
    address: c.address,
    type: c.type,
    name: c.name,
    actions: c.change.actions,
  }));
}

/**
 * Plans into rack.tfplan and expects exactly `expected` to change (an address alone is an in-place update, else
 * "<address> <actions>"), applies that plan, and expects the next plan empty: a drift healed in one apply.
 */
export async function appliesOnly(w: Workdir, expected: readonly string[]): Promise<void> {
  const changes = (await plannedChanges(w)).filter((c) => c.actions.join() !== "no-op" && c.actions.join() !== "read");
  expect(changes.map((c) => `${c.address} ${c.actions.join()}`).sort()).toEqual(
    expected.map((a) => (a.includes(" ") ? a : `${a} update`)).sort(),
  );
  await w.ok(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
  const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
  expect(again.code, again.stdout + again.stderr).toBe(0);
}

/** The variable file an operator edits after a BMC/PDU password rotation (it wins over the stack's TF_VAR_). */
export const rotatedVars = (password: string): Record<string, string> => ({
  "rotated.auto.tfvars": `redfish_password = ${JSON.stringify(password)}\n`,
});

/** Names of the nodes whose cluster_member in state reports joined, sorted. */
export const joinedIn = (state: readonly { type: string; values: Record<string, unknown> }[]): string[] =>
  state
    .filter((r) => r.type === "rackform_cluster_member" && r.values.joined === true)
    .map((r) => String(r.values.node))
    .sort();

/** Expects the lab's slurmctld to report every one of `nodes` IDLE. */
export async function expectIdle(lab: Lab, nodes: readonly string[]): Promise<void> {
  const slurm = await slurmNodes(lab);
  expect(nodes.map((n) => [n, slurm.get(n)?.state])).toEqual(nodes.map((n) => [n, "IDLE"]));
}

/** What the lab's slurmctld reports now, by node name. */
export async function slurmNodes(lab: Lab): Promise<Map<string, { state: string; schedulable: boolean }>> {
  const s = lab.info.slurm;
  if (!s) throw new Error("the lab started without Slurm");
  const client = new SlurmClient({ url: s.url, user: s.user, token: s.token, nodeCacheMaxAgeMs: 0 });
  try {
    const nodes = await client.listNodes();
    return new Map(nodes.map((n) => [n.name, { state: n.state.join("+"), schedulable: n.schedulable }]));
  } finally {
    await client.close();
  }
}

/** One look at slurmctld during a run: which of the watched nodes accept work, and which do not (or are unknown). */
export interface SlurmSample {
  readonly joined: readonly string[];
  readonly out: readonly string[];
}

/** Polls the lab's slurmrestd every `everyMs` for `nodes` until `stop()`, which returns every sample taken. */
export function sampleSlurm(lab: Lab, nodes: readonly string[], everyMs = 100): { stop(): Promise<SlurmSample[]> } {
  const s = lab.info.slurm;
  if (!s) throw new Error("the lab started without Slurm");
  const client = new SlurmClient({ url: s.url, user: s.user, token: s.token, nodeCacheMaxAgeMs: 0 });
  return sampleScheduler(client, nodes, everyMs, async () =>
    (await client.listNodes()).map((n) => [n.name, n.schedulable] as const),
  );
}

/** Polls the lab's Kubernetes API as sampleSlurm does slurmrestd: a node is out when cordoned or NotReady. */
export function sampleKubernetes(
  lab: Lab,
  nodes: readonly string[],
  everyMs = 100,
): { stop(): Promise<SlurmSample[]> } {
  const k = lab.info.kubernetes;
  if (!k) throw new Error("the lab started without Kubernetes");
  const client = new KubernetesClient({ url: k.url, token: k.token });
  return sampleScheduler(client, nodes, everyMs, async () =>
    (await client.listNodes()).map((n) => [n.name, n.ready && !n.unschedulable] as const),
  );
}

function sampleScheduler(
  client: { close(): Promise<void> },
  nodes: readonly string[],
  everyMs: number,
  look: () => Promise<(readonly [string, boolean])[]>,
): { stop(): Promise<SlurmSample[]> } {
  const samples: SlurmSample[] = [];
  const sample = async () => {
    const all = new Map(await look());
    samples.push({
      joined: nodes.filter((n) => all.get(n) === true),
      out: nodes.filter((n) => all.get(n) !== true),
    });
  };
  let running = true;
  const loop = (async () => {
    while (running) {
      await sample();
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      try {
        await loop;
        // The state the apply left: a change in its last moments (after the loop's last look) counts too.
        await sample();
      } finally {
        await client.close();
      }
      return samples;
    },
  };
}
