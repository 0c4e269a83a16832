/**
 * Unit: the os-hang health fault — the node's OS hangs while its host stays On. The BMC sees nothing (no health, no
 * log entry, no new ETag); slurmctld sets the node DOWN "Not responding" after SlurmdTimeout and the node lifecycle
 * controller makes its Node NotReady after the grace period, as for a host powered off; a power cycle cures it and the
 * OS boots and registers again.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { profileByName } from "../../../src/lab/index.js";
import { systemBody } from "../../../src/lab/redfish/system.js";
import type { KubernetesApi, SlurmApi } from "../../../src/lab/scheduler/index.js";
import type { LabNode } from "../../../src/lab/world/model.js";
import { type JoinsRig, joinsRig } from "../../support/lab-joins.js";

/** The lab's timeouts for this file: the grace period (400 ms) runs out well before SlurmdTimeout (1 s). */
const SLURMD_TIMEOUT_MS = 1_000;
const GRACE_MS = 400;

describe("os-hang", () => {
  let rig: JoinsRig;
  let world: JoinsRig["world"];
  let slurm: SlurmApi;
  let k8s: KubernetesApi;
  let a: LabNode;

  beforeEach(() => {
    const profile = { ...profileByName("instant"), slurmdTimeoutMs: SLURMD_TIMEOUT_MS, nodeMonitorGraceMs: GRACE_MS };
    rig = joinsRig({ nodes: 2, jwtTokens: { alice: "tok-a" }, profile });
    ({ world, slurm, k8s } = rig);
    a = rig.nodes[0];
  });

  const inject = (spec: Record<string, unknown>) => rig.inject(spec);
  /** MAAS reaches Deployed; `userData` of the machine (a dynamic slurmd registers IDLE, not DOWN awaiting RESUME). */
  const deploy = (n: LabNode, userData?: string) => rig.deploy(n, userData);
  const DYNAMIC = "#cloud-config\nruncmd:\n  - slurmd -Z\n";
  /** Lets the joins' boot and heartbeat run: ticks of 100 ms of the manual clock (the joins' tick here). */
  const tick = (times?: number) => rig.tick(times);
  const ready = (n: LabNode) => {
    const status = (k8s.hooks.node(n.spec.name)?.status ?? {}) as { conditions?: { type: string; status: string }[] };
    return status.conditions?.find((c) => c.type === "Ready")?.status;
  };
  const slurmNode = (n: LabNode) => slurm.hooks.node(n.spec.name);
  /** What the BMC serves about the node's health. */
  const bmc = (n: LabNode) => ({
    power: world.powerState(n),
    status: systemBody(world, n).Status,
    log: world.logs.entries(n.spec.name).length,
    etag: n.generation,
  });

  it("the BMC sees nothing; Kubernetes notices after the grace period, slurmctld after SlurmdTimeout", async () => {
    deploy(a, DYNAMIC);
    await tick(2);
    expect(slurmNode(a)).toMatchObject({ down: false, notResponding: false, reason: "" });
    expect(ready(a)).toBe("True");
    const before = bmc(a);
    expect(before.status).toMatchObject({ Health: "OK", HealthRollup: "OK" });
    inject({ kind: "os-hang", node: a.spec.name });
    expect(bmc(a)).toEqual(before);

    await tick(6); // past the grace period, short of SlurmdTimeout
    expect(ready(a)).toBe("Unknown");
    expect(k8s.hooks.node(a.spec.name)?.spec).toMatchObject({
      taints: expect.arrayContaining([expect.objectContaining({ key: "node.kubernetes.io/unreachable" })]),
    });
    expect(slurmNode(a)).toMatchObject({ down: false, notResponding: false });

    await tick(6); // past SlurmdTimeout
    expect(slurmNode(a)).toMatchObject({ down: true, notResponding: true, reason: "Not responding" });
    const last = slurm.hooks.transitions().at(-1);
    expect(last).toMatchObject({ node: a.spec.name, cause: "lost", out: true });
    expect(last?.state).toEqual(expect.arrayContaining(["DOWN", "NOT_RESPONDING"]));
    // Still On, still healthy, nothing logged, the same ETag: a BMC cannot see an OS hang.
    expect(bmc(a)).toEqual(before);
    // The neighbour runs on.
    const b = [...world.nodes.values()][1];
    deploy(b);
    await tick(2);
    expect([slurmNode(b)?.notResponding, ready(b)]).toEqual([false, "True"]);
  });

  it("a power cycle cures it: the OS boots, slurmd registers again and the kubelet posts Ready", async () => {
    deploy(a);
    await tick(2);
    inject({ kind: "os-hang", node: a.spec.name });
    await tick(12);
    expect(slurmNode(a)).toMatchObject({ down: true, notResponding: true });
    world.setHostPower(a, false);
    await tick(1);
    world.setHostPower(a, true);
    expect(world.faults.list()).toEqual([]);
    await tick(2);
    // The node stays DOWN until RESUMEd (ReturnToService=0); NOT_RESPONDING went with the registration.
    expect(slurmNode(a)).toMatchObject({ down: true, notResponding: false });
    expect(slurm.hooks.transitions().at(-1)).toMatchObject({ node: a.spec.name, cause: "register" });
    expect(ready(a)).toBe("True");
    expect(systemBody(world, a).Status).toMatchObject({ Health: "OK", HealthRollup: "OK" });
    expect(world.logs.entries(a.spec.name)).toEqual([]);
  });

  it("with cure none it survives a power cycle: the host comes back On and hangs again", async () => {
    deploy(a);
    await tick(2);
    inject({ kind: "os-hang", node: a.spec.name, cure: "none" });
    await tick(12);
    world.setHostPower(a, true); // a ForceRestart
    await tick(4);
    expect(world.faults.list().map((x) => x.kind)).toEqual(["os-hang"]);
    expect(slurmNode(a)).toMatchObject({ down: true, notResponding: true });
    expect(ready(a)).toBe("Unknown");
    expect(world.logs.entries(a.spec.name)).toEqual([]); // not found again at POST either
  });

  it("a hang that ends without a boot (fault deleted): slurmd registers once, the kubelet posts Ready", async () => {
    deploy(a);
    await tick(2);
    const f = inject({ kind: "os-hang", node: a.spec.name, cure: "none" });
    await tick(12);
    expect(slurmNode(a)).toMatchObject({ down: true, notResponding: true });
    expect(world.faults.remove(f.id)).toBe(true);
    await tick(4);
    expect(slurmNode(a)).toMatchObject({ down: true, notResponding: false });
    expect(ready(a)).toBe("True");
    const registrations = slurm.hooks.transitions().filter((x) => x.node === a.spec.name && x.cause === "register");
    expect(registrations).toHaveLength(2); // the deploy's, and the one after the hang: not one per heartbeat
  });

  it("a deployed OS that hangs from the start registers only once it runs", async () => {
    inject({ kind: "os-hang", node: a.spec.name, cure: "none" });
    deploy(a);
    await tick(4);
    expect(slurmNode(a)).toBeUndefined();
    expect(k8s.hooks.node(a.spec.name)).toBeUndefined();
    world.faults.clear();
    await tick(12);
    expect(slurmNode(a)?.notResponding).toBe(false);
    expect(ready(a)).toBe("True");
  });
});
