/**
 * What MAAS commissioning finds on a machine, from the world node behind its BMC: real MAAS learns cpu_count, memory,
 * hardware_info and the interfaces from the lshw/lldp results the commissioning environment reports; the lab reads
 * the same facts from the simulated hardware (the inventory the node's BMC serves).
 */
import type { HardwareProbe, HardwareReport } from "../maas/index.js";
import type { LabNode, World } from "../world/model.js";

/** The report for one node: logical CPUs, MiB of memory, DMI strings, every NIC port. */
export function commissioningReport(world: World, n: LabNode): HardwareReport {
  const hw = n.spec.hardware;
  return {
    cpuCount: hw.cpu.sockets * hw.cpu.coresPerSocket * 2,
    memoryMiB: hw.memory.dimms * hw.memory.dimmGiB * 1024,
    info: {
      system_vendor: hw.manufacturer,
      system_product: hw.model,
      system_serial: n.serial,
      cpu_model: hw.cpu.model,
      mainboard_vendor: hw.manufacturer,
      mainboard_product: hw.model,
      mainboard_firmware_version: world.firmwareVersion(n, "bios"),
    },
    nics: n.ports.map((p) => ({ mac: p.mac, vendor: p.model.split(" ")[0], product: p.model })),
  };
}

/** A MAAS hardware probe that resolves the machine's BMC address to its world node. */
export function worldHardwareProbe(
  world: World,
  resolve: (address: string | undefined) => LabNode | undefined,
): HardwareProbe {
  return (m) => {
    const n = resolve(m.powerParams.power_address);
    return n ? commissioningReport(world, n) : undefined;
  };
}
