/**
 * Issue 30, first part: a component its BMC reports not healthy, found by a plan's refresh (rackform_bmc.health), is
 * drift of that node's acceptance gate (bmc_health = rackform_bmc.x.health, as the demo and the Rack construct write
 * it). A GPU Critical re-runs only that node's gate, which fails naming the finding and quarantines the node; once the
 * BMC reports it OK again, one apply re-runs the gate and the node rejoins. A converged 4-node MAAS + Slurm rack
 * written as the demo writes it; the lab on its `instant` profile.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, folded, type Workdir } from "../support/engines.js";
import { maasView } from "../support/lab-clients.js";
import {
  appliesOnly,
  plannedChanges,
  rackStack,
  resourceName,
  slurmNodes,
  uploadGoldenImage,
} from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

let lab: Lab;
let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
  lab = await startLab({ nodes: 4, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
  await uploadGoldenImage(lab);
});
afterAll(async () => {
  await lab?.close();
});

describe.each(ENGINES)("node health as drift of the gate on a 4-node MAAS + Slurm rack under %s", (name) => {
  let w: Workdir;
  let nodes: string[];

  beforeAll(async () => {
    nodes = lab.info.nodes.map((n) => n.name);
    w = await rackStack(engine(name), cliConfig, lab, "maas", nodes);
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
  });

  it("a GPU its BMC reports Critical: that node alone is drained, fails its re-run gate and is quarantined; healed, one apply returns it", async () => {
    const sick = nodes[2];
    const r = resourceName(sick);
    const before = await maasView(lab);
    const from = lab.backends!.maas.requests.length;
    const fault = lab.world.faults.add({ kind: "gpu-health", node: sick });
    try {
      // WHEN the scheduled plan runs: it warns about the node and re-runs only that node's gate
      const planned = await w.ok(["plan", "-out=rack.tfplan", "-no-color"]);
      expect(folded(planned)).toContain("Node health: 1 component not OK");
      const changes = (await plannedChanges(w)).filter((c) => !["no-op", "read"].includes(c.actions.join()));
      expect(changes.map((c) => `${c.address} ${c.actions.join()}`).sort()).toEqual(
        [`rackform_acceptance.${r} delete,create`, `rackform_cluster_member.${r} delete,create`].sort(),
      );
      const shown = (await w.ok(["show", "-no-color", "rack.tfplan"])).stdout;
      expect(shown).toMatch(/bmc_health\s+= \[[\s\S]*# forces replacement/);
      expect(shown).toMatch(/health\s+= "Critical"/);
      // THEN the apply drains it, the gate fails naming the finding, and the node is quarantined; nothing else moves
      const apply = await w.run(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
      expect(apply.code).not.toBe(0);
      expect(folded(apply)).toContain(`(${sick}) failed the gate`);
      expect(folded(apply)).toContain(
        "bmc_health: measured GPU 1 Critical; threshold no component Critical per the BMC",
      );
      const after = await maasView(lab);
      expect(after.get(sick)).toMatch(/^(Failed testing|Broken)\//);
      for (const n of nodes.filter((x) => x !== sick)) expect(after.get(n), n).toBe(before.get(n));
      const others = nodes.filter((x) => x !== sick).map((n) => before.get(n)!.split("/")[1]);
      const writes = lab.backends!.maas.requests.slice(from).filter((q) => q.method !== "GET");
      expect(writes.filter((q) => others.some((id) => q.path.includes(id)))).toEqual([]);
      const slurm = await slurmNodes(lab);
      expect(slurm.get(sick)?.schedulable).toBe(false);
      for (const n of nodes.filter((x) => x !== sick)) expect(slurm.get(n)?.schedulable, n).toBe(true);
    } finally {
      lab.world.faults.remove(fault.id);
    }
    // WHEN the BMC reports the GPU OK again (repaired): one apply re-runs the gate, lifts the quarantine, rejoins it
    await appliesOnly(w, [`rackform_acceptance.${r} delete,create`, `rackform_cluster_member.${r} create`]);
    const slurm = await slurmNodes(lab);
    for (const n of nodes) expect(slurm.get(n)?.schedulable, n).toBe(true);
    for (const v of (await maasView(lab)).values()) expect(v).toMatch(/^Deployed\//);
  });
});
