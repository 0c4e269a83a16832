/**
 * Day 2 across stacks under the real engines: two stacks of one Slurm partition (4 nodes each, each holding its own
 * rackform_image as the Rack construct places it) get a new image version and are applied at the same time by two
 * engine processes, with max_unavailable = 1. The image bump must not deadlock (the image is no ancestor of the
 * nodes' chains), and the one budget of the partition must hold across both processes: sampled from the lab's
 * slurmrestd throughout, never more than one node of the 8 is out. Then one process rolls a third version alone at
 * -parallelism=2, and the next plans are empty. Last, a rollout whose first node fails its gate halts instead of
 * waiting forever, leaving the others joined, and one re-apply after the fix finishes it. The same two-stack rollout
 * with the nodes in a Kubernetes cluster (reservations as Leases, which outlive a Node deleted during the reimage) holds its budget too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";
import { day2Lab, NEW_IMAGE, THIRD_IMAGE } from "../support/day2.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { GOLDEN_IMAGE, rackConfig, sampleKubernetes, sampleSlurm, slurmNodes } from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

type Image = typeof GOLDEN_IMAGE;

describe.each(ENGINES)("one disruption budget for two stacks of a partition under %s", (name) => {
  let lab: Lab;
  const stacks: Workdir[] = [];
  let groups: string[][] = [];
  beforeAll(async () => {
    lab = await day2Lab();
    const names = lab.info.nodes.slice(0, 8).map((n) => n.name);
    groups = [names.slice(0, 4), names.slice(4, 8)];
  });
  afterAll(async () => {
    await lab?.close();
  });

  /**
   * A stack's configuration: the demo rack of `nodes` on `image`; the first stack also holds the image's
   * rackform_image, as a Fleet places it in its canary stack.
   */
  const config = (nodes: readonly string[], image: Image, maxUnavailable?: number) => {
    const url = `${lab.images.url}${image.name}-${image.version}.qcow2`;
    lab.images.put(`${image.name}-${image.version}.qcow2`, `${image.name}-${image.version}`);
    const rack = rackConfig(lab, "maas", nodes, { image, ...(maxUnavailable ? { maxUnavailable } : {}) });
    if (nodes !== groups[0]) return rack;
    return `${rack}
resource "rackform_image" "golden" {
  backend = "maas"
  name    = "${image.name}"
  version = "${image.version}"
  url     = "${url}"
  sha256  = "${image.sha256}"
}
`;
  };

  const env = () => ({
    TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
    TF_VAR_slurm_token: lab.info.slurm!.token,
    TF_VAR_maas_api_key: lab.info.maas!.apiKey,
  });

  it("two stacks applied at once roll a new image with never more than max_unavailable of the partition out", async () => {
    // GIVEN two converged stacks of the same partition, each holding a rackform_image
    expect(groups.flat().every((n) => lab.info.nodes.some((x) => x.name === n))).toBe(true);
    for (const nodes of groups) {
      const w = await Workdir.create(engine(name), cliConfig, { "main.tf": config(nodes, GOLDEN_IMAGE) }, env());
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      stacks.push(w);
    }
    // WHEN both get a new image version with max_unavailable = 1 and are applied at the same time by two engines
    for (const [i, w] of stacks.entries()) await w.write({ "main.tf": config(groups[i], NEW_IMAGE, 1) });
    const all = groups.flat();
    const sampler = sampleSlurm(lab, all, 100);
    const applies = await Promise.all(stacks.map((w) => w.run(["apply", "-auto-approve", "-no-color"])));
    const samples = await sampler.stop();

    // THEN both finish (no deadlock on the image bump), the first having updated its image in place
    for (const a of applies) expect(a.code, a.stdout + a.stderr).toBe(0);
    expect(applies[0].stdout).toContain("Resources: 12 added, 1 changed, 12 destroyed.");
    expect(applies[1].stdout).toContain("Resources: 12 added, 0 changed, 12 destroyed.");
    // AND at every sample at most one node of the 8 was out, and every node was out at some point
    const worst = samples.reduce((a, s) => (s.out.length > a.out.length ? s : a), samples[0]);
    expect(worst.out.length, `worst sample: ${worst.out.join(", ")} out`).toBe(1);
    expect(new Set(samples.flatMap((s) => s.out))).toEqual(new Set(all));
    // AND every node is back in service, with no reservation left in Slurm
    const slurm = await slurmNodes(lab);
    expect(all.filter((n) => slurm.get(n)?.state !== "IDLE")).toEqual([]);
    for (const w of stacks) {
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    }
  }, 600_000);

  it("a single stack rolls a third version at -parallelism=2 and leaves nothing to plan", async () => {
    expect(stacks, "the first test left no stacks").toHaveLength(2);
    const [w] = stacks;
    await w.write({ "main.tf": config(groups[0], THIRD_IMAGE, 1) });
    const sampler = sampleSlurm(lab, groups[0], 100);
    const r = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=2"]);
    const samples = await sampler.stop();
    // THEN it finishes or stops with the budget's diagnostic — never hangs — and never has two nodes out
    expect(Math.max(...samples.map((s) => s.out.length))).toBeLessThanOrEqual(1);
    if (r.code !== 0) {
      expect(r.stderr.replace(/\s+/g, " ")).toContain("Drain gave up waiting for the disruption budget");
      for (let i = 0; i < 6; i++) {
        const again = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=2"]);
        if (again.code === 0) break;
      }
    }
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 600_000);

  it("a canary node failing its gate halts the rollout: the others stay joined, untouched; the re-apply finishes it", async () => {
    expect(stacks, "the first test left no stacks").toHaveLength(2);
    const w = stacks[1];
    const nodes = groups[1];
    // GIVEN every node of the second stack would fail its NCCL gate, and a third image with max_unavailable = 1
    for (const n of nodes) lab.world.faults.add({ kind: "marginal-nccl", node: n, value: 300 });
    await w.write({ "main.tf": config(nodes, THIRD_IMAGE, 1) });
    // WHEN applied
    const r = await w.run(["apply", "-auto-approve", "-no-color"]);
    // THEN it stops with an error instead of waiting forever: the first node recycled failed its gate, and the
    // waiting drains halted naming it and its evidence
    expect(r.code, r.stdout + r.stderr).not.toBe(0);
    const err = r.stderr.replace(/\s+/g, " ");
    expect(err).toContain("measured all_reduce busbw 300 GB/s; threshold ≥ 370 GB/s");
    expect(err).toContain("Error: Rollout halted: the disruption budget is used up by nodes out of service");
    const slurm = await slurmNodes(lab);
    const failed = nodes.filter((n) => slurm.get(n)?.state !== "IDLE");
    expect(failed, "exactly one node was recycled and failed").toHaveLength(1);
    expect(err).toContain(`${failed[0]} (failed its acceptance gate`);
    // AND the other three were never drained: still joined, on the previous image
    const untouched = nodes.filter((n) => n !== failed[0]);
    for (const n of untouched) expect(err).toContain(`Slurm node ${n} was not drained`);
    const machines = new Map((await maasMachines(lab)).map((m) => [m.hostname, m.distroSeries]));
    for (const n of untouched)
      expect([slurm.get(n)?.state, machines.get(n)], n).toEqual(["IDLE", `${NEW_IMAGE.name}-${NEW_IMAGE.version}`]);

    // WHEN the faults are fixed and the stack applied once more
    lab.world.faults.clear();
    const again = await w.run(["apply", "-auto-approve", "-no-color"]);
    // THEN the rollout finishes where it stopped, and nothing is left to plan
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const after = await slurmNodes(lab);
    expect(nodes.filter((n) => after.get(n)?.state !== "IDLE")).toEqual([]);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  }, 600_000);
});

/** The lab's MAAS machines (hostname and the image each runs). */
async function maasMachines(lab: Lab) {
  const maas = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
  try {
    return await maas.listMachines();
  } finally {
    await maas.close();
  }
}

describe.each(ENGINES)("one disruption budget for two stacks of a Kubernetes cluster under %s", (name) => {
  let lab: Lab;
  beforeAll(async () => {
    lab = await day2Lab();
  });
  afterAll(async () => {
    await lab?.close();
  });

  it("two stacks applied at once roll a new image with never more than max_unavailable nodes cordoned or NotReady", async () => {
    const names = lab.info.nodes.slice(0, 8).map((n) => n.name);
    const groups = [names.slice(0, 4), names.slice(4, 8)];
    const env = {
      TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
      TF_VAR_kube_token: lab.info.kubernetes!.token,
      TF_VAR_maas_api_key: lab.info.maas!.apiKey,
    };
    const config = (nodes: readonly string[], image: Image, maxUnavailable?: number) =>
      rackConfig(lab, "maas", nodes, { image, scheduler: "kubernetes", ...(maxUnavailable ? { maxUnavailable } : {}) });
    // GIVEN two converged stacks whose nodes join one Kubernetes cluster
    const stacks: Workdir[] = [];
    for (const nodes of groups) {
      const w = await Workdir.create(engine(name), cliConfig, { "main.tf": config(nodes, GOLDEN_IMAGE) }, env);
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
      stacks.push(w);
    }
    // WHEN both get a new image with max_unavailable = 1 and are applied at the same time by two engines
    for (const [i, w] of stacks.entries()) await w.write({ "main.tf": config(groups[i], NEW_IMAGE, 1) });
    const sampler = sampleKubernetes(lab, names, 100);
    const applies = await Promise.all(stacks.map((w) => w.run(["apply", "-auto-approve", "-no-color"])));
    const samples = await sampler.stop();
    // THEN both finish; at every sample at most one of the 8 Nodes was out; every node was out at some point
    for (const a of applies) expect(a.code, a.stdout + a.stderr).toBe(0);
    const worst = samples.reduce((a, s) => (s.out.length > a.out.length ? s : a), samples[0]);
    expect(worst.out.length, `worst sample: ${worst.out.join(", ")} out`).toBe(1);
    expect(new Set(samples.flatMap((s) => s.out))).toEqual(new Set(names));
    for (const w of stacks) {
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    }
  }, 600_000);
});
