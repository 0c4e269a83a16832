/**
 * Composed lab, MAAS path: a machine enrolled with the lab BMC's Redfish power parameters commissions, deploys with
 * user data asking to join Slurm, shows up in slurmrestd (DOWN until resumed), and leaves when released with erase.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Lab } from "../../../src/lab/index.js";
import { labControl } from "../../support/lab-control.js";
import { until } from "../../support/until.js";
import {
  createRedfishMachine,
  joinUserData,
  maas,
  maasStatus,
  powerOutlet,
  slurm,
  startComposedLab,
} from "./support.js";

describe("composed lab: MAAS deploy joins Slurm, release leaves it", () => {
  let lab: Lab;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ lab, stop } = await startComposedLab({ nodes: 1 }));
  });
  afterAll(async () => stop());

  it("commission → Ready → deploy → Deployed → Slurm node → release+erase → Ready → node DOWN Not responding", async () => {
    const node = lab.info.nodes[0];
    await powerOutlet(lab, node.name);
    const world = lab.world.node(node.name);
    if (!world) throw new Error("world node missing");
    const created = await createRedfishMachine(lab, 0, "gpu-a1");
    expect(created.status, created.text).toBe(200);
    const id: string = created.json.system_id;

    const ready = await maasStatus(lab, id, "Ready");
    expect(ready.power_type).toBe("redfish");
    // MAAS powered the host through the lab BMC (real HTTPS Redfish): PXE override consumed, host off again
    // (instant profile: Ready may be reported before the power calls in flight have landed).
    await until("commissioning PXE boot and power-off through Redfish", async () =>
      world.lastBootSource === "Pxe" && lab.world.powerState(world) === "Off" ? true : undefined,
    );

    const userData = Buffer.from(joinUserData("slurm")).toString("base64");
    const dep = await maas(lab, "POST", `machines/${id}/`, {
      op: "deploy",
      distro_series: "jammy",
      user_data: userData,
    });
    expect(dep.status, dep.text).toBe(200);
    await maasStatus(lab, id, "Deployed");

    const joined = await until("gpu-a1 in slurmrestd", async () => {
      const r = await slurm(lab, "GET", "/node/gpu-a1");
      return r.status === 200 ? r.json.nodes[0] : undefined;
    });
    // slurm.conf has the node, ReturnToService=0: a booted node stays DOWN until rackform resumes it.
    expect(joined.state).toEqual(["DOWN"]);
    expect(joined.gres).toBe("gpu:h100:8");
    expect(joined.features).toEqual(expect.arrayContaining(["h100", "nvlink4", "fabric400g"]));
    const resumed = await slurm(lab, "POST", "/node/gpu-a1", { state: ["RESUME"] });
    expect(resumed.status, resumed.text).toBe(200);
    expect((await slurm(lab, "GET", "/node/gpu-a1")).json.nodes[0].state).toEqual(["IDLE"]);

    // The host powered off by hand: past SlurmdTimeout slurmctld marks it DOWN "Not responding"; powered on again, its
    // slurmd registers but the node stays DOWN (ReturnToService=0) until resumed.
    const host = lab.world.node(lab.info.nodes[0].name)!;
    lab.world.setHostPower(host, false);
    const silent = await until("gpu-a1 DOWN after SlurmdTimeout", async () => {
      const n = (await slurm(lab, "GET", "/node/gpu-a1")).json.nodes[0];
      return n.state.includes("DOWN") ? n : undefined;
    });
    expect(silent.reason).toBe("Not responding");
    lab.world.setHostPower(host, true);
    await new Promise((r) => setTimeout(r, 300)); // a few heartbeat ticks: slurmd is back
    expect((await slurm(lab, "GET", "/node/gpu-a1")).json.nodes[0].state).toEqual(["DOWN"]);
    const again = await slurm(lab, "POST", "/node/gpu-a1", { state: ["RESUME"] });
    expect(again.status, again.text).toBe(200);
    expect((await slurm(lab, "GET", "/node/gpu-a1")).json.nodes[0].state).toEqual(["IDLE"]);

    const rel = await maas(lab, "POST", `machines/${id}/`, { op: "release", erase: "true" });
    expect(rel.status, rel.text).toBe(200);
    await maasStatus(lab, id, "Ready");
    const gone = (await slurm(lab, "GET", "/node/gpu-a1")).json.nodes[0];
    expect(gone.state).toEqual(["DOWN", "NOT_RESPONDING"]);
    expect(gone.reason).toBe("Not responding");
    await until("host powered off after release", async () =>
      lab.world.powerState(world) === "Off" ? true : undefined,
    );
  });

  // Runs after the first test, on its released (Ready) machine.
  it("a deploy-failure fault injected through the control API fails the MAAS deployment, and nothing joins", async () => {
    const node = lab.info.nodes[0];
    const f = await labControl(lab, "POST", "/faults", { kind: "deploy-failure", node: node.name, count: 1 });
    expect(f.status).toBe(201);
    const list = (await maas(lab, "GET", "machines/")).json;
    const id: string = list[0].system_id;
    const userData = Buffer.from(joinUserData("slurm")).toString("base64");
    await maas(lab, "POST", `machines/${id}/`, { op: "deploy", user_data: userData });
    const failed = await maasStatus(lab, id, "Failed deployment");
    expect(failed.status_message).toMatch(/Installation failed/);
    expect((await slurm(lab, "GET", "/node/gpu-a1")).json.nodes[0].state).toEqual(["DOWN", "NOT_RESPONDING"]);
  });
});
