/**
 * Issue 30, the remediation ladder and evidence with an age, as its "done when" sets them: a converged 16-node rack
 * (MAAS + Slurm under Terraform, Ironic + Kubernetes under OpenTofu — test/setup/e2e-engines.ts runs this file under
 * both), the Rack construct's wiring as the demo HCL writes it. The lab injects a GPU XID a power cycle cures on node
 * 3, one a reimage cures on node 7, a hardware fault (nothing but a repair cures it) on node 11, and node 14's
 * evidence expires. Scheduled plan/apply rounds take each node exactly down its ladder, one step per apply: 3 comes
 * back after its power cycle, 7 after its reimage, 11 ends quarantined for repair (its plan then empty) until a person
 * repairs it, 14 is re-checked while idle; no other node's BMC, backend object or scheduler entry sees a write; the
 * final plan is empty. The lab on its `instant` profile.
 */
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Lab, startLab } from "../../src/lab/index.js";
import { ENGINES, type Engine, engine, folded, type Workdir } from "../support/engines.js";
import {
  plannedChanges,
  type RackOptions,
  rackConfig,
  rackStack,
  resourceName,
  sampleKubernetes,
  sampleSlurm,
  uploadGoldenImage,
} from "../support/rack.js";
import { builtProvider, freshInstall, summarise } from "../support/rackform-e2e.js";

let lab: Lab;
let cliConfig: string;
beforeAll(async () => {
  cliConfig = await freshInstall([builtProvider()]);
  lab = await startLab({ nodes: 16, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
  await uploadGoldenImage(lab);
});
afterAll(async () => {
  await lab?.close();
});

/** The planned changes other than no-ops and reads, as "address actions", sorted. */
async function changes(w: Workdir): Promise<string[]> {
  return (await plannedChanges(w))
    .filter((c) => !["no-op", "read"].includes(c.actions.join()))
    .map((c) => `${c.address} ${c.actions.join()}`)
    .sort();
}

/** The in-place updates of one node's ladder step: its deployment, gate and member. */
const step = (r: string) =>
  [`rackform_acceptance.${r}`, `rackform_cluster_member.${r}`, `rackform_deployment.${r}`].map((a) => `${a} update`);

/** A resource's values in state, by type and name. */
async function stateValues(w: Workdir, type: string): Promise<Map<string, Record<string, unknown>>> {
  const r = await w.ok(["show", "-json", "-no-color"]);
  const res = (JSON.parse(r.stdout).values?.root_module?.resources ?? []) as {
    type: string;
    name: string;
    values: Record<string, unknown>;
  }[];
  return new Map(res.filter((x) => x.type === type).map((x) => [x.name, x.values]));
}

/** Every write (not a GET) any lab service received since the marks, as "service method path target". */
function writesSince(marks: Marks): string[] {
  const b = lab.backends!;
  const bmc = lab.requests.since(marks.bmc).map((q) => `bmc ${q.method} ${q.path} ${q.target ?? q.address}`);
  const rest = [
    ...b.maas.requests.slice(marks.maas).map((q) => `maas ${q.method} ${q.path} ${q.op ?? ""}`),
    ...b.ironic.requests.slice(marks.ironic).map((q) => `ironic ${q.method} ${q.path}`),
    ...b.slurm.requests.slice(marks.slurm).map((q) => `slurm ${q.method} ${q.path}`),
    ...b.kubernetes.requests.slice(marks.kubernetes).map((q) => `kubernetes ${q.method} ${q.path}`),
  ];
  // A read's Redfish session (login, logout) changes nothing on the node.
  return [...bmc, ...rest].filter((l) => !/^\S+ (GET|HEAD) /.test(l) && !l.includes("/SessionService/Sessions"));
}

type Marks = { bmc: number; maas: number; ironic: number; slurm: number; kubernetes: number };
const mark = (): Marks => {
  const b = lab.backends!;
  return {
    bmc: lab.requests.last(),
    maas: b.maas.requests.length,
    ironic: b.ironic.requests.length,
    slurm: b.slurm.requests.length,
    kubernetes: b.kubernetes.requests.length,
  };
};

/** Whether the node's scheduler holds it out by itself: Slurm NOT_RESPONDING, or the Kubernetes Node not Ready. */
function schedulerMarked(node: string): boolean {
  const b = lab.backends!;
  const s = b.slurm.hooks.node(node);
  if (s) return s.notResponding === true;
  const k = b.kubernetes.hooks.node(node) as { status?: { conditions?: { type: string; status: string }[] } };
  return k?.status?.conditions?.some((c) => c.type === "Ready" && c.status !== "True") === true;
}

/** Waits (up to 30 s) until `ok()`; fails naming what it waited for. */
async function until(ok: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 30_000; !ok(); ) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** MAAS + Slurm under Terraform, Ironic + Kubernetes under OpenTofu. */
const SHAPE: Record<Engine["name"], { backend: "maas" | "ironic"; scheduler: "slurm" | "kubernetes" }> = {
  terraform: { backend: "maas", scheduler: "slurm" },
  tofu: { backend: "ironic", scheduler: "kubernetes" },
};

describe.each(ENGINES)("the health remediation ladder on a 16-node rack under %s", (name) => {
  let w: Workdir;
  let nodes: string[];
  let opts: RackOptions;
  const at = (i: number) => nodes[i - 1];

  beforeAll(async () => {
    nodes = lab.info.nodes.map((n) => n.name);
    const { backend, scheduler } = SHAPE[name];
    opts = {
      scheduler,
      maxUnavailable: 4,
      remediation: { maxUnhealthy: 4 },
      evidenceMaxAge: { [nodes[13]]: "720h" },
    };
    w = await rackStack(engine(name), cliConfig, lab, backend, nodes, opts);
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color", "-parallelism=16"]);
  });

  /** Rewrites main.tf with `more` options (node 14's evidence age). */
  const rewrite = (more: Partial<RackOptions>) =>
    writeFile(join(w.dir, "main.tf"), rackConfig(lab, SHAPE[name].backend, nodes, { ...opts, ...more }));

  it("takes nodes 3, 7 and 11 down their ladders and re-checks node 14, touching no other node", async () => {
    const [n3, n7, n11, n14] = [at(3), at(7), at(11), at(14)];
    const [r3, r7, r11, r14] = [n3, n7, n11, n14].map(resourceName);
    const mine = new Set([n3, n7, n11, n14]);
    const marks = mark();
    lab.world.faults.add({ kind: "gpu-xid", node: n3, xid: 48, gpu: 1 });
    lab.world.faults.add({ kind: "gpu-xid", node: n7, xid: 48, gpu: 2, cure: "reimage" });
    const hardware = lab.world.faults.add({ kind: "gpu-xid", node: n11, xid: 64, gpu: 3 });
    try {
      // Round 1: each sick node's first step, a power cycle; the plan summary names it with the finding
      expect(await changes(w)).toEqual([...step(r3), ...step(r7), ...step(r11)].sort());
      const summary = await summarise((await w.ok(["show", "-json", "-no-color", "rack.tfplan"])).stdout);
      expect(summary.code, summary.stderr).toBe(0);
      for (const n of [n3, n7, n11]) {
        expect(summary.stdout).toMatch(new RegExp(`${n}[^\\n]*GPU[^\\n]*Critical[^\\n]*power cycle`));
      }
      const round1 = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=16", "rack.tfplan"]);
      expect(folded(round1)).toMatch(new RegExp(`${n7}|${r7}`));
      // Round 2: node 3 healed (its ladder resets), 7 and 11 go on to a reimage
      expect(await changes(w)).toEqual([...step(r3), ...step(r7), ...step(r11)].sort());
      await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=16", "rack.tfplan"]);
      // Round 3: node 7 healed by its reimage (reset); 11 is quarantined for repair
      expect(await changes(w)).toEqual([...step(r7), ...step(r11)].sort());
      const round3 = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=16", "rack.tfplan"]);
      expect(round3.code, round3.stdout + round3.stderr).toBe(0);
      const rungs = await stateValues(w, "rackform_deployment");
      expect([r3, r7, r11].map((r) => rungs.get(r)?.remediation)).toEqual(["", "", "repair"]);
      const members = await stateValues(w, "rackform_cluster_member");
      expect(nodes.filter((n) => members.get(resourceName(n))?.joined !== true)).toEqual([n11]);
      // Held: the next plan is empty and says why
      const held = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
      expect(held.code, held.stdout + held.stderr).toBe(0);
      expect(folded(held)).toContain(`Node held for repair: ${n11}`);
    } finally {
      lab.world.faults.remove(hardware.id);
    }
    // Round 4: node 11 repaired by a person (the BMC reports it OK): its gate re-runs and it returns to service; node
    // 14's evidence expires (its max age shortened below its age) and it is re-checked while idle
    await rewrite({ evidenceMaxAge: { [n14]: "1m" } });
    const aged = await stateValues(w, "rackform_acceptance");
    const measured = Date.parse(String(JSON.parse(String(aged.get(r14)?.evidence)).measured_at));
    await new Promise((res) => setTimeout(res, Math.max(0, measured + 61_000 - Date.now())));
    const round4 = await changes(w);
    expect(round4).toEqual(
      expect.arrayContaining([`rackform_acceptance.${r14} update`, `rackform_cluster_member.${r14} update`]),
    );
    await w.ok(["apply", "-auto-approve", "-no-color", "-parallelism=16", "rack.tfplan"]);
    // Round 5: node 14's max age back; then nothing is left to do
    await rewrite({});
    await w.ok(["apply", "-auto-approve", "-no-color", "-parallelism=16"]);
    // THEN node 14's gate ran again (read by this apply's refresh): newer evidence, the recheck recorded
    const rechecked = await stateValues(w, "rackform_acceptance");
    expect(String(rechecked.get(r14)?.recheck)).toMatch(/^expired:/);
    const again = Date.parse(String(JSON.parse(String(rechecked.get(r14)?.evidence)).measured_at));
    expect(again).toBeGreaterThan(measured);
    expect(rechecked.get(r14)?.passed).toBe(true);
    const last = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(last.code, last.stdout + last.stderr).toBe(0);
    const members = await stateValues(w, "rackform_cluster_member");
    expect(nodes.filter((n) => members.get(resourceName(n))?.joined !== true)).toEqual([]);
    // No other node's BMC, backend object or scheduler entry saw a write in all these rounds
    const others = nodes.filter((n) => !mine.has(n));
    const writes = writesSince(marks);
    for (const n of others)
      expect(
        writes.filter((l) => l.includes(` ${n}`) || l.endsWith(n)),
        n,
      ).toEqual([]);
  });

  it("a node whose gate fails at join on a fault a power cycle cures is power cycled by its ladder and joins", async () => {
    // GIVEN node 16 taken out of the stack, put back and deployed (its boots would cure the fault), then a GPU XID a
    // power cycle cures
    const n16 = at(16);
    const r16 = resourceName(n16);
    const write = (ns: string[]) =>
      writeFile(join(w.dir, "main.tf"), rackConfig(lab, SHAPE[name].backend, ns, { ...opts }));
    await write(nodes.slice(0, 15));
    await w.ok(["apply", "-auto-approve", "-no-color", "-parallelism=16"]);
    await write(nodes);
    await w.ok(["apply", "-auto-approve", "-no-color", `-target=rackform_deployment.${r16}`]);
    lab.world.faults.add({ kind: "gpu-xid", node: n16, xid: 48, gpu: 1 });
    // WHEN its gate runs before any refresh saw the fault: it fails, the node never joined, the gate is tainted
    const gate = `-target=rackform_acceptance.${r16}`;
    const join1 = await w.run(["apply", "-auto-approve", "-no-color", "-refresh=false", gate]);
    expect(join1.code).not.toBe(0);
    expect(folded(join1)).toContain("Acceptance gate failed");
    // THEN the next apply takes its ladder's first step: the failed gate's replacement is the step's gate, run by the
    // member's create after the power cycle, and the node joins
    const laddered = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=16"]);
    expect(laddered.code, laddered.stdout + laddered.stderr).toBe(0);
    const members = await stateValues(w, "rackform_cluster_member");
    expect([members.get(r16)?.joined, members.get(r16)?.remediation]).toEqual([true, "power_cycle:1"]);
    // AND once the ladder has reset (the finding gone), nothing is left to do
    await w.ok(["apply", "-auto-approve", "-no-color", "-parallelism=16"]);
    const last = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(last.code, last.stdout + last.stderr).toBe(0);
  });

  it("an OS hang only the scheduler sees: counted as a signal, it walks the node's ladder and the node rejoins", async () => {
    // GIVEN the rack's ladder counting the scheduler's own marks besides the BMC's (a data source read every plan;
    // the deployments' findings are the same empty lists, so nothing changes)
    await rewrite({ remediation: { maxUnhealthy: 4, signals: ["bmc", "scheduler"] } });
    const quiet = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=16"]);
    expect(quiet.code, quiet.stdout + quiet.stderr).toBe(0);
    expect(quiet.stdout).toMatch(/0 added, 0 changed, 0 destroyed/);
    // AND node 5's OS hangs: its BMC reports nothing; slurmctld (NOT_RESPONDING) or the Node lifecycle (NotReady)
    // notices
    const n5 = at(5);
    const r5 = resourceName(n5);
    const marks = mark();
    const hang = lab.world.faults.add({ kind: "os-hang", node: n5 });
    await until(() => schedulerMarked(n5), `${SHAPE[name].scheduler} to mark ${n5} out`);
    // WHEN the scheduled plan runs: the node's first step, a power cycle, named with the scheduler's finding
    expect(await changes(w)).toEqual(step(r5));
    const summary = await summarise((await w.ok(["show", "-json", "-no-color", "rack.tfplan"])).stdout);
    expect(summary.stdout).toMatch(new RegExp(`${n5}[^\\n]*(slurmd|kubelet)[^\\n]*power cycle`));
    const apply = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=16", "rack.tfplan"]);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    // THEN the power cycle cured the hang, the gate passed and the node rejoined
    expect(lab.world.faults.list().some((f) => f.id === hang.id)).toBe(false);
    const members = await stateValues(w, "rackform_cluster_member");
    expect([members.get(r5)?.joined, members.get(r5)?.remediation]).toEqual([true, "power_cycle:1"]);
    // AND the next apply resets its ladder; then nothing is left to do
    await w.ok(["apply", "-auto-approve", "-no-color", "-parallelism=16"]);
    expect((await stateValues(w, "rackform_deployment")).get(r5)?.remediation).toBe("");
    const last = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(last.code, last.stdout + last.stderr).toBe(0);
    // AND no other node's BMC, backend object or scheduler entry saw a write
    const writes = writesSince(marks);
    for (const n of nodes.filter((x) => x !== n5))
      expect(
        writes.filter((l) => l.includes(` ${n}`) || l.endsWith(n)),
        n,
      ).toEqual([]);
    await rewrite({});
  });

  it("six nodes sick at once with max_unhealthy 2: one apply remediates two, within max_unavailable, and says why", async () => {
    // GIVEN the rack with max_unhealthy 2 (recorded by one apply)
    await rewrite({ remediation: { maxUnhealthy: 2 } });
    await w.ok(["apply", "-auto-approve", "-no-color", "-parallelism=16"]);
    const sick = [2, 4, 6, 9, 12, 15].map(at);
    const faults = sick.map((n) => lab.world.faults.add({ kind: "gpu-xid", node: n, xid: 48, gpu: 0 }));
    try {
      // WHEN the scheduled plan runs: every sick node plans its power cycle; the summary says two will go
      expect(await changes(w)).toEqual(sick.flatMap((n) => step(resourceName(n))).sort());
      const summary = await summarise((await w.ok(["show", "-json", "-no-color", "rack.tfplan"])).stdout);
      expect(summary.stdout).toContain("6 nodes take a health step in this plan and max_unhealthy is 2");
      // THEN the apply power cycles two of them, leaves four as they are with a warning, and never has more than
      // max_unavailable nodes out of service at once
      const sampler = SHAPE[name].scheduler === "slurm" ? sampleSlurm(lab, nodes) : sampleKubernetes(lab, nodes);
      const apply = await w.run(["apply", "-auto-approve", "-no-color", "-parallelism=16", "rack.tfplan"]);
      const samples = await sampler.stop();
      expect(apply.code, apply.stdout + apply.stderr).toBe(0);
      expect(Math.max(...samples.map((x) => x.out.length))).toBeLessThanOrEqual(4);
      // The power cycle cures the lab's fault: two are gone, four stay
      const left = new Set(lab.world.faults.list().map((f) => f.id));
      expect(faults.filter((f) => !left.has(f.id))).toHaveLength(2);
      expect(folded(apply).match(/Remediation held back by max_unhealthy/g)).toHaveLength(4);
    } finally {
      for (const f of faults) lab.world.faults.remove(f.id);
    }
    // WHEN the faults clear: one apply resets every ladder, and nothing is left to do
    await w.ok(["apply", "-auto-approve", "-no-color", "-parallelism=16"]);
    const last = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(last.code, last.stdout + last.stderr).toBe(0);
  });
});
