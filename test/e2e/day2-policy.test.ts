/**
 * Day-2 acceptance-policy edits under the real engines (issue 35): a converged 4-node MAAS + Slurm rack written as
 * the demo writes it (nccl_min_busbw_gbps = 370, burn_in = "72h" on every node); one node's NCCL link was marginal
 * when its gate ran (371 GB/s recorded) and has been repaired since. Lowering the threshold and shortening the burn-in
 * re-judges every node's recorded evidence: in-place updates of the gates only, no drain, one apply, an empty plan
 * after it. Raising the threshold above that one node's evidence re-runs its gate alone (drain, re-run, rejoin) while
 * the others are updated in place. No test code calls a backend to help. One lab per engine, `instant` profile.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, folded, type Workdir } from "../support/engines.js";
import {
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

let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
});

/** The demo configuration with every node's busbw threshold and burn-in edited, as an operator tunes a fleet. */
function withPolicy(config: string, busbw: number, burnIn: string): string {
  const out = config
    .replaceAll(/nccl_min_busbw_gbps = \d+/g, `nccl_min_busbw_gbps = ${busbw}`)
    .replaceAll(/burn_in(\s+)= "\w+"/g, `burn_in$1= "${burnIn}"`);
  expect(out).toContain(`nccl_min_busbw_gbps = ${busbw}`);
  return out;
}

describe.each(ENGINES)("acceptance-policy edits on a 4-node MAAS + Slurm rack under %s", (name) => {
  let lab: Lab;
  let w: Workdir;
  let nodes: string[];
  /** The node whose gate ran on a marginal link (371 GB/s, above the 370 then required). */
  let marginal: string;
  let base: string;

  beforeAll(async () => {
    lab = await startLab({ nodes: 4, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
    await uploadGoldenImage(lab);
    nodes = lab.info.nodes.map((n) => n.name);
    marginal = nodes[1];
    base = rackConfig(lab, "maas", nodes);
    w = await rackStack(engine(name), cliConfig, lab, "maas", nodes);
    await w.ok(["init", "-no-color"]);
    const link = lab.world.faults.add({ kind: "marginal-nccl", node: marginal, value: 371 });
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    // The link is repaired; the evidence in state is the 371 GB/s its gate measured.
    lab.world.faults.remove(link.id);
  });
  afterAll(async () => {
    await lab?.close();
  });

  const gates = async () =>
    new Map(
      (await shownState(w)).filter((r) => r.type === "rackform_acceptance").map((r) => [r.name, r.values] as const),
    );
  const slurmWrites = () => lab.backends!.slurm.requests.filter((q) => q.method !== "GET").length;

  it("lowering the busbw threshold below every node's evidence and shortening the burn-in updates the gates in place: no drain, no member touched, one apply, an empty plan", async () => {
    const before = await gates();
    expect(before.get(resourceName(marginal))?.busbw_gbps).toBe(371);

    // WHEN 370 → 360 GB/s and 72h → 48h on every node
    await w.write({ "main.tf": withPolicy(base, 360, "48h") });
    const changes = (await plannedChanges(w)).filter((c) => !["no-op", "read"].includes(c.actions.join()));

    // THEN the plan updates each node's gate in place, and nothing else
    expect(changes.map((c) => `${c.address} ${c.actions.join()}`).sort()).toEqual(
      nodes.map((n) => `rackform_acceptance.${resourceName(n)} update`).sort(),
    );
    const shown = await w.ok(["show", "-no-color", "rack.tfplan"]);
    expect(shown.stdout).toContain("Plan: 0 to add, 4 to change, 0 to destroy.");
    expect(shown.stdout).toMatch(/nccl_min_busbw_gbps\s+= 370 -> 360\n/);
    expect(shown.stdout).not.toContain("forces replacement");

    // WHEN applied while Slurm is sampled
    const writes = slurmWrites();
    const sampler = sampleSlurm(lab, nodes, 50);
    const apply = await w.run(["apply", "-no-color", "rack.tfplan"]);
    const samples = await sampler.stop();
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain("Apply complete! Resources: 0 added, 4 changed, 0 destroyed.");
    expect(folded(apply)).not.toContain("Warning");

    // THEN no node left Slurm, and the scheduler was sent nothing (no drain, no resume)
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.every((s) => s.out.length === 0)).toBe(true);
    expect(slurmWrites() - writes).toBe(0);
    // AND every gate keeps its id, its verdict and its evidence, with the new policy recorded
    const after = await gates();
    for (const n of nodes) {
      const [b, a] = [before.get(resourceName(n)), after.get(resourceName(n))];
      expect([a?.id, a?.passed, a?.evidence], n).toEqual([b?.id, true, b?.evidence]);
      expect([a?.nccl_min_busbw_gbps, a?.burn_in], n).toEqual([360, "48h"]);
    }
    // AND the next plan is empty
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  }, 300_000);

  it("raising the threshold above one node's evidence re-runs that node's gate alone, saying why; the others are updated in place", async () => {
    const before = await gates();
    const others = nodes.filter((n) => n !== marginal);
    // The other nodes measured at least 372 GB/s (the lab's nominal range is 372–378).
    for (const n of others) expect(before.get(resourceName(n))?.busbw_gbps as number, n).toBeGreaterThanOrEqual(372);

    // WHEN 360 → 372 GB/s, and the burn-in back to the 72h every node ran
    await w.write({ "main.tf": withPolicy(base, 372, "72h") });
    const plan = await w.run(["plan", "-out=rack.tfplan", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    const changes = (await w.ok(["show", "-json", "-no-color", "rack.tfplan"]).then((r) => JSON.parse(r.stdout)))
      .resource_changes as { address: string; change: { actions: string[] } }[];
    const planned = changes
      .filter((c) => !["no-op", "read"].includes(c.change.actions.join()))
      .map((c) => `${c.address} ${c.change.actions.join()}`);

    // THEN only the marginal node's gate re-runs (and its member drains and rejoins); the others' are updated in place
    const m = resourceName(marginal);
    expect(planned.sort()).toEqual(
      [
        `rackform_acceptance.${m} delete,create`,
        `rackform_cluster_member.${m} delete,create`,
        ...others.map((n) => `rackform_acceptance.${resourceName(n)} update`),
      ].sort(),
    );
    // AND the plan says why, for that node only: what its evidence measured and the new threshold
    const said = folded(plan);
    expect(said).toContain(`Warning: Acceptance gate re-runs: ${marginal}`);
    expect(said).toContain("nccl_min_busbw_gbps: measured all_reduce busbw 371 GB/s; threshold ≥ 372 GB/s");
    for (const n of others) expect(said).not.toContain(`Acceptance gate re-runs: ${n}`);

    // WHEN applied while Slurm is sampled
    const from = lab.backends!.slurm.requests.length;
    const sampler = sampleSlurm(lab, nodes, 50);
    const apply = await w.run(["apply", "-no-color", "rack.tfplan"]);
    const samples = await sampler.stop();
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    expect(apply.stdout).toContain("Apply complete! Resources: 2 added, 3 changed, 2 destroyed.");

    // THEN the scheduler was told to drain and resume the marginal node only, and no other node ever left it
    const written = lab
      .backends!.slurm.requests.slice(from)
      .filter((q) => q.method !== "GET")
      .map((q) => q.path.split("/").pop());
    expect(written.length).toBeGreaterThan(0);
    expect(new Set(written)).toEqual(new Set([marginal]));
    expect(samples.every((s) => s.out.every((n) => n === marginal))).toBe(true);
    // AND it is back; its gate ran again on the repaired link and passed
    const slurm = await slurmNodes(lab);
    for (const n of nodes) expect(slurm.get(n)?.schedulable, n).toBe(true);
    const after = await gates();
    const rerun = after.get(m);
    expect(rerun?.passed).toBe(true);
    expect(rerun?.busbw_gbps as number).toBeGreaterThanOrEqual(372);
    expect(rerun?.evidence).not.toBe(before.get(m)?.evidence);
    for (const n of others) {
      expect(after.get(resourceName(n))?.evidence, n).toBe(before.get(resourceName(n))?.evidence);
    }
    // AND the next plan is empty
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  }, 300_000);
});
