/**
 * Issue 30, the remediation ladder: a scheduled plan finds GPUs its BMCs report Critical and walks each node down its
 * ladder, one step per apply, inside the rack's disruption budget — power cycle (and the gate again), reimage with the
 * pinned image (and the gate again), quarantine for repair — while the healthy nodes are never touched. A 4-node
 * rolling MAAS + Slurm rack written as the demo writes it with the ladder on; the lab on its `instant` profile; two
 * faults the lab's catalogue cures differently (XID 48: a power cycle; XID 64, row remapping failed: nothing but a
 * repair).
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, folded, type Workdir } from "../support/engines.js";
import { maasView } from "../support/lab-clients.js";
import { plannedChanges, rackStack, resourceName, slurmNodes, uploadGoldenImage } from "../support/rack.js";
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

/** The planned changes other than no-ops and reads, as "address actions", sorted. */
async function changes(w: Workdir): Promise<string[]> {
  const all = await plannedChanges(w);
  return all
    .filter((c) => !["no-op", "read"].includes(c.actions.join()))
    .map((c) => `${c.address} ${c.actions.join()}`)
    .sort();
}

/** The three in-place updates of one node's ladder step (deployment, gate, member). */
const step = (r: string) =>
  [`rackform_acceptance.${r}`, `rackform_cluster_member.${r}`, `rackform_deployment.${r}`].map((a) => `${a} update`);

/** The remediation each node's deployment records. */
async function rungs(w: Workdir): Promise<Map<string, string>> {
  const r = await w.ok(["show", "-json", "-no-color"]);
  const res = (JSON.parse(r.stdout).values?.root_module?.resources ?? []) as {
    type: string;
    name: string;
    values: Record<string, unknown>;
  }[];
  return new Map(
    res.filter((x) => x.type === "rackform_deployment").map((x) => [x.name, String(x.values.remediation)]),
  );
}

describe.each(ENGINES)("the health remediation ladder on a 4-node rolling MAAS + Slurm rack under %s", (name) => {
  let w: Workdir;
  let nodes: string[];

  beforeAll(async () => {
    nodes = lab.info.nodes.map((n) => n.name);
    const opts = { maxUnavailable: 2, remediation: { maxUnhealthy: 2 } };
    w = await rackStack(engine(name), cliConfig, lab, "maas", nodes, opts);
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
  });

  it("power cycles a node a power cycle heals, takes another down to repair, and never touches the healthy ones", async () => {
    const [healed, broken] = [nodes[1], nodes[2]];
    const [a, b] = [resourceName(healed), resourceName(broken)];
    const healthy = nodes.filter((n) => n !== healed && n !== broken);
    const before = await maasView(lab);
    lab.world.faults.add({ kind: "gpu-xid", node: healed, xid: 48, gpu: 1 });
    const repair = lab.world.faults.add({ kind: "gpu-xid", node: broken, xid: 64, gpu: 2 });
    try {
      // WHEN the scheduled plan runs: both sick nodes plan their first step in place; nothing else
      expect(await changes(w)).toEqual([...step(a), ...step(b)].sort());
      const shown = (await w.ok(["show", "-no-color", "rack.tfplan"])).stdout;
      expect(shown).toMatch(/remediation\s+= "" -> "power_cycle:1"/);
      // THEN the apply power cycles both through MAAS: the one a power cycle heals passes its gate and rejoins;
      // the other fails its gate and stays out (the apply says so), and the healthy nodes see no write at all
      const from = lab.backends!.maas.requests.length;
      const first = await w.run(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
      expect(first.code).not.toBe(0);
      expect(folded(first)).toContain(`(${broken}) failed the gate`);
      const writes = lab.backends!.maas.requests.slice(from).filter((q) => q.method !== "GET");
      const ids = (n: string) => before.get(n)!.split("/")[1];
      expect(writes.filter((q) => q.path.includes(ids(healed))).map((q) => q.op)).toEqual(
        expect.arrayContaining(["power_off", "power_on"]),
      );
      for (const n of healthy)
        expect(
          writes.filter((q) => q.path.includes(ids(n))),
          n,
        ).toEqual([]);
      let slurm = await slurmNodes(lab);
      expect([slurm.get(healed)?.schedulable, slurm.get(broken)?.schedulable]).toEqual([true, false]);
      // WHEN the next plan runs: the healed node's ladder resets (recorded in place), the other goes on to a reimage
      expect(await changes(w)).toEqual([...step(a), ...step(b)].sort());
      await w.run(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
      expect((await rungs(w)).get(a)).toBe("");
      expect((await rungs(w)).get(b)).toBe("reimage:1");
      // THEN, still Critical after the reimage, the next apply quarantines it for repair: drained, Broken in MAAS
      expect(await changes(w)).toEqual(step(b));
      const held = await w.run(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
      expect(held.code, held.stdout + held.stderr).toBe(0);
      expect((await maasView(lab)).get(broken)).toMatch(/^(Failed testing|Broken)\//);
      slurm = await slurmNodes(lab);
      expect(slurm.get(broken)?.schedulable).toBe(false);
      // AND it stays held: the next plan is empty, and it says why
      const quiet = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(quiet.code, quiet.stdout + quiet.stderr).toBe(0);
      expect(folded(quiet)).toContain(`Node held for repair: ${broken}`);
    } finally {
      lab.world.faults.remove(repair.id);
    }
    // WHEN a person repaired it (the BMC reports it OK): one apply re-runs its gate and returns it to service
    await w.run(["apply", "-auto-approve", "-no-color"]);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    const slurm = await slurmNodes(lab);
    for (const n of nodes) expect(slurm.get(n)?.schedulable, n).toBe(true);
    for (const v of (await maasView(lab)).values()) expect(v).toMatch(/^Deployed\//);
  });
});
