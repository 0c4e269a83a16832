/**
 * OEM PCI devices, as HPE iLO lists them under `Oem.Hpe.Links.PCIDevices` (HpeServerPciDevice): numeric ClassCode
 * and SubclassCode, VendorID and DeviceID, a DeviceName. Served only to nodes with the `oem-pci-gpus` quirk, whose
 * GPUs appear nowhere else; the embedded Matrox VGA and the NICs are listed too, as on a real iLO.
 */
import type { LabNode } from "../world/model.js";
import { hasQuirk } from "../world/quirks.js";
import { RedfishError } from "./errors.js";
import { type Ctx, collection, get, type Route, status, systemOf } from "./router.js";

interface OemPci {
  readonly id: string;
  readonly name: string;
  readonly classCode: number;
  readonly subclassCode: number;
  readonly vendorId: number;
  readonly deviceId: number;
}

function devices(ctx: Ctx, n: LabNode): OemPci[] {
  const hw = n.spec.hardware;
  const gpus = ctx.world.visibleGpus(n).map((_, i) => ({
    id: `${10 + i}`,
    name: hw.gpus?.model ?? "GPU",
    classCode: 3,
    subclassCode: 2,
    vendorId: 0x10de,
    deviceId: 0x2330,
  }));
  const vga = {
    id: "1",
    name: "Embedded Video Controller",
    classCode: 3,
    subclassCode: 0,
    vendorId: 0x102b,
    deviceId: 0x0538,
  };
  const nics = hw.nics.map((nic, i) => ({
    id: `${30 + i}`,
    name: nic.model,
    classCode: 2,
    subclassCode: 0,
    vendorId: 0x15b3,
    deviceId: 0x1021,
  }));
  return [vga, ...gpus, ...nics];
}

function oemNode(ctx: Ctx): LabNode {
  const n = systemOf(ctx);
  if (!hasQuirk(n, "oem-pci-gpus")) throw new RedfishError(404, "ResourceNotFound", ["Resource", ctx.path]);
  return n;
}

const base = (n: LabNode) => `/redfish/v1/Systems/${n.systemId}/PCIDevices`;

/** Routes of the OEM PCI device collection. */
export const oemPciRoutes: Route[] = [
  {
    pattern: "/redfish/v1/Systems/:sys/PCIDevices",
    methods: get((ctx) => {
      const n = oemNode(ctx);
      const ids = devices(ctx, n).map((d) => `${base(n)}/${d.id}`);
      return collection("HpeServerPciDeviceCollection", "PCI Devices", base(n), ids);
    }),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/PCIDevices/:id",
    methods: get((ctx) => {
      const n = oemNode(ctx);
      const d = devices(ctx, n).find((x) => x.id === ctx.params.id);
      if (!d) throw new RedfishError(404, "ResourceNotFound", ["HpeServerPciDevice", ctx.params.id]);
      return {
        "@odata.type": "#HpeServerPciDevice.v2_0_0.HpeServerPciDevice",
        "@odata.id": `${base(n)}/${d.id}`,
        Id: d.id,
        Name: d.name,
        DeviceName: d.name,
        DeviceType: "Other PCI Device",
        ClassCode: d.classCode,
        SubclassCode: d.subclassCode,
        VendorID: d.vendorId,
        DeviceID: d.deviceId,
        Status: status(),
      };
    }),
  },
];
