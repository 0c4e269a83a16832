/**
 * Day-2 drift under the real engines, the Ironic + Kubernetes cases day2-drift-ironic.test.ts leaves to this file (it
 * is near its size limit; the MAAS + Slurm file has them all): a GPU lost on a running node, the flavor baseline edited
 * in code, and the golden image's URL answering 404. A converged 4-node rack written as the demo writes it; the lab runs
 * on its `instant` profile.
 */
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, engine, folded, type Workdir } from "../support/engines.js";
import { kubeView } from "../support/lab-clients.js";
import { GOLDEN_IMAGE, plannedChanges, rackStack, resourceName } from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

let lab: Lab;
let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
  lab = await startLab({ nodes: 4, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
});
afterAll(async () => {
  await lab?.close();
});

/** Every Ironic node as name → "provision_state/maintenance reason or in-service/uuid". */
async function ironicView(): Promise<Map<string, string>> {
  const c = new IronicClient({ url: lab.info.ironic!.url });
  try {
    return new Map(
      (await c.listNodes({ detail: true })).map((n) => [
        n.name ?? n.uuid,
        `${n.provisionState}/${n.maintenance ? (n.maintenanceReason ?? "maintenance") : "in-service"}/${n.uuid}`,
      ]),
    );
  } finally {
    await c.close();
  }
}

/** Changes other than no-op and read, as "address actions". */
const changed = async (w: Workdir) =>
  (await plannedChanges(w))
    .filter((c) => !["no-op", "read"].includes(c.actions.join()))
    .map((c) => `${c.address} ${c.actions.join()}`)
    .sort();

describe.each(ENGINES)("day-2 drift on a 4-node Ironic + Kubernetes rack under %s (GPU, flavor, image)", (name) => {
  let w: Workdir;
  let nodes: string[];

  beforeAll(async () => {
    nodes = lab.info.nodes.map((n) => n.name);
    w = await rackStack(engine(name), cliConfig, lab, "ironic", nodes, { scheduler: "kubernetes" });
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
  });

  /** The next plan is empty; every node is active and in service in Ironic, Ready and schedulable in Kubernetes. */
  async function converged(): Promise<void> {
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    for (const [n, v] of await ironicView()) expect(v, n).toMatch(/^active\/in-service\//);
    const kube = await kubeView(lab);
    for (const n of nodes) expect(kube.get(n), n).toBe(true);
  }

  it("a GPU lost: that node's gate re-runs, fails naming the missing GPU, quarantines it and cordons it; repaired, one apply returns it", async () => {
    const r = resourceName(nodes[1]);
    const before = await ironicView();
    const from = lab.backends!.kubernetes.requests.length;
    const fault = lab.world.faults.add({ kind: "missing-gpu", node: nodes[1], gpus: 1 });
    try {
      expect(await changed(w)).toEqual(
        [
          `rackform_bmc.${r} update`, // the re-check records conformant = false
          `rackform_acceptance.${r} delete,create`, // bmc_gpu_count 8 -> 7: the gate runs again
          `rackform_cluster_member.${r} delete,create`, // a new gate drains the node first
        ].sort(),
      );
      const apply = await w.run(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
      expect(apply.code).not.toBe(0);
      expect(folded(apply)).toContain(`(${nodes[1]}) failed the gate`);
      expect(folded(apply)).toContain("expected_gpu_count: measured 7 GPUs visible; threshold 8 GPUs");
      // Quarantined in Ironic (rackform's maintenance), out of Kubernetes; nothing else touched.
      const after = await ironicView();
      expect(after.get(nodes[1])).toMatch(/\/rackform acceptance failed/);
      for (const n of nodes.filter((x) => x !== nodes[1])) expect(after.get(n), n).toBe(before.get(n));
      const writes = lab.backends!.kubernetes.requests.slice(from).filter((q) => q.method !== "GET");
      expect(writes.filter((q) => !q.path.includes(nodes[1]))).toEqual([]);
      const kube = await kubeView(lab);
      expect(kube.get(nodes[1]) ?? false).toBe(false);
      for (const n of nodes.filter((x) => x !== nodes[1])) expect(kube.get(n), n).toBe(true);
    } finally {
      lab.world.faults.remove(fault.id);
    }
    // The GPU back: the gate re-runs, lifts rackform's quarantine, passes, and the node rejoins — in one apply.
    const fix = await changed(w);
    expect(fix.filter((c) => !c.includes(`.${r} `))).toEqual([]);
    expect(fix).toContain(`rackform_acceptance.${r} delete,create`);
    await w.ok(["apply", "-auto-approve", "-no-color", "rack.tfplan"]);
    await converged();
  });

  it("the flavor baseline edited in code (GPU count): the plan re-checks every BMC and changes nothing else", async () => {
    const tf = await readFile(join(w.dir, "main.tf"), "utf8");
    await w.write({ "main.tf": tf.replace("gpu_count = 8", "gpu_count = 4") });
    try {
      expect(await changed(w)).toEqual(nodes.map((n) => `rackform_bmc.${resourceName(n)} update`).sort());
    } finally {
      await w.write({ "main.tf": tf });
    }
    await converged();
  });

  it("the golden image's URL answering 404: the plan destroys nothing and warns on image.url for every node", async () => {
    const file = `${GOLDEN_IMAGE.name}-${GOLDEN_IMAGE.version}.qcow2`;
    lab.images.remove(file);
    try {
      const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(plan.code, plan.stdout + plan.stderr).toBe(0);
      for (const n of nodes) expect(folded(plan)).toContain(`Warning: Image URL no longer answers: ${n}`);
      expect(folded(plan)).toMatch(/which no longer answers \([^)]*404/);
      expect(folded(plan)).toContain("Restore the image at that URL, or set image.url to where it is served now.");
      // On each node's deployment, naming image.url (the diagnostic's attribute path; a refresh shows the block).
      for (const n of nodes) expect(folded(plan)).toContain(`with rackform_deployment.${resourceName(n)},`);
      expect(folded(plan)).toContain("was deployed from image.url");
    } finally {
      lab.images.put(file, `${GOLDEN_IMAGE.name}-${GOLDEN_IMAGE.version}`);
    }
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout + again.stderr).not.toContain("Image URL no longer answers");
  });
});
