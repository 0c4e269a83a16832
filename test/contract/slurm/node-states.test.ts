/**
 * Node states as Debian's real slurmctld 22.05.8 manages them, read through rackform's SlurmClient: a drain with a
 * reason (done with scontrol: 22.05's REST API cannot drain) is DRAINING while a job runs and DRAINED once it ends,
 * and rackform's waitDrained sees it through; a resume; a node whose slurmd stops goes DOWN "Not responding" after
 * SlurmdTimeout; a node whose slurmd never started stays UNKNOWN+NOT_RESPONDING; a dynamic node (slurmd -Z) registers
 * itself and, since the REST API has no DELETE before 23.02, is deleted with scontrol only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SlurmClient } from "../../../src/clients/slurm/index.js";
import { type RealSlurmd, type RealSlurmInfo, slurmCmd, startSlurmd } from "../../support/real-slurm.js";
import { until } from "../../support/until.js";
import { caught, client, realSlurm } from "./support.js";

let info: RealSlurmInfo;
let c: SlurmClient;
const daemons: RealSlurmd[] = [];

async function registered(node: string): Promise<void> {
  await until(
    () => `${node}'s slurmd to register`,
    async () => (await c.listNodes()).some((n) => n.name === node && n.schedulable),
    { timeoutMs: 30_000, everyMs: 200 },
  );
}

beforeAll(async () => {
  info = realSlurm();
  c = client(info);
  for (const n of ["ct-n2", "ct-n3"]) daemons.push(startSlurmd(info, n));
  await Promise.all(["ct-n2", "ct-n3"].map(registered));
});
afterAll(async () => {
  await c?.close();
  for (const d of daemons) await d.stop();
});

describe("node states through the real slurmctld 22.05", () => {
  it("a drain with a reason is DRAINING while a job runs, DRAINED once it ends; a resume makes it schedulable", async () => {
    const job = /Submitted batch job (\d+)/.exec(
      slurmCmd(info, "sbatch", ["-w", "ct-n2", "-o", "/dev/null", "--wrap", "sleep 600"]),
    )?.[1];
    expect(job).toBeDefined();
    await until(
      () => "the job to start on ct-n2",
      async () => (await c.getNode("ct-n2")).baseState === "ALLOCATED",
      { timeoutMs: 30_000, everyMs: 200 },
    );
    slurmCmd(info, "scontrol", ["update", "nodename=ct-n2", "state=drain", "reason=firmware update"]);
    expect(await c.getNode("ct-n2")).toMatchObject({
      state: ["ALLOCATED", "DRAIN"],
      draining: true,
      drained: false,
      schedulable: false,
      reason: "firmware update",
    });
    const waiting = c.waitDrained("ct-n2", { timeoutMs: 60_000, pollMs: 200 });
    slurmCmd(info, "scancel", [String(job)]);
    expect(await waiting).toMatchObject({ state: ["IDLE", "DRAIN"], drained: true, reason: "firmware update" });
    slurmCmd(info, "scontrol", ["update", "nodename=ct-n2", "state=resume"]);
    // slurmctld marks a resumed node NOT_RESPONDING until its slurmd answers the next ping: schedulable at once.
    expect(await c.getNode("ct-n2")).toMatchObject({ drain: false, schedulable: true, reason: "" });
    await until(
      () => "ct-n2 to answer slurmctld's ping after the resume",
      async () => (await c.getNode("ct-n2")).state.join("+") === "IDLE",
      { timeoutMs: 60_000, everyMs: 200 },
    );
  });

  it("waitDrained fails with RACKFORM_ERR_SLURM_DRAIN_CANCELLED when the node is resumed by hand while draining", async () => {
    slurmCmd(info, "scontrol", ["update", "nodename=ct-n2", "state=drain", "reason=rolling reimage"]);
    slurmCmd(info, "scontrol", ["update", "nodename=ct-n2", "state=resume"]);
    expect((await caught(c.waitDrained("ct-n2", { timeoutMs: 10_000, pollMs: 200 }))).code).toBe(
      "RACKFORM_ERR_SLURM_DRAIN_CANCELLED",
    );
  });

  it("a node whose slurmd stops goes DOWN with reason Not responding after SlurmdTimeout", async () => {
    await daemons.find((d) => d.node === "ct-n3")?.stop();
    await until(
      () => "slurmctld to set ct-n3 DOWN",
      async () => (await c.getNode("ct-n3")).down,
      { timeoutMs: 90_000, everyMs: 500 },
    );
    expect(await c.getNode("ct-n3")).toMatchObject({
      state: ["DOWN", "NOT_RESPONDING"],
      schedulable: false,
      reason: "Not responding",
    });
  });

  it("a node slurm.conf lists whose slurmd never started stays UNKNOWN and NOT_RESPONDING", async () => {
    expect(await c.getNode("ct-ghost")).toMatchObject({
      state: ["UNKNOWN", "NOT_RESPONDING"],
      schedulable: false,
      down: false,
    });
  });

  it("a dynamic node (slurmd -Z) registers itself; rackform cannot delete it on 22.05, scontrol can", async () => {
    const dyn = startSlurmd(info, "ct-dyn1", { dynamic: true });
    daemons.push(dyn);
    await registered("ct-dyn1");
    const n = await c.getNode("ct-dyn1");
    expect(n.features).toEqual(["dyn"]);
    expect(n.state).toContain("DYNAMIC_NORM");
    expect((await caught(c.deleteNode("ct-dyn1"))).code).toBe("RACKFORM_ERR_SLURM_UNSUPPORTED");
    await dyn.stop();
    slurmCmd(info, "scontrol", ["delete", "nodename=ct-dyn1"]);
    expect((await caught(c.getNode("ct-dyn1"))).code).toBe("RACKFORM_ERR_SLURM_NOT_FOUND");
  });
});
