/**
 * Composed lab, MAAS commissioning and deployment learn the node's real hardware (issue #14, item D): real MAAS fills
 * cpu_count, memory, hardware_info and interface_set from the commissioning results (lshw, lldp; the
 * `00-maas-*` hooks in src/metadataserver/builtin_scripts/hooks.py) and lists the deployed OS's AUTO addresses in
 * ip_addresses. The lab reads those facts from the world node behind the machine's BMC.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Lab } from "../../../src/lab/index.js";
import { maas, maasStatus, powerOutlet, startComposedLab } from "./support.js";

describe("composed lab: MAAS commissioning reports the node's hardware", () => {
  let lab: Lab;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ lab, stop } = await startComposedLab({ nodes: 1 }));
  });
  afterAll(async () => stop());

  it("fills cpu_count, memory, hardware_info and every NIC; deployment adds an address, release drops it", async () => {
    const node = lab.info.nodes[0];
    await powerOutlet(lab, node.name);
    const world = lab.world.node(node.name);
    if (!world) throw new Error("world node missing");
    const hw = world.spec.hardware;
    const created = await maas(lab, "POST", "machines/", {
      architecture: "amd64/generic",
      mac_addresses: world.ports[0].mac,
      hostname: "hw-a1",
      power_type: "redfish",
      power_parameters_power_address: node.bmc.url,
      power_parameters_power_user: node.bmc.username,
      power_parameters_power_pass: node.bmc.password,
    });
    expect(created.status, created.text).toBe(200);
    expect(created.json.cpu_count).toBe(0);
    const id: string = created.json.system_id;

    const ready = await maasStatus(lab, id, "Ready");
    expect(ready.cpu_count).toBe(hw.cpu.sockets * hw.cpu.coresPerSocket * 2);
    expect(ready.memory).toBe(hw.memory.dimms * hw.memory.dimmGiB * 1024);
    expect(ready.hardware_info).toMatchObject({
      system_vendor: hw.manufacturer,
      system_product: hw.model,
      system_serial: world.serial,
      cpu_model: hw.cpu.model,
    });
    const macs = ready.interface_set.map((i: { mac_address: string }) => i.mac_address);
    expect(macs).toEqual(world.ports.map((p) => p.mac.toLowerCase()));
    expect(ready.boot_interface.mac_address).toBe(world.ports[0].mac.toLowerCase());
    expect(ready.ip_addresses).toEqual([]);

    expect((await maas(lab, "POST", `machines/${id}/`, { op: "deploy", distro_series: "jammy" })).status).toBe(200);
    const deployed = await maasStatus(lab, id, "Deployed");
    expect(deployed.ip_addresses).toHaveLength(1);
    expect(deployed.boot_interface.links[0]).toMatchObject({ mode: "auto", ip_address: deployed.ip_addresses[0] });

    expect((await maas(lab, "POST", `machines/${id}/`, { op: "release" })).status).toBe(200);
    expect((await maasStatus(lab, id, "Ready")).ip_addresses).toEqual([]);
  });
});
