/**
 * Day 2 under the real engines, shared by test/e2e/day2-maas.test.ts and day2-ironic.test.ts (one file per backend, so
 * the two rollouts run side by side): a converged 8-node rack gets a new image version. The plan shows, for every node
 * and nothing else, the chain drain → reimage → re-accept → rejoin (member, acceptance and deployment replaced);
 * applied with max_unavailable = 2 at the engine's default parallelism, the nodes are recycled two at a time while the
 * other six stay joined in Slurm, as sampled from the lab's slurmrestd throughout the apply.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect } from "vitest";
import { type DemoImage, demoImageUrl } from "../../src/cli/demo-config.js";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import { type Lab, startLab } from "../../src/lab/index.js";
import { type Engine, engine, type Workdir } from "./engines.js";
import {
  CHAIN,
  GOLDEN_IMAGE,
  goldenImage,
  plannedChanges,
  rackConfig,
  rackStack,
  resourceName,
  sampleSlurm,
  shownState,
  slurmNodes,
  uploadGoldenImage,
} from "./rack.js";

export const NEW_IMAGE = goldenImage("2026.07.1");
export const THIRD_IMAGE = goldenImage("2026.08.1");
/** The chain's replaced part, in the order the plan lists a node's recycling. */
const RECYCLED = ["rackform_cluster_member", "rackform_acceptance", "rackform_deployment"] as const;

/**
 * An 8-node lab for one day-2 file: the demo profile at 4× speed, so a node's recycling (release with erase, deploy,
 * boot, burn-in) takes seconds, long enough for 100 ms samples of Slurm to see who is out. All three images uploaded.
 */
export async function day2Lab(): Promise<Lab> {
  const lab = await startLab({
    nodes: 8,
    profile: "demo",
    speed: 4,
    stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")),
  });
  await uploadGoldenImage(lab);
  await uploadGoldenImage(lab, NEW_IMAGE);
  await uploadGoldenImage(lab, THIRD_IMAGE);
  return lab;
}

type Shown = Awaited<ReturnType<typeof shownState>>;
export const byNode = (state: Shown, type: string) =>
  new Map(state.filter((r) => r.type === type).map((r) => [r.name, r.values] as const));

/** A machine as its backend reports it: identity, status, and the image it runs. */
type Machine = { readonly id: string; readonly status: string; readonly image: string };
export type Backend = "maas" | "ironic";

/** What the backend reports for each node name, and what a node deployed with `image` reports. */
export const VIEWS: Record<
  Backend,
  { machines(lab: Lab): Promise<Map<string, Machine>>; deployed(i: DemoImage, lab: Lab): Machine }
> = {
  maas: {
    async machines(lab) {
      const c = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
      try {
        const all = await c.listMachines();
        return new Map(
          all.map((m) => [
            m.hostname,
            { id: m.systemId, status: m.statusName, image: `${m.osystem}/${m.distroSeries}` },
          ]),
        );
      } finally {
        await c.close();
      }
    },
    deployed: (i) => ({ id: "", status: "Deployed", image: `custom/${i.name}-${i.version}` }),
  },
  ironic: {
    async machines(lab) {
      const c = new IronicClient({ url: lab.info.ironic!.url });
      try {
        const all = await c.listNodes({ detail: true });
        return new Map(
          all.map((n) => [
            n.name ?? n.uuid,
            { id: n.uuid, status: n.provisionState ?? "", image: String(n.instanceInfo?.image_source ?? "") },
          ]),
        );
      } finally {
        await c.close();
      }
    },
    deployed: (i, lab) => ({ id: "", status: "active", image: demoImageUrl(lab.info, i) }),
  },
};

/**
 * Converges the lab's 8 nodes on the golden image through `backend` without a budget, then rolls a new image out with
 * max_unavailable = 2 and checks the plan, the two-at-a-time recycling and the result. Returns the rack's workdir.
 */
export async function rollingReimage(
  name: Engine["name"],
  cliConfig: string,
  lab: Lab,
  backend: Backend,
): Promise<Workdir> {
  // GIVEN a converged rack on the golden image, without a disruption budget
  const nodes = lab.info.nodes.slice(0, 8).map((n) => n.name);
  const view = VIEWS[backend];
  const w = await rackStack(engine(name), cliConfig, lab, backend, nodes);
  await w.ok(["init", "-no-color"]);
  await w.ok(["apply", "-auto-approve", "-no-color"]);
  const before = await shownState(w);
  const gateBefore = byNode(before, "rackform_acceptance");
  const machinesBefore = await view.machines(lab);
  expect(nodes.filter((n) => !machinesBefore.has(n))).toEqual([]);

  // WHEN the image version changes, and max_unavailable = 2 is set in the same change
  await w.write({ "main.tf": rackConfig(lab, backend, nodes, { image: NEW_IMAGE, maxUnavailable: 2 }) });
  const changes = await plannedChanges(w);

  // THEN the plan replaces, for every node, its member (drain, rejoin), acceptance (re-run) and deployment (reimage)
  const replaced = changes.filter((c) => c.actions.join() === "delete,create").map((c) => c.address);
  expect(replaced.sort()).toEqual(nodes.flatMap((n) => RECYCLED.map((t) => `${t}.${resourceName(n)}`)).sort());
  // AND nothing else: outlets, BMCs and machines are left alone
  const rest = changes.filter((c) => !replaced.includes(c.address));
  expect(rest.map((c) => c.type).sort()).toEqual(nodes.flatMap(() => CHAIN.slice(0, 3)).sort());
  expect(rest.filter((c) => !["no-op", "read"].includes(c.actions.join()))).toEqual([]);
  // AND the plan says why, per node, in the engine's own words
  const shown = (await w.ok(["show", "-no-color", "rack.tfplan"])).stdout;
  expect(shown).toContain("Plan: 24 to add, 0 to change, 24 to destroy.");
  for (const n of nodes) {
    for (const t of RECYCLED) expect(shown).toContain(`# ${t}.${resourceName(n)} must be replaced`);
  }
  expect(shown).toContain(`~ version = "${GOLDEN_IMAGE.version}" -> "${NEW_IMAGE.version}" # forces replacement`);
  // (OpenTofu also marks the old value: "<id> # forces replacement -> (known after apply) # forces replacement")
  expect(shown).toMatch(
    new RegExp(
      `~ gate_id\\s+= "${backend}:[\\w-]+" (# forces replacement )?-> \\(known after apply\\) # forces replacement`,
    ),
  );
  expect(shown).toMatch(/\+ max_unavailable\s+= 2/);

  // WHEN the plan is applied (default -parallelism 10) while Slurm is sampled every 100 ms
  const sampler = sampleSlurm(lab, nodes, 100);
  const apply = await w.run(["apply", "-no-color", "rack.tfplan"], { env: { TF_LOG: "debug" } });
  const samples = await sampler.stop();
  expect(apply.code, apply.stdout + apply.stderr).toBe(0);
  expect(apply.stdout).toContain("Apply complete! Resources: 24 added, 0 changed, 24 destroyed.");

  // THEN at every sample at most two nodes were out of the cluster and at least six accepted work
  expect(samples.length).toBeGreaterThan(20);
  const worst = samples.reduce((a, s) => (s.out.length > a.out.length ? s : a), samples[0]);
  expect(worst.out.length, `worst sample: ${worst.out.join(", ")} out`).toBeLessThanOrEqual(2);
  expect(samples.every((s) => s.joined.length >= 6)).toBe(true);
  // AND the budget was used: two nodes were recycled side by side, and every node was out at some point
  expect(worst.out).toHaveLength(2);
  expect(new Set(samples.flatMap((s) => s.out))).toEqual(new Set(nodes));

  // AND every node was recycled: the same machine, deployed with the new image, a new gate with evidence, joined
  const after = await shownState(w);
  const machines = await view.machines(lab);
  const gates = byNode(after, "rackform_acceptance");
  const members = byNode(after, "rackform_cluster_member");
  const slurm = await slurmNodes(lab);
  for (const n of nodes) {
    expect(machines.get(n), n).toEqual({ ...view.deployed(NEW_IMAGE, lab), id: machinesBefore.get(n)?.id });
    const gate = gates.get(resourceName(n));
    expect(gate?.passed, n).toBe(true);
    expect(typeof gate?.evidence, n).toBe("string");
    expect(gate?.evidence, n).not.toBe(gateBefore.get(resourceName(n))?.evidence);
    expect([members.get(resourceName(n))?.joined, slurm.get(n)?.state], n).toEqual([true, "IDLE"]);
  }
  // AND the provider logged on stderr which drains waited for whom (TF_LOG=debug: the engines show rackform's log
  // lines raw at debug, as go-plugin does not parse their millisecond @timestamp)
  expect(apply.stderr).toMatch(
    /drain of r\d+-n\d+ waits for the disruption budget \(2 of 2 out of service: r\d+-n\d+, r\d+-n\d+\)/,
  );

  // AND the next plan is empty
  const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
  expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  return w;
}
