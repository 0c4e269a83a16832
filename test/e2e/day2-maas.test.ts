/**
 * Day 2 via MAAS under the real engines (test/support/day2.ts has the rollout): a new image version recycles the
 * 8-node rack two at a time; then, with -parallelism too low for the budget, waiting drains fail instead of hanging and
 * re-applies finish the rollout. day2-ironic.test.ts runs the same rollout via Ironic beside it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";
import { day2Lab, NEW_IMAGE, rollingReimage, THIRD_IMAGE } from "../support/day2.js";
import { ENGINES, type Workdir } from "../support/engines.js";
import { rackConfig, sampleSlurm, slurmNodes } from "../support/rack.js";
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
      "Raise the engine's parallelism above the number of nodes minus max_unavailable (2) " +
        "(terraform apply -parallelism=N, cdktf deploy --terraform-parallelism=N), or re-apply to continue the rollout.",
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
