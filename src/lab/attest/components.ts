/**
 * The components of a node that answer SPDM through its BMC's ComponentIntegrity: every GPU the host shows, the BMC
 * itself, and each BlueField-3 DPU the node carries. Each has an identity (for its certificate), a Redfish resource it
 * protects, and the firmware it measures (read from the world, so an update or a drift changes the measurements).
 */
import { DPU_NIC_FIRMWARE } from "../world/dpu.js";
import type { LabNode, World } from "../world/model.js";
import type { MeasuredFirmware } from "./measurements.js";
import type { DeviceIdentity } from "./pki.js";

/** A component that attests. */
export interface AttestedComponent {
  /** The ComponentIntegrity member's Id: `BMC`, `GPU_1`…, `DPU_1`…. */
  readonly id: string;
  readonly kind: "bmc" | "gpu" | "dpu";
  /** Redfish URI of the component (TargetComponentURI, Links.ComponentsProtected). */
  readonly target: string;
  readonly identity: DeviceIdentity;
  readonly firmware: MeasuredFirmware;
}

/** The manufacturer of GPUs and DPUs. */
const NVIDIA = "NVIDIA";
/** Model of the lab's BlueField-3 (as the host's PCIeDevice names it). */
export const DPU_MODEL = "BlueField-3 DPU";

/** The BMC's model as its firmware names itself (Manager.Model). */
export const bmcModel = (n: LabNode) => n.ids.bmcName;

/** Every attesting component of a node, BMC first, then GPUs and DPUs in slot order. */
export function attestedComponents(world: World, n: LabNode): AttestedComponent[] {
  const sys = `/redfish/v1/Systems/${n.systemId}`;
  const out: AttestedComponent[] = [];
  const vendor = n.spec.hardware.manufacturer;
  out.push({
    id: "BMC",
    kind: "bmc",
    target: `/redfish/v1/Managers/${n.ids.manager}`,
    identity: { id: `${n.spec.name}/BMC`, manufacturer: vendor, commonName: `${vendor} ${bmcModel(n)} ${n.serial}` },
    firmware: { vendor, model: bmcModel(n), version: world.firmwareVersion(n, "bmc") },
  });
  const gpuModel = n.spec.hardware.gpus?.model;
  if (gpuModel) {
    const version = world.firmwareVersion(n, "gpu");
    for (const g of world.visibleGpus(n)) {
      const i = n.gpus.indexOf(g);
      out.push({
        id: `GPU_${i + 1}`,
        kind: "gpu",
        target: `${sys}/Processors/${g.id}`,
        identity: { id: `${n.spec.name}/GPU_${i + 1}`, manufacturer: NVIDIA, commonName: `${gpuModel} ${g.serial}` },
        firmware: { vendor: NVIDIA, model: gpuModel, version },
      });
    }
  }
  for (const d of world.dpusOf(n.spec.name)) {
    out.push({
      id: `DPU_${d.index + 1}`,
      kind: "dpu",
      target: `/redfish/v1/Chassis/${n.chassisId}/PCIeDevices/DPU${d.index + 1}`,
      identity: { id: d.id, manufacturer: NVIDIA, commonName: `${DPU_MODEL} ${d.serial}` },
      firmware: { vendor: NVIDIA, model: DPU_MODEL, version: DPU_NIC_FIRMWARE },
    });
  }
  return out;
}

/**
 * Firmware the lab's catalog knows for every attesting device model: what nodes shipped with, have installed, or were
 * sent (update tasks), plus `extra` versions by kind (`bmc`, `gpu`, `dpu`) — upgrade targets a test names before it
 * pushes them. A `firmware-drift` fault's version is not a release, so it is not in the catalog.
 */
export function catalogFirmware(
  world: World,
  extra: { readonly [kind: string]: readonly string[] } = {},
): MeasuredFirmware[] {
  const out: MeasuredFirmware[] = [];
  for (const n of world.nodes.values()) {
    world.settleTasks(n);
    const vendor = n.spec.hardware.manufacturer;
    const fw = n.spec.hardware.firmware;
    const sent = (c: "bmc" | "gpu") => n.tasks.filter((t) => t.component === c).map((t) => t.version);
    const bmcVersions = [fw.bmc, n.firmware.bmc, ...sent("bmc"), ...(extra.bmc ?? [])];
    for (const version of bmcVersions) out.push({ vendor, model: bmcModel(n), version });
    const gpuModel = n.spec.hardware.gpus?.model;
    if (gpuModel) {
      const gpuVersions = [fw.gpu ?? "", n.firmware.gpu, ...sent("gpu"), ...(extra.gpu ?? [])];
      for (const version of gpuVersions.filter(Boolean)) out.push({ vendor: NVIDIA, model: gpuModel, version });
    }
    if ((n.spec.dpus ?? 0) > 0) {
      for (const version of [DPU_NIC_FIRMWARE, ...(extra.dpu ?? [])])
        out.push({ vendor: NVIDIA, model: DPU_MODEL, version });
    }
  }
  return out;
}
