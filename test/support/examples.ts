import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { MaasClient } from "../../src/clients/maas/index.js";
import { defaultSpec, type Lab, startLab } from "../../src/lab/index.js";
import { type CdktfProject, outputOf } from "./cdktf.js";
import { slurmNodes } from "./rack.js";

/** A deploy of a rack on a shared 2-core machine can take minutes; this only stops a hung test. */
export const DEPLOY_TIMEOUT_MS = 600_000;

/** A lab of `racks` racks of `perRack` nodes, instant timings, its lab file written; the fastest profile that works. */
export async function rackLab(racks: number, perRack: number): Promise<{ lab: Lab; labFile: string }> {
  const dir = await mkdtemp(join(tmpdir(), "rf-examples-lab-"));
  const spec = defaultSpec({ nodes: racks * perRack, nodesPerRack: perRack });
  const lab = await startLab({ spec, profile: "instant", stateDir: dir });
  const labFile = join(dir, "lab.json");
  lab.writeInfo(labFile);
  return { lab, labFile };
}

/** What an example needs from its environment: the lab file and the secrets as TF_VAR_* (never in the code). */
export function exampleEnv(lab: Lab, labFile: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    RACKFORM_LAB_FILE: labFile,
    TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
    TF_VAR_maas_api_key: lab.info.maas!.apiKey,
    TF_VAR_slurm_token: lab.info.slurm!.token,
    ...extra,
  };
}

/** Secrets of the lab that must never appear in cdktf's or the engine's output. */
export const secretsOf = (lab: Lab) => [lab.info.nodes[0].bmc.password, lab.info.maas!.apiKey, lab.info.slurm!.token];

/**
 * Synthesizes the app. Nothing is uploaded by hand: each stack's rackform_image (from the Image construct) puts the
 * golden image in the lab MAAS before its deployments run.
 */
export async function synthStacks(p: CdktfProject): Promise<void> {
  const synth = await p.run(["synth", "--no-color"]);
  expect(synth.code, outputOf(synth)).toBe(0);
}

/** Every stack's `cdktf diff` reports no changes. */
export async function expectNoDiff(p: CdktfProject): Promise<void> {
  for (const s of p.stacks()) {
    const diff = await p.diff(s.name);
    expect(diff.code, outputOf(diff)).toBe(0);
    expect(diff.stdout, `${s.name}\n${outputOf(diff)}`).toMatch(
      /No changes\. Your infrastructure matches the configuration\./,
    );
  }
}

/** Slurm states of `nodes`, as [name, state] pairs. */
export async function slurmStates(lab: Lab, nodes: readonly string[]): Promise<[string, string | undefined][]> {
  const slurm = await slurmNodes(lab);
  return nodes.map((n) => [n, slurm.get(n)?.state]);
}

/** MAAS statuses of `nodes`, as [hostname, status] pairs. */
export async function maasStatuses(lab: Lab, nodes: readonly string[]): Promise<[string, string | undefined][]> {
  const maas = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
  try {
    const machines = new Map((await maas.listMachines()).map((m) => [m.hostname, m.statusName]));
    return nodes.map((n) => [n, machines.get(n)]);
  } finally {
    await maas.close();
  }
}
