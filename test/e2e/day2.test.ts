/**
 * Day 2 under the real engines: a converged 8-node rack gets a new image version. The plan shows, for every node and
 * nothing else, the chain drain → reimage → re-accept → rejoin (member, acceptance and deployment replaced); applied
 * with max_unavailable = 2 at the engine's default parallelism, the nodes are recycled two at a time while the other
 * six stay joined in Slurm, as sampled from the lab's slurmrestd throughout the apply.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DemoImage, demoImageUrl } from "../../src/cli/demo-config.js";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import { type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, type Workdir } from "../support/engines.js";
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
} from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

const NEW_IMAGE = goldenImage("2026.07.1");
const THIRD_IMAGE = goldenImage("2026.08.1");
/** The chain's replaced part, in the order the plan lists a node's recycling. */
const RECYCLED = ["rackform_cluster_member", "rackform_acceptance", "rackform_deployment"] as const;

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

type Shown = Awaited<ReturnType<typeof shownState>>;
const byNode = (state: Shown, type: string) =>
  new Map(state.filter((r) => r.type === type).map((r) => [r.name, r.values] as const));

/** A machine as its backend reports it: identity, status, and the image it runs. */
type Machine = { readonly id: string; readonly status: string; readonly image: string };
type Backend = "maas" | "ironic";

/** What the backend reports for each node name, and what a node deployed with `image` reports. */
const VIEWS: Record<
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

describe.each(ENGINES)("day 2 of an 8-node rack under %s", (name) => {
  let lab: Lab;
  let maas: MaasClient;
  /** The rack stack of the first test, which the second rolls out again. */
  let rack: Workdir;
  beforeAll(async () => {
    // The demo profile at 4× speed: a node's recycling (release with erase, deploy, boot, burn-in) takes seconds,
    // long enough for 100 ms samples of Slurm to see who is out.
    // Sixteen nodes: the first eight are the MAAS rack, the second eight the Ironic rack.
    lab = await startLab({ nodes: 16, profile: "demo", speed: 4, stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
    await uploadGoldenImage(lab);
    await uploadGoldenImage(lab, NEW_IMAGE);
    await uploadGoldenImage(lab, THIRD_IMAGE);
    maas = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
  });
  afterAll(async () => {
    await maas?.close();
    await lab?.close();
  });

  it.each(["maas", "ironic"] as const)(
    "a new image version recycles every node, two at a time while the other six stay joined; the next plan is empty (via %s)",
    async (backend) => {
      // GIVEN a converged rack on the golden image, without a disruption budget
      const nodes = (backend === "maas" ? lab.info.nodes.slice(0, 8) : lab.info.nodes.slice(8, 16)).map((n) => n.name);
      const view = VIEWS[backend];
      const w = await rackStack(engine(name), cliConfig, lab, backend, nodes);
      if (backend === "maas") rack = w;
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
    },
    400_000,
  );

  it("with -parallelism too low for the budget, waiting drains fail instead of hanging; re-applies finish the rollout", async () => {
    // GIVEN the first test's MAAS rack, on its new image with max_unavailable = 2, and a third image version
    const nodes = lab.info.nodes.slice(0, 8).map((n) => n.name);
    const w = rack;
    expect(w, "the first test left no rack").toBeDefined();
    await w.write({ "main.tf": rackConfig(lab, "maas", nodes, { image: THIRD_IMAGE, maxUnavailable: 2 }) });

    // WHEN applied with -parallelism=3: two drains hold the budget, every other engine slot fills with waiting drains
    const sampler = sampleSlurm(lab, nodes, 100);
    const first = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=3"]);

    // THEN the waiting drains fail with the reason and the fix, the apply exits non-zero instead of hanging
    expect(first.code, first.stdout + first.stderr).toBe(1);
    const err = first.stderr.replace(/\s+/g, " ");
    expect(err).toContain("Error: Drain gave up waiting for the disruption budget");
    expect(err).toContain(
      "Raise -parallelism above the number of nodes minus max_unavailable (2), or re-apply to continue the rollout.",
    );
    // AND the nodes whose drain gave up are still joined, on the old image
    const failed = nodes.filter((n) => err.includes(`Slurm node ${n} was not drained`));
    expect(failed.length).toBeGreaterThan(0);
    const mid = new Map((await maas.listMachines()).map((m) => [m.hostname, m]));
    const slurmMid = await slurmNodes(lab);
    for (const n of failed) {
      expect([slurmMid.get(n)?.state, mid.get(n)?.distroSeries], n).toEqual([
        "IDLE",
        `${NEW_IMAGE.name}-${NEW_IMAGE.version}`,
      ]);
    }

    // WHEN re-applied with the same parallelism until the rollout is done
    let applies = 1;
    for (; applies < 6; applies++) {
      const r = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=3"]);
      if (r.code === 0) break;
      expect(r.stderr.replace(/\s+/g, " ")).toContain("Error: Drain gave up waiting for the disruption budget");
    }
    const samples = await sampler.stop();

    // THEN it finished, never more than two nodes out at once, and every node runs the third image, joined
    expect(applies).toBeLessThan(6);
    expect(Math.max(...samples.map((s) => s.out.length))).toBeLessThanOrEqual(2);
    const machines = new Map((await maas.listMachines()).map((m) => [m.hostname, m]));
    const slurm = await slurmNodes(lab);
    for (const n of nodes) {
      expect([machines.get(n)?.distroSeries, slurm.get(n)?.state], n).toEqual([
        `${THIRD_IMAGE.name}-${THIRD_IMAGE.version}`,
        "IDLE",
      ]);
    }
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 400_000);
});
