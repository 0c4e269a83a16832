/**
 * UEFI boot options of a system (DMTF ComputerSystem `Boot.BootOrder` and the BootOptions collection, DSP0268
 * BootOption v1): `BootOrder` holds `BootOptionReference` strings ("Boot0001") naming members of
 * `Systems/{id}/BootOptions`, each with the `Alias` (a BootSourceOverrideTarget value) it boots. The world keeps the
 * order as boot sources ("Pxe", "Hdd"); this file maps between the two.
 */
import type { LabNode } from "../world/model.js";
import { RedfishError } from "./errors.js";
import { collection, get, type Route, status, systemOf } from "./router.js";

/** One boot option: its reference, what it boots and how firmware names it. */
interface BootOptionSpec {
  readonly ref: string;
  readonly alias: string;
  readonly displayName: string;
  readonly devicePath: string;
}

const mac = (n: LabNode) => (n.ports[0]?.mac ?? "00:00:00:00:00:00").replace(/:/g, "").toUpperCase();

/** The options every lab node's firmware lists: PXE and HTTP on the first NIC, the first disk, the virtual CD. */
function bootOptions(n: LabNode): BootOptionSpec[] {
  const nic = `PciRoot(0x0)/Pci(0x1,0x0)/Pci(0x0,0x0)/MAC(${mac(n)},0x1)`;
  return [
    { ref: "Boot0000", alias: "Pxe", displayName: `UEFI PXEv4 (MAC:${mac(n)})`, devicePath: `${nic}/IPv4(0.0.0.0)` },
    {
      ref: "Boot0001",
      alias: "Hdd",
      displayName: "UEFI OS (NVMe Disk 0)",
      devicePath: "PciRoot(0x0)/Pci(0x3,0x0)/Pci(0x0,0x0)/NVMe(0x1,00-00-00-00-00-00-00-00)/HD(1,GPT)",
    },
    { ref: "Boot0002", alias: "Cd", displayName: "Virtual CD", devicePath: "PciRoot(0x0)/Pci(0x14,0x0)/USB(0x3,0x0)" },
    {
      ref: "Boot0003",
      alias: "UefiHttp",
      displayName: `UEFI HTTPv4 (MAC:${mac(n)})`,
      devicePath: `${nic}/IPv4(0.0.0.0)/Uri()`,
    },
  ];
}

/** The node's boot order as BootOptionReference strings (boot sources without an option are left out). */
export function bootOrderRefs(n: LabNode): string[] {
  const options = bootOptions(n);
  return n.boot.order.flatMap((alias) => options.find((o) => o.alias === alias)?.ref ?? []);
}

/** A PATCHed BootOrder (references) as the world's boot sources; an unknown reference is PropertyValueNotInList. */
export function bootOrderFromRefs(n: LabNode, refs: readonly string[]): string[] {
  const options = bootOptions(n);
  return refs.map((ref) => {
    const o = options.find((x) => x.ref === ref);
    if (!o) throw new RedfishError(400, "PropertyValueNotInList", [ref, "Boot/BootOrder"]);
    return o.alias;
  });
}

const base = (n: LabNode) => `/redfish/v1/Systems/${n.systemId}/BootOptions`;

/** Routes of the BootOptions collection and its members. */
export const bootOptionRoutes: Route[] = [
  {
    pattern: "/redfish/v1/Systems/:sys/BootOptions",
    methods: get((ctx) => {
      const n = systemOf(ctx);
      return collection(
        "BootOptionCollection",
        "Boot Option Collection",
        base(n),
        bootOptions(n).map((o) => `${base(n)}/${o.ref}`),
      );
    }),
  },
  {
    pattern: "/redfish/v1/Systems/:sys/BootOptions/:id",
    methods: get((ctx) => {
      const n = systemOf(ctx);
      const o = bootOptions(n).find((x) => x.ref === ctx.params.id);
      if (!o) throw new RedfishError(404, "ResourceNotFound", ["BootOption", ctx.params.id]);
      return {
        "@odata.type": "#BootOption.v1_0_6.BootOption",
        "@odata.id": `${base(n)}/${o.ref}`,
        Id: o.ref,
        Name: "Boot Option",
        BootOptionReference: o.ref,
        DisplayName: o.displayName,
        BootOptionEnabled: true,
        Alias: o.alias,
        UefiDevicePath: o.devicePath,
        Status: status(),
      };
    }),
  },
];
