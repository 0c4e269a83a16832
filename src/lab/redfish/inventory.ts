/** Hardware inventory under a system and its chassis: Processors (CPUs and GPUs), Memory, NICs, Storage, PCIe. */
import { DPU_NIC_FIRMWARE } from "../world/dpu.js";
import { DEGRADED_LANES, pcieDeviceIds } from "../world/health.js";
import { dimmHealthOf, gpuHealthOf, pcieDegraded, worse } from "../world/health-faults.js";
import type { LabNode, World } from "../world/model.js";
import { hasQuirk } from "../world/quirks.js";
import { RedfishError } from "./errors.js";
import { chassisOf, collection, get, link, type Route, status, systemOf } from "./router.js";
import { systemPcieIds } from "./system.js";

const sysBase = (n: LabNode) => `/redfish/v1/Systems/${n.systemId}`;

function cpuIds(n: LabNode): string[] {
  return Array.from({ length: n.spec.hardware.cpu.sockets }, (_, i) => n.ids.cpu(i));
}

function processor(world: World, n: LabNode, id: string): Record<string, unknown> {
  const path = `${sysBase(n)}/Processors/${id}`;
  const hw = n.spec.hardware;
  const cpu = cpuIds(n).indexOf(id);
  if (cpu >= 0) {
    return {
      "@odata.type": "#Processor.v1_22_0.Processor",
      "@odata.id": path,
      Id: id,
      Name: `Processor ${cpu + 1}`,
      Socket: `CPU ${cpu + 1}`,
      ProcessorType: "CPU",
      ProcessorArchitecture: "x86",
      InstructionSet: "x86-64",
      Manufacturer: "Intel(R) Corporation",
      Model: hw.cpu.model,
      TotalCores: hw.cpu.coresPerSocket,
      TotalThreads: hw.cpu.coresPerSocket * 2,
      Status: status(),
    };
  }
  const gpus = world.visibleGpus(n);
  const g = gpus.findIndex((x) => x.id === id);
  if (g < 0 || !hw.gpus) throw new RedfishError(404, "ResourceNotFound", ["Processor", id]);
  const gpu = gpus[g];
  const sick = world.faults.find("gpu-health", { node: n.spec.name }) && g === 0;
  const health = worse(sick ? "Critical" : "OK", gpuHealthOf(world.faults.list(), n.spec.name, n.gpus.indexOf(gpu)));
  return {
    "@odata.type": "#Processor.v1_22_0.Processor",
    "@odata.id": path,
    Id: id,
    Name: `GPU ${g + 1}`,
    Socket: `SXM${g + 1}`,
    ProcessorType: "GPU",
    ProcessorArchitecture: "x86",
    Manufacturer: "NVIDIA",
    Model: hw.gpus.model,
    SerialNumber: hasQuirk(n, "blank-serials") ? "" : gpu.serial,
    UUID: gpu.uuid.replace(/^GPU-/, ""),
    FirmwareVersion: world.firmwareVersion(n, "gpu"),
    MaxSpeedMHz: 1980,
    Status: status(health),
    Links: { PCIeDevice: link(`/redfish/v1/Chassis/${n.chassisId}/PCIeDevices/${id}`) },
    Oem: {
      Nvidia: {
        GpuUUID: gpu.uuid,
        MemoryGiB: hw.gpus.memoryGiB,
        NVLinkVersion: hw.gpus.nvlinkVersion ?? null,
        NVLinkLinks: hw.gpus.nvlinkLinksPerGpu ?? 0,
      },
    },
  };
}

function nic(world: World, n: LabNode, id: string): Record<string, unknown> {
  const p = n.ports.find((x) => x.id === id);
  if (!p) throw new RedfishError(404, "ResourceNotFound", ["EthernetInterface", id]);
  const on = world.powerState(n) !== "Off";
  return {
    "@odata.type": "#EthernetInterface.v1_12_4.EthernetInterface",
    "@odata.id": `${sysBase(n)}/EthernetInterfaces/${id}`,
    Id: id,
    Name: `${p.nic} ${p.model}`,
    Description: p.model,
    MACAddress: p.mac,
    PermanentMACAddress: p.mac,
    SpeedMbps: p.speedMbps,
    FullDuplex: true,
    AutoNeg: false,
    InterfaceEnabled: true,
    LinkStatus: on ? "LinkUp" : "LinkDown",
    Status: status(),
  };
}

function drives(n: LabNode): string[] {
  return n.spec.hardware.disks.map((_, i) => `Disk.${i}`);
}

/** Processor ids the collection lists: none with `empty-processors`, no GPUs when only OEM links list them. */
function processorIds(world: World, n: LabNode): string[] {
  if (hasQuirk(n, "empty-processors")) return [];
  const gpus = hasQuirk(n, "oem-pci-gpus") ? [] : world.visibleGpus(n).map((g) => g.id);
  return [...cpuIds(n), ...gpus];
}

/** The one PCIe function of a GPU: a 3D controller (class 0x0302) by NVIDIA. */
function gpuFunction(n: LabNode, deviceId: string): Record<string, unknown> {
  const dev = `/redfish/v1/Chassis/${n.chassisId}/PCIeDevices/${deviceId}`;
  return {
    "@odata.type": "#PCIeFunction.v1_6_0.PCIeFunction",
    "@odata.id": `${dev}/PCIeFunctions/1`,
    Id: "1",
    Name: `${n.spec.hardware.gpus?.model ?? "GPU"} function 0`,
    FunctionId: 0,
    FunctionType: "Physical",
    DeviceClass: "DisplayController",
    ClassCode: "0x030200",
    VendorId: "0x10de",
    DeviceId: "0x2330",
    Status: status(),
    Links: { PCIeDevice: link(dev) },
  };
}

/** A device's PCIe link and Status: a pcie-degraded fault trains it at fewer lanes, with Health Warning. */
function link16(world: World, n: LabNode, id: string) {
  const degraded = pcieDegraded(world.faults.list(), n.spec.name, id, pcieDeviceIds(n).indexOf(id));
  return {
    PCIeInterface: { PCIeType: "Gen5", LanesInUse: degraded ? DEGRADED_LANES : 16, MaxLanes: 16 },
    Status: status(degraded ? "Warning" : "OK"),
  };
}

function pcie(world: World, n: LabNode, id: string): Record<string, unknown> {
  const path = `/redfish/v1/Chassis/${n.chassisId}/PCIeDevices/${id}`;
  const gpu = world.visibleGpus(n).find((g) => g.id === id);
  const hw = n.spec.hardware;
  if (gpu && hw.gpus) {
    return {
      "@odata.type": "#PCIeDevice.v1_21_0.PCIeDevice",
      "@odata.id": path,
      Id: id,
      Name: hw.gpus.model,
      Manufacturer: "NVIDIA",
      Model: hw.gpus.model,
      SerialNumber: hasQuirk(n, "blank-serials") ? " " : gpu.serial,
      DeviceType: "SingleFunction",
      PCIeFunctions: link(`${path}/PCIeFunctions`),
      FirmwareVersion: world.firmwareVersion(n, "gpu"),
      ...link16(world, n, id),
    };
  }
  const dpu = world.dpusOf(n.spec.name).find((d) => `DPU${d.index + 1}` === id);
  if (dpu) {
    // The host sees a BlueField-3 as a multi-function PCIe card (its NIC functions; the Arm side is its own system).
    return {
      "@odata.type": "#PCIeDevice.v1_21_0.PCIeDevice",
      "@odata.id": path,
      Id: id,
      Name: "NVIDIA BlueField-3 B3240 P-Series DPU",
      Manufacturer: "NVIDIA",
      Model: "BlueField-3 DPU",
      PartNumber: "900-9D3B6-00CV-AA0",
      SerialNumber: dpu.serial,
      DeviceType: "MultiFunction",
      FirmwareVersion: DPU_NIC_FIRMWARE,
      PCIeInterface: { PCIeType: "Gen5", LanesInUse: 16, MaxLanes: 16 },
      Status: status(),
    };
  }
  const i = hw.nics.findIndex((_, k) => `NIC${k + 1}` === id);
  if (i < 0) throw new RedfishError(404, "ResourceNotFound", ["PCIeDevice", id]);
  return {
    "@odata.type": "#PCIeDevice.v1_21_0.PCIeDevice",
    "@odata.id": path,
    Id: id,
    Name: hw.nics[i].model,
    Manufacturer: hw.nics[i].model.split(" ")[0],
    Model: hw.nics[i].model,
    DeviceType: hw.nics[i].ports > 1 ? "MultiFunction" : "SingleFunction",
    FirmwareVersion: world.firmwareVersion(n, "nic"),
    ...link16(world, n, id),
  };
}

/** Routes of the hardware inventory. */
export const inventoryRoutes: Route[] = [
  {
    pattern: "/redfish/v1/Systems/:sys/Processors",
    methods: get((ctx) => {
      const n = systemOf(ctx);
      const ids = processorIds(ctx.world, n);
      return collection(
        "ProcessorCollection",
        "Processors Collection",
        `${sysBase(n)}/Processors`,
        ids.map((id) => `${sysBase(n)}/Processors/${id}`),
      );
    }),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/Processors/:id",
    methods: get((ctx) => processor(ctx.world, systemOf(ctx), ctx.params.id)),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/EthernetInterfaces",
    methods: get((ctx) => {
      const n = systemOf(ctx);
      const base = `${sysBase(n)}/EthernetInterfaces`;
      return collection(
        "EthernetInterfaceCollection",
        "Ethernet Network Interface Collection",
        base,
        n.ports.map((p) => `${base}/${p.id}`),
      );
    }),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/EthernetInterfaces/:id",
    methods: get((ctx) => nic(ctx.world, systemOf(ctx), ctx.params.id)),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/Memory",
    methods: get((ctx) => {
      const n = systemOf(ctx);
      const ids = Array.from({ length: n.spec.hardware.memory.dimms }, (_, i) => `${sysBase(n)}/Memory/DIMM${i}`);
      return collection("MemoryCollection", "Memory Module Collection", `${sysBase(n)}/Memory`, ids);
    }),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/Memory/:id",
    methods: get((ctx) => {
      const n = systemOf(ctx);
      const i = Number(ctx.params.id.replace(/^DIMM/, ""));
      if (!/^DIMM\d+$/.test(ctx.params.id) || i >= n.spec.hardware.memory.dimms)
        throw new RedfishError(404, "ResourceNotFound", ["Memory", ctx.params.id]);
      return {
        "@odata.type": "#Memory.v1_20_0.Memory",
        "@odata.id": `${sysBase(n)}/Memory/${ctx.params.id}`,
        Id: ctx.params.id,
        Name: `DIMM ${i}`,
        MemoryDeviceType: "DDR5",
        CapacityMiB: n.spec.hardware.memory.dimmGiB * 1024,
        OperatingSpeedMhz: 4800,
        Status: status(dimmHealthOf(ctx.world.faults.list(), n.spec.name, i)),
      };
    }),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/Storage",
    methods: get((ctx) => {
      const n = systemOf(ctx);
      return collection("StorageCollection", "Storage Collection", `${sysBase(n)}/Storage`, [
        `${sysBase(n)}/Storage/NVMe`,
      ]);
    }),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/Storage/:st",
    methods: get((ctx) => {
      const n = systemOf(ctx);
      if (ctx.params.st !== "NVMe") throw new RedfishError(404, "ResourceNotFound", ["Storage", ctx.params.st]);
      const base = `${sysBase(n)}/Storage/NVMe`;
      return {
        "@odata.type": "#Storage.v1_17_0.Storage",
        "@odata.id": base,
        Id: "NVMe",
        Name: "NVMe Storage",
        Drives: drives(n).map((d) => link(`${base}/Drives/${d}`)),
        "Drives@odata.count": drives(n).length,
        Status: status(),
      };
    }),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/Storage/:st/Drives/:id",
    methods: get((ctx) => {
      const n = systemOf(ctx);
      const i = drives(n).indexOf(ctx.params.id);
      if (ctx.params.st !== "NVMe" || i < 0) throw new RedfishError(404, "ResourceNotFound", ["Drive", ctx.params.id]);
      const d = n.spec.hardware.disks[i];
      return {
        "@odata.type": "#Drive.v1_18_0.Drive",
        "@odata.id": `${sysBase(n)}/Storage/NVMe/Drives/${ctx.params.id}`,
        Id: ctx.params.id,
        Name: `Drive ${i}`,
        Model: d.model,
        MediaType: d.media,
        Protocol: "NVMe",
        CapacityBytes: d.capacityGiB * 1024 ** 3,
        Status: status(),
      };
    }),
  },
  {
    pattern: "/redfish/v1/Chassis/:ch/PCIeDevices",
    methods: get((ctx) => {
      const n = chassisOf(ctx);
      const base = `/redfish/v1/Chassis/${n.chassisId}/PCIeDevices`;
      return collection(
        "PCIeDeviceCollection",
        "PCIe Device Collection",
        base,
        systemPcieIds(ctx.world, n).map((id) => `${base}/${id}`),
      );
    }),
  },
  {
    pattern: "/redfish/v1/Chassis/:ch/PCIeDevices/:id",
    methods: get((ctx) => pcie(ctx.world, chassisOf(ctx), ctx.params.id)),
  },
  {
    pattern: "/redfish/v1/Chassis/:ch/PCIeDevices/:id/PCIeFunctions",
    methods: get((ctx) => {
      const n = chassisOf(ctx);
      const id = ctx.params.id;
      if (!ctx.world.visibleGpus(n).some((g) => g.id === id))
        throw new RedfishError(404, "ResourceNotFound", ["PCIeFunctionCollection", id]);
      const base = `/redfish/v1/Chassis/${n.chassisId}/PCIeDevices/${id}/PCIeFunctions`;
      return collection("PCIeFunctionCollection", "PCIe Function Collection", base, [`${base}/1`]);
    }),
  },
  {
    pattern: "/redfish/v1/Chassis/:ch/PCIeDevices/:id/PCIeFunctions/:fn",
    methods: get((ctx) => {
      const n = chassisOf(ctx);
      if (ctx.params.fn !== "1" || !ctx.world.visibleGpus(n).some((g) => g.id === ctx.params.id))
        throw new RedfishError(404, "ResourceNotFound", ["PCIeFunction", ctx.params.fn]);
      return gpuFunction(n, ctx.params.id);
    }),
  },
];
