/**
 * Composed lab, Ironic path: a redfish node pointing at the lab BMC is managed, inspected (ports from the BMC's MACs),
 * provided, deployed with a config drive asking to join Kubernetes; its kubelet registers a cordoned Node with GPU
 * labels; a service step records acceptance evidence; undeploy deletes the Node.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Lab } from "../../../src/lab/index.js";
import { labControl } from "../../support/lab-control.js";
import { until } from "../../support/until.js";
import { ironic, ironicState, type Json, joinUserData, kube, powerOutlet, startComposedLab } from "./support.js";

describe("composed lab: Ironic deploy joins Kubernetes, undeploy leaves it", () => {
  let lab: Lab;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ lab, stop } = await startComposedLab({ nodes: 1 }));
  });
  afterAll(async () => stop());

  it("enroll → manage → inspect (ports) → provide → active → Node registered → service step → undeploy → Node gone", async () => {
    const node = lab.info.nodes[0];
    await powerOutlet(lab, node.name);
    const created = await ironic(lab, "POST", "/v1/nodes", {
      name: "gpu-b1",
      driver: "redfish",
      driver_info: {
        redfish_address: node.bmc.url,
        redfish_username: node.bmc.username,
        redfish_password: node.bmc.password,
        deploy_kernel: "http://images.lab/ipa.kernel",
        deploy_ramdisk: "http://images.lab/ipa.initramfs",
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.json.provision_state).toBe("enroll");

    await ironic(lab, "PUT", "/v1/nodes/gpu-b1/states/provision", { target: "manage" });
    const managed = await ironicState(lab, "gpu-b1", "manageable");
    expect(managed.power_state).toBe("power off");

    await ironic(lab, "PUT", "/v1/nodes/gpu-b1/states/provision", { target: "inspect" });
    const inspected = await ironicState(lab, "gpu-b1", "manageable");
    expect(inspected.properties.cpus).toBe(224);
    const ports = (await ironic(lab, "GET", "/v1/nodes/gpu-b1/ports")).json.ports;
    const macs = lab.world.node(node.name)?.ports.map((p) => p.mac.toLowerCase());
    expect(ports.map((p: { address: string }) => p.address).sort()).toEqual([...(macs ?? [])].sort());

    await ironic(lab, "PUT", "/v1/nodes/gpu-b1/states/provision", { target: "provide" });
    await ironicState(lab, "gpu-b1", "available");
    const patched = await ironic(lab, "PATCH", "/v1/nodes/gpu-b1", [
      { op: "add", path: "/instance_info/image_source", value: "http://images.lab/ubuntu-gpu-2026.06.2.qcow2" },
      { op: "add", path: "/instance_info/image_checksum", value: "0".repeat(64) },
    ]);
    expect(patched.status, patched.text).toBe(200);
    const deploy = await ironic(lab, "PUT", "/v1/nodes/gpu-b1/states/provision", {
      target: "active",
      configdrive: { user_data: joinUserData("kubernetes") },
    });
    expect(deploy.status, deploy.text).toBe(202);
    await ironicState(lab, "gpu-b1", "active");

    const k8sNode = await until("Node gpu-b1 in the Kubernetes API", async () => {
      const r = await kube(lab, "GET", "/api/v1/nodes/gpu-b1");
      return r.status === 200 ? r.json : undefined;
    });
    expect(k8sNode.spec.unschedulable).toBe(true);
    expect(k8sNode.metadata.labels).toMatchObject({
      "nvidia.com/gpu.count": "8",
      "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3",
      "rackform.io/rack": "r01",
    });
    expect(k8sNode.status.capacity["nvidia.com/gpu"]).toBe("8");

    // Acceptance as a service step on the running node: the evidence lands in driver_internal_info.
    const svc = await ironic(lab, "PUT", "/v1/nodes/gpu-b1/states/provision", {
      target: "service",
      service_steps: [{ interface: "deploy", step: "burnin_gpu", args: { dcgm_level: 2, burn_in: "72h" } }],
    });
    expect(svc.status, svc.text).toBe(202);
    const serviced = await ironicState(lab, "gpu-b1", "active");
    const results = serviced.driver_internal_info.lab_step_results;
    expect(results.at(-1)).toMatchObject({ step: "burnin_gpu", status: "passed" });
    expect(results.at(-1).result).toMatchObject({
      format: "rackform-acceptance/v1",
      passed: true,
      parameters: { dcgm_level: 2, burn_in_s: 259_200 },
      gpu_count: 8,
    });

    // The host powered off behind everyone's back: past the node monitor grace period the Node is NotReady (Ready
    // Unknown, unreachable taints); powered on again, its kubelet posts Ready.
    const host = lab.world.node(node.name)!;
    const readyOf = (n: Json) => n.status.conditions.find((c: { type: string }) => c.type === "Ready");
    lab.world.setHostPower(host, false);
    const silent = await until("Node gpu-b1 NotReady", async () => {
      const n = (await kube(lab, "GET", "/api/v1/nodes/gpu-b1")).json;
      return readyOf(n).status === "Unknown" ? n : undefined;
    });
    expect(readyOf(silent).reason).toBe("NodeStatusUnknown");
    expect(silent.spec.taints.map((t: { key: string; effect: string }) => `${t.key}:${t.effect}`)).toEqual(
      expect.arrayContaining(["node.kubernetes.io/unreachable:NoSchedule", "node.kubernetes.io/unreachable:NoExecute"]),
    );
    lab.world.setHostPower(host, true);
    const back = await until("Node gpu-b1 Ready again", async () => {
      const n = (await kube(lab, "GET", "/api/v1/nodes/gpu-b1")).json;
      return readyOf(n).status === "True" ? n : undefined;
    });
    expect(back.spec.taints.map((t: { key: string }) => t.key)).not.toContain("node.kubernetes.io/unreachable");

    await ironic(lab, "PUT", "/v1/nodes/gpu-b1/states/provision", { target: "deleted" });
    await ironicState(lab, "gpu-b1", "available");
    expect((await kube(lab, "GET", "/api/v1/nodes/gpu-b1")).status).toBe(404);
    expect(lab.world.powerState(lab.world.node(node.name)!)).toBe("Off");
  });

  // Runs after the first test, on its torn-down (available) node.
  it("a deploy without the join marker boots the OS but registers no Node", async () => {
    await ironic(lab, "PATCH", "/v1/nodes/gpu-b1", [
      { op: "add", path: "/instance_info/image_source", value: "http://images.lab/ubuntu-gpu-2026.06.2.qcow2" },
    ]);
    await ironic(lab, "PUT", "/v1/nodes/gpu-b1/states/provision", { target: "active" });
    await ironicState(lab, "gpu-b1", "active");
    // Give a would-be kubelet the same chance the first test's had.
    await new Promise((r) => setTimeout(r, 200));
    expect((await kube(lab, "GET", "/api/v1/nodes")).json.items).toEqual([]);
  });

  // Runs after the second test, on its active node.
  it("an erase-failure fault fails the automated cleaning after undeploy: clean failed, in maintenance", async () => {
    const node = lab.info.nodes[0];
    const f = await labControl(lab, "POST", "/faults", { kind: "erase-failure", node: node.name, count: 1 });
    expect(f.status).toBe(201);
    await ironic(lab, "PUT", "/v1/nodes/gpu-b1/states/provision", { target: "deleted" });
    const failed = await ironicState(lab, "gpu-b1", "clean failed");
    expect(failed.maintenance).toBe(true);
    expect(failed.last_error).toMatch(/lab fault injected into clean/);
    // count 1: the fault is used up.
    expect((await labControl(lab, "GET", "/faults")).json).toEqual([]);
  });
});
