/**
 * Integration: data rackform_scheduler_health's read through the real Slurm and Kubernetes clients against the lab's
 * slurmrestd and Kubernetes API, whose nodes the lab's joins drive (boot, heartbeat, a GPU fallen off the bus, a host
 * gone silent): what the scheduler marks by itself is a finding, a person's drain and rackform's own are not, and a
 * flag the scheduler keeps under rackform's drain stays a finding.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubernetesClient } from "../../../src/clients/kubernetes/index.js";
import { SlurmClient } from "../../../src/clients/slurm/index.js";
import type { ListeningServer } from "../../../src/lab/scheduler/index.js";
import type { LabNode } from "../../../src/lab/world/model.js";
import { readSchedulerHealth, type SchedulerHealthDeps } from "../../../src/provider/data-sources/scheduler-health.js";
import type { SchedulerHealthModel } from "../../../src/provider/data-sources/scheduler-health-schema.js";
import { type JoinsRig, joinsRig } from "../../support/lab-joins.js";
import { diagnosticLines, typedRequest } from "../../support/typed-request.js";

describe("data rackform_scheduler_health against the lab's schedulers", () => {
  let rig: JoinsRig;
  let servers: ListeningServer[] = [];
  let clients: { slurm: SlurmClient; person: SlurmClient; kube: KubernetesClient };
  const nodes: LabNode[] = [];

  beforeEach(async () => {
    rig = joinsRig({ nodes: 5, jwtTokens: { rackform: "tok-r", alice: "tok-a" } });
    nodes.length = 0;
    nodes.push(...rig.nodes);
    servers = [await rig.slurm.listen("127.0.0.1", 0), await rig.k8s.listen("127.0.0.1", 0)];
    const [s, k] = servers;
    clients = {
      slurm: new SlurmClient({ url: s.url, user: "rackform", token: "tok-r", nodeCacheMaxAgeMs: 0 }),
      person: new SlurmClient({ url: s.url, user: "alice", token: "tok-a", nodeCacheMaxAgeMs: 0 }),
      kube: new KubernetesClient({ url: k.url, token: "k", nodeCacheMaxAgeMs: 0 }),
    };
  });
  afterEach(async () => {
    await Promise.all(Object.values(clients).map((c) => c.close()));
    await Promise.all(servers.map((s) => s.close()));
  });

  const inject = (spec: Record<string, unknown>) => rig.inject(spec);
  const deploy = (n: LabNode) => rig.deploy(n);
  const tick = (times?: number) => rig.tick(times);
  const deps = (): SchedulerHealthDeps => ({
    slurmNodes: () => clients.slurm.listNodes(),
    kubernetesNodes: () => clients.kube.listNodes(),
  });
  /** The read's findings, as a plan would see them, for the nodes named (plus one no scheduler knows). */
  async function findings(scheduler: "slurm" | "kubernetes") {
    const r = typedRequest();
    const names = [...nodes.map((n) => n.spec.name), "never-booted"];
    const config: SchedulerHealthModel = { scheduler, nodes: names, findings: null };
    const out = await readSchedulerHealth({ ...r, config }, deps());
    expect(diagnosticLines(r.diagnostics)).toEqual([]);
    return out?.findings ?? {};
  }
  const kinds = (f: Record<string, readonly { kind: string | null }[]>) =>
    Object.fromEntries(Object.entries(f).map(([n, l]) => [n, l.map((x) => x.kind)]));

  it("Slurm: a silent slurmd and a refused registration are findings; a person's and rackform's drains are not", async () => {
    const [ok, hung, gpu, held, ours] = nodes;
    for (const n of nodes) deploy(n);
    await tick();
    // GIVEN a host gone silent (slurmctld: DOWN + NOT_RESPONDING), a GPU fallen off the bus (INVALID_REG, drained by
    // slurm), a person's drain with a reason, and rackform's own drain
    rig.world.setHostPower(hung, false);
    inject({ kind: "gpu-xid", node: gpu.spec.name, xid: 79, gpu: 3 });
    await tick();
    await clients.person.drain(held.spec.name, "RMA ticket 4411");
    await clients.slurm.drain(ours.spec.name, "rackform: leaving");
    // WHEN the data source reads
    const f = await findings("slurm");
    // THEN exactly the two marks slurmctld made itself are findings
    expect(kinds(f)).toEqual({
      [ok.spec.name]: [],
      [hung.spec.name]: ["scheduler:not_responding"],
      [gpu.spec.name]: ["scheduler:invalid_registration"],
      [held.spec.name]: [],
      [ours.spec.name]: [],
      "never-booted": [],
    });
    expect(f[hung.spec.name][0]).toMatchObject({
      component: "slurmd: Not responding",
      health: "Critical",
      uri: `slurm:${hung.spec.name}`,
    });
    expect(f[gpu.spec.name][0].component).toBe("slurmd: gres/gpu count reported lower than configured (7 < 8)");
    expect(Date.parse(f[hung.spec.name][0].since ?? "")).toBe(Math.floor(rig.clock.now() / 1000) * 1000);

    // AND rackform draining the silent node for its remedy keeps the finding: NOT_RESPONDING stays under the drain
    await clients.slurm.drain(hung.spec.name, "rackform: leaving");
    expect(kinds(await findings("slurm"))[hung.spec.name]).toEqual(["scheduler:not_responding"]);
    // AND once the host runs again and slurmd registers, the finding is gone
    rig.world.setHostPower(hung, true);
    await tick();
    expect(kinds(await findings("slurm"))[hung.spec.name]).toEqual([]);
  });

  it("Kubernetes: a Node whose kubelet went silent is not Ready, a finding; a cordon is not", async () => {
    const [ok, hung, cordoned] = nodes;
    for (const n of nodes) deploy(n);
    await tick();
    await clients.kube.cordon(cordoned.spec.name);
    rig.world.setHostPower(hung, false);
    await tick(8);
    const f = await findings("kubernetes");
    expect(f[ok.spec.name]).toEqual([]);
    expect(f[cordoned.spec.name]).toEqual([]);
    expect(f[hung.spec.name]).toEqual([
      expect.objectContaining({ kind: "scheduler:not_ready", health: "Critical", uri: `kubernetes:${hung.spec.name}` }),
    ]);
    expect(f[hung.spec.name][0].component).toMatch(/^kubelet: /);
    expect(f["never-booted"]).toEqual([]);
  });

  it("a scheduler that cannot be reached fails the read with the scheduler named, leaving nothing half-read", async () => {
    const r = typedRequest();
    await servers[0].close();
    const config: SchedulerHealthModel = { scheduler: "slurm", nodes: ["n1"], findings: null };
    const out = await readSchedulerHealth({ ...r, config }, deps());
    expect(out).toBeUndefined();
    expect(diagnosticLines(r.diagnostics).join("\n")).toMatch(/read the nodes' health from Slurm/);
    servers = servers.slice(1);
  });
});
