/**
 * The disruption budget's reservations in the schedulers themselves (budget-shared.ts through each scheduler's
 * SchedulerOps.shared), against the lab's slurmrestd and Kubernetes API: a reservation written on a node (Slurm: its
 * Comment, an operator's own text kept beside it; Kubernetes: a Lease) is what a second provider process reads back;
 * nodes out of service and reservations are both reported, a reserved Kubernetes node whose Node object is gone too;
 * and two budgets in two "processes" (two clients) contending for one partition let one drain at a time.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KubernetesClient } from "../../../src/clients/kubernetes/index.js";
import { SlurmClient } from "../../../src/clients/slurm/index.js";
import { createLogger } from "../../../src/framework/index.js";
import {
  RESERVATION_LABEL,
  RESERVATION_NAMESPACE,
  reservationLease,
} from "../../../src/provider/budget/budget-shared.js";
import { DisruptionBudget } from "../../../src/provider/budget/disruption-budget.js";
import { kubernetesOps, slurmOps } from "../../../src/provider/resources/cluster-member-scheduler.js";
import { KUBE_TOKEN, type SchedulerRig, SLURM_TOKEN, startRig } from "./cluster-member-support.js";

let rig: SchedulerRig;
const clients: { close(): Promise<void> }[] = [];
beforeEach(async () => {
  rig = await startRig();
});
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close();
  await rig.close();
});

const log = createLogger({ write: () => {} });
const slurm = () => {
  const c = new SlurmClient({ url: rig.slurmUrl, user: "rackform", token: SLURM_TOKEN });
  clients.push(c);
  return c;
};
const kube = () => {
  const c = new KubernetesClient({ url: rig.kubeUrl, token: KUBE_TOKEN });
  clients.push(c);
  return c;
};

describe("reservations in Slurm (node Comment)", () => {
  beforeEach(() => {
    for (const n of ["gpu-01", "gpu-02", "gpu-03"]) rig.slurm.hooks.registerNode(n);
  });

  it("one process's reservation is what another reads; the operator's comment is kept and stays after removal", async () => {
    const op = slurm();
    await op.setComment("gpu-01", "RMA ticket 4711");
    const [a, b] = [slurmOps(slurm()).shared("slurm:gpu"), slurmOps(slurm()).shared("slurm:gpu")];
    const until = Date.parse("2026-11-26T12:00:00.000Z");
    // WHEN process A reserves gpu-01 THEN process B sees it, with its owner and expiry
    await a.reserve("gpu-01", { owner: "rf-a", until });
    const seen = (await b.survey()).find((n) => n.name === "gpu-01");
    expect(seen).toMatchObject({ out: false, reservation: { owner: "rf-a", until } });
    // AND scontrol shows the operator's text beside rackform's
    expect((await op.getNode("gpu-01", { fresh: true })).comment).toBe(
      "RMA ticket 4711 [rackform-budget: reserved by rf-a until 2026-11-26T12:00:00.000Z]",
    );
    // WHEN it is removed THEN the operator's comment is all that is left
    await b.unreserve("gpu-01");
    expect((await op.getNode("gpu-01", { fresh: true })).comment).toBe("RMA ticket 4711");
    expect((await a.survey()).find((n) => n.name === "gpu-01")?.reservation).toBeUndefined();
  });

  it("reports drained nodes as out with the scheduler's reason, and only the key's partition", async () => {
    rig.slurm.hooks.registerNode("dbg-01", { partitions: ["debug"] });
    await slurm().drain("gpu-02", "bad DIMM?");
    const nodes = await slurmOps(slurm()).shared("slurm:gpu").survey();
    expect(nodes.map((n) => n.name).sort()).toEqual(["gpu-01", "gpu-02", "gpu-03"]);
    expect(nodes.find((n) => n.name === "gpu-02")).toMatchObject({ out: true });
    expect(nodes.find((n) => n.name === "gpu-02")?.why).toContain("reason: bad DIMM?");
  });

  it("two processes contending for one slot through slurmrestd: one drains, the other waits until it rejoins", async () => {
    const [pa, pb] = [new DisruptionBudget({ owner: "rf-a" }), new DisruptionBudget({ owner: "rf-b" })];
    const ask = (b: DisruptionBudget, node: string) =>
      b.acquire({
        key: "slurm:gpu",
        node,
        max: 1,
        signal: new AbortController().signal,
        shared: slurmOps(slurm()).shared("slurm:gpu"),
        log,
      });
    const got: string[] = [];
    const a = ask(pa, "gpu-01").then(() => got.push("gpu-01"));
    const b = ask(pb, "gpu-02").then(() => got.push("gpu-02"));
    await Promise.race([a, b]);
    await new Promise((r) => setTimeout(r, 1_500));
    // THEN exactly one won, and the other waits while the winner's reservation stands
    expect(got).toHaveLength(1);
    const [winner, owner] = got[0] === "gpu-01" ? [pa, "gpu-01"] : [pb, "gpu-02"];
    winner.release([owner], "rejoined", log);
    await Promise.all([a, b]);
    expect(got).toHaveLength(2);
  }, 20_000);
});

describe("reservations in Kubernetes (a Lease per node)", () => {
  beforeEach(() => {
    for (const n of ["gpu-01", "gpu-02"]) rig.kube.hooks.registerNode(n);
  });

  it("a reservation is a Lease another process reads, renewed in place and deleted on release", async () => {
    const [a, b] = [kubernetesOps(kube()).shared("kubernetes"), kubernetesOps(kube()).shared("kubernetes")];
    const until = Date.now() + 120_000;
    await a.reserve("gpu-02", { owner: "rf-a", until });
    const seen = (await b.survey()).find((n) => n.name === "gpu-02");
    expect(seen?.reservation?.owner).toBe("rf-a");
    expect(Math.abs((seen?.reservation?.until ?? 0) - until)).toBeLessThan(2_000);
    // WHEN renewed (or adopted by another run) THEN the same Lease is replaced, holder and all
    await b.reserve("gpu-02", { owner: "rf-b", until: until + 60_000 });
    const leases = await kube().listLeases(RESERVATION_NAMESPACE, { [RESERVATION_LABEL]: "kubernetes" });
    expect(leases.map((l) => [l.name, l.holder])).toEqual([[reservationLease("gpu-02"), "rf-b"]]);
    // WHEN released THEN no Lease is left
    await a.unreserve("gpu-02");
    expect(await kube().listLeases(RESERVATION_NAMESPACE, { [RESERVATION_LABEL]: "kubernetes" })).toEqual([]);
    await a.unreserve("gpu-02"); // already gone: no error
  });

  it("a reserved node whose Node object was deleted (its machine reimaged) still counts, as out and reserved", async () => {
    const shared = kubernetesOps(kube()).shared("kubernetes");
    await shared.reserve("gpu-01", { owner: "rf-a", until: Date.now() + 60_000 });
    rig.kube.hooks.deleteNode("gpu-01");
    const nodes = await shared.survey();
    expect(nodes.find((n) => n.name === "gpu-01")).toMatchObject({ out: true, why: "no Node object" });
  });

  it("reports cordoned nodes as out", async () => {
    await kube().cordon("gpu-01");
    const nodes = await kubernetesOps(kube()).shared("kubernetes").survey();
    expect(nodes.find((n) => n.name === "gpu-01")).toMatchObject({ out: true, why: "Ready,SchedulingDisabled" });
    expect(nodes.find((n) => n.name === "gpu-02")).toMatchObject({ out: false });
  });
});
