/**
 * Day 2 via MAAS under the real engines (test/support/day2.ts has the rollout): a new image version recycles the
 * 8-node rack two at a time; then the rack, now rolling, reimages each node in place through its cluster member, the
 * whole rack in one apply at a parallelism a replacement chain could not roll with. day2-ironic.test.ts runs the
 * same first rollout via Ironic beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";
import { byNode, day2Lab, rollingReimage, THIRD_IMAGE } from "../support/day2.js";
import { ENGINES, type Workdir } from "../support/engines.js";
import { rackConfig, resourceName, sampleSlurm, shownState, slurmNodes } from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

describe.each(ENGINES)("day 2 of an 8-node MAAS rack under %s", (name) => {
  let lab: Lab;
  let maas: MaasClient;
  /** The rack stack of the first test, which the second rolls out again. */
  let rack: Workdir;
  beforeAll(async () => {
    lab = await day2Lab();
    maas = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
  });
  afterAll(async () => {
    await maas?.close();
    await lab?.close();
  });

  it("a new image version recycles every node, two at a time while the other six stay joined; the next plan is empty (via maas)", async () => {
    rack = await rollingReimage(name, cliConfig, lab, "maas");
  }, 400_000);

  it("a rolling rack reimages every node in one apply at -parallelism=3, below nodes minus max_unavailable", async () => {
    // GIVEN the first test's MAAS rack, rolling (its deployments recorded rolling = true) with max_unavailable = 2,
    // and a third image version
    const nodes = lab.info.nodes.slice(0, 8).map((n) => n.name);
    const w = rack;
    expect(w, "the first test left no rack").toBeDefined();
    await w.write({ "main.tf": rackConfig(lab, "maas", nodes, { image: THIRD_IMAGE, maxUnavailable: 2 }) });

    // THEN the plan changes each node's deployment, gate and member in place: nothing is replaced
    const planned = await w.run(["plan", "-no-color", "-parallelism=3"]);
    expect(planned.code, planned.stdout + planned.stderr).toBe(0);
    expect(planned.stdout).toContain("Plan: 0 to add, 24 to change, 0 to destroy.");
    expect(planned.stdout).not.toContain("must be replaced");

    // WHEN applied with -parallelism=3 (a replacement chain needed more than 8 - 2 to roll in one apply)
    const sampler = sampleSlurm(lab, nodes, 100);
    const apply = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=3"]);
    const samples = await sampler.stop();

    // THEN the one apply rolled every node, never more than two out at once, and each runs the third image, joined
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain("Apply complete! Resources: 0 added, 24 changed, 0 destroyed.");
    expect(Math.max(...samples.map((s) => s.out.length))).toBeLessThanOrEqual(2);
    expect(new Set(samples.flatMap((s) => s.out))).toEqual(new Set(nodes));
    const machines = new Map((await maas.listMachines()).map((m) => [m.hostname, m]));
    const slurm = await slurmNodes(lab);
    for (const n of nodes) {
      expect([machines.get(n)?.distroSeries, slurm.get(n)?.state], n).toEqual([
        `${THIRD_IMAGE.name}-${THIRD_IMAGE.version}`,
        "IDLE",
      ]);
    }
    // AND the next plan is empty: the refresh reads the new image and each gate's new evidence
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    // AND a refresh records each gate's verdict from the run the member carried out
    await w.ok(["apply", "-refresh-only", "-auto-approve", "-no-color"]);
    const gates = byNode(await shownState(w), "rackform_acceptance");
    for (const n of nodes) expect(gates.get(resourceName(n))?.passed, n).toBe(true);
  }, 400_000);
});
