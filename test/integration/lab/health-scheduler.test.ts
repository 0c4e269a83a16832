/**
 * Integration: what the schedulers make of a GPU fallen off the bus on a joined node — slurmctld drains it itself with
 * slurmd's gres wording (set by slurm, INVALID_REG), distinguishable from a person's drain through slurmrestd; the
 * Kubernetes Node's allocatable GPUs drop while its capacity stays — and a reimage (a new deploy) cures its faults.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { KubernetesApi, ListeningServer, SlurmApi } from "../../../src/lab/scheduler/index.js";
import type { LabNode } from "../../../src/lab/world/model.js";
import { type JoinsRig, joinsRig } from "../../support/lab-joins.js";

describe("health faults and the schedulers", () => {
  let rig: JoinsRig;
  let world: JoinsRig["world"];
  let slurm: SlurmApi;
  let k8s: KubernetesApi;
  let server: ListeningServer | undefined;
  const nodes: LabNode[] = [];

  beforeEach(() => {
    rig = joinsRig({ nodes: 2, jwtTokens: { alice: "tok-a" } });
    ({ world, slurm, k8s } = rig);
    nodes.length = 0;
    nodes.push(...rig.nodes);
  });
  afterEach(async () => server?.close());

  const inject = (spec: Record<string, unknown>) => rig.inject(spec);
  const deploy = (n: LabNode) => rig.deploy(n);
  /** Lets the joins' boot and heartbeat run: a few ticks of the manual clock. */
  const tick = (times?: number) => rig.tick(times);
  type NodeStatusGpus = { allocatable?: Record<string, string>; capacity?: Record<string, string> };
  const status = (n: LabNode) => (k8s.hooks.node(n.spec.name)?.status ?? {}) as NodeStatusGpus;
  const allocatable = (n: LabNode) => status(n).allocatable?.["nvidia.com/gpu"];
  const capacity = (n: LabNode) => status(n).capacity?.["nvidia.com/gpu"];

  it("slurmctld drains a node whose GPU fell off the bus, in its own words; Kubernetes' allocatable drops", async () => {
    const [a, b] = nodes;
    for (const n of nodes) deploy(n);
    await tick();
    expect(slurm.hooks.node(a.spec.name)?.gres).toBe("gpu:h100:8");
    inject({ kind: "gpu-xid", node: a.spec.name, xid: 79, gpu: 3 });
    inject({ kind: "gpu-xid", node: b.spec.name, xid: 48, gpu: 0 });
    await tick();
    const sa = slurm.hooks.node(a.spec.name);
    expect(sa).toMatchObject({
      drain: true,
      invalidReg: true,
      reason: "gres/gpu count reported lower than configured (7 < 8)",
      reasonSetByUser: "slurm",
    });
    // An XID 48 leaves the GPU on the bus: slurmd reports 8, only the device plugin calls the GPU unhealthy.
    expect(slurm.hooks.node(b.spec.name)?.drain).toBe(false);
    expect([allocatable(a), capacity(a)]).toEqual(["7", "8"]);
    expect([allocatable(b), capacity(b)]).toEqual(["7", "8"]);
    const last = slurm.hooks
      .transitions()
      .filter((x) => x.node === a.spec.name)
      .at(-1);
    expect(last?.state).toContain("INVALID_REG");
    expect(last?.out).toBe(true);

    // The power cycle cures the XID 79: slurmd registers all 8 again (INVALID_REG goes, the drain waits for a RESUME).
    world.setHostPower(a, false);
    world.setHostPower(a, true);
    await tick();
    expect(world.visibleGpus(a)).toHaveLength(8);
    expect(allocatable(a)).toBe("8");
    expect(slurm.hooks.node(a.spec.name)).toMatchObject({ drain: true, invalidReg: false, gres: "gpu:h100:8" });
  });

  it("every boot registers slurmd again, even a reset slurmctld never saw: a cured GPU clears INVALID_REG", async () => {
    const [a] = nodes;
    deploy(a);
    await tick();
    inject({ kind: "gpu-xid", node: a.spec.name, xid: 79, gpu: 5 });
    await tick();
    expect(slurm.hooks.node(a.spec.name)).toMatchObject({ drain: true, invalidReg: true });
    // A ForceRestart through the BMC: the host is never seen off (the instant profile), yet the OS boots again.
    world.setHostPower(a, true);
    await tick();
    expect(slurm.hooks.node(a.spec.name)).toMatchObject({
      drain: true,
      invalidReg: false,
      reason: "gres/gpu count reported lower than configured (7 < 8)",
    });
    const states = slurm.hooks
      .transitions()
      .filter((x) => x.node === a.spec.name)
      .map((x) => x.state.join("+"));
    expect(states.slice(-2)).toEqual(["DOWN+DRAIN+INVALID_REG", "DOWN+DRAIN"]);
  });

  it("a boot with the GPU still off the bus registers invalid again: the flag stays, the drain stays", async () => {
    const [a] = nodes;
    deploy(a);
    await tick();
    inject({ kind: "gpu-xid", node: a.spec.name, xid: 79, gpu: 1, cure: "none" });
    await tick();
    world.setHostPower(a, false);
    await tick(); // off long enough for slurmctld to notice: DOWN, not responding
    expect(slurm.hooks.node(a.spec.name)).toMatchObject({ down: true, notResponding: true });
    world.setHostPower(a, true);
    await tick();
    expect(slurm.hooks.node(a.spec.name)).toMatchObject({
      down: true,
      drain: true,
      notResponding: false,
      invalidReg: true,
      reason: "gres/gpu count reported lower than configured (7 < 8)",
    });
  });

  it("a host powered on again registers once per boot, not on every heartbeat", async () => {
    const [a] = nodes;
    deploy(a);
    await tick();
    const registrations = () =>
      slurm.hooks.transitions().filter((x) => x.node === a.spec.name && x.cause === "register").length;
    const before = registrations();
    const started = slurm.hooks.node(a.spec.name)?.bootTime ?? 0;
    world.setHostPower(a, false);
    await tick(12); // off for over a second: the new start is a later second
    world.setHostPower(a, true);
    await tick(8);
    expect(slurm.hooks.node(a.spec.name)).toMatchObject({ notResponding: false, down: true });
    expect(registrations()).toBe(before + 1);
    // slurmd_start_time is the new start's.
    expect(slurm.hooks.node(a.spec.name)?.bootTime).toBeGreaterThan(started);
  });

  it("a person's drain through slurmrestd keeps its reason and author when slurmctld drains the node too", async () => {
    const [a] = nodes;
    deploy(a);
    await tick();
    server = await slurm.listen("127.0.0.1", 0);
    const res = await fetch(`${server.url}/slurm/v0.0.41/node/${a.spec.name}`, {
      method: "POST",
      headers: { "x-slurm-user-name": "alice", "x-slurm-user-token": "tok-a", "content-type": "application/json" },
      body: JSON.stringify({ state: ["DRAIN"], reason: "fan noise, ticket 42" }),
    });
    expect(res.status).toBe(200);
    inject({ kind: "gpu-xid", node: a.spec.name, xid: 79 });
    await tick();
    expect(slurm.hooks.node(a.spec.name)).toMatchObject({
      drain: true,
      invalidReg: true,
      reason: "fan noise, ticket 42",
      reasonSetByUser: "alice",
    });
    const got = await fetch(`${server.url}/slurm/v0.0.41/node/${a.spec.name}`, {
      headers: { "x-slurm-user-name": "alice", "x-slurm-user-token": "tok-a" },
    });
    const node = ((await got.json()) as { nodes: Record<string, unknown>[] }).nodes[0];
    expect(node).toMatchObject({ reason: "fan noise, ticket 42", reason_set_by_user: "alice" });
    // A slurm.conf node waits DOWN for its RESUME after registering (the lab's ReturnToService=0).
    expect(node.state).toEqual(["DOWN", "DRAIN", "INVALID_REG"]);
  });

  it("a new deploy cures reimage faults and not hardware ones", async () => {
    const [a] = nodes;
    inject({ kind: "gpu-xid", node: a.spec.name, xid: 13 });
    inject({ kind: "gpu-xid", node: a.spec.name, xid: 79, cure: "reimage" });
    inject({ kind: "thermal", node: a.spec.name });
    deploy(a);
    expect(world.faults.list().map((f) => f.kind)).toEqual(["thermal"]);
    expect(world.visibleGpus(a)).toHaveLength(8);
  });
});
