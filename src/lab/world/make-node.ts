/** A new node of the world: its vendor's ids, serials, NIC ports and GPUs, factory firmware and BIOS (with the spec's overrides). */
import { initialBios } from "./bios.js";
import { macFor, serialFor, uuidFor } from "./ids.js";
import type { LabNode, NicPort } from "./model.js";
import type { NodeSpec } from "./spec.js";
import { VENDOR_IDS } from "./vendors.js";

/** The node `n` at BMC address `address`, powered off since `now`. */
export function makeNode(n: NodeSpec, address: string, now: number): LabNode {
  const ids = VENDOR_IDS[n.vendor];
  const serial = serialFor(n.name, n.vendor === "dell" ? "" : "SN", n.vendor === "dell" ? 7 : 12);
  const ports: NicPort[] = [];
  n.hardware.nics.forEach((nic, i) => {
    for (let p = 0; p < nic.ports; p++) {
      ports.push({
        id: ids.nic(i, p),
        nic: nic.name,
        model: nic.model,
        mac: macFor(`${n.name}/${nic.name}/${p}`),
        speedMbps: nic.speedMbps,
      });
    }
  });
  const gpus = Array.from({ length: n.hardware.gpus?.count ?? 0 }, (_, i) => ({
    id: ids.gpu(i),
    serial: serialFor(`${n.name}/gpu${i}`, "165", 13),
    uuid: `GPU-${uuidFor(`${n.name}/gpu${i}`)}`,
  }));
  const fw = n.hardware.firmware;
  return {
    spec: n,
    address,
    ids,
    systemId: n.systemId ?? ids.system(serial),
    chassisId: ids.chassis(serial),
    serial,
    uuid: uuidFor(n.name),
    ports,
    gpus,
    firmware: { bmc: fw.bmc, bios: fw.bios, gpu: fw.gpu ?? "", nic: fw.nic },
    power: { on: false, since: now },
    boot: { target: "None", enabled: "Disabled", mode: "UEFI", order: ["Pxe", "Hdd"] },
    lastBootSource: "None",
    assetTag: "",
    virtualMedia: { image: null, inserted: false, writeProtected: true },
    generation: 1,
    tasks: [],
    bios: initialBios(n.vendor, n.hardware.model, n.hardware.bios, n.name),
  };
}
