/**
 * What the acceptance checks find on a node with health faults (world/health-faults.ts) still on it — so a gate re-run
 * after a cure that did not take fails again, and passes once the fault is gone. DCGM's diagnostic: Page
 * Retirement/Row Remap fails on XID 63/64, GPU Memory on XID 48, PCIe on a degraded GPU link or an NVLink down (its
 * PCIe plugin also checks NVLink status and P2P bandwidth); the burn-in sees the XIDs again and fails with any health
 * fault (a host uncorrectable error or a thermal trip under stress takes the run down; a hung OS never finishes it).
 */
import type { Fault } from "../world/faults.js";
import { faultDevice } from "../world/health.js";
import { healthFaultsOf } from "../world/health-faults.js";
import { xidText } from "../world/health-messages.js";
import type { LabNode, World } from "../world/model.js";
import type { XidEvent } from "./signals.js";

function faultsOf(world: World, node: LabNode): Fault[] {
  return healthFaultsOf(world.faults.list(), node.spec.name);
}

/** DCGM test name → why it fails, for the node's health faults (first finding per test). */
export function healthDcgmFailures(world: World, node: LabNode): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (test: string, info: string) => {
    out[test] ??= info;
  };
  for (const f of faultsOf(world, node)) {
    const gpu = f.gpu ?? 0;
    if (f.kind === "gpu-xid" && f.xid === 63) put("Page Retirement/Row Remap", `GPU ${gpu}: row remapping pending`);
    if (f.kind === "gpu-xid" && f.xid === 64) put("Page Retirement/Row Remap", `GPU ${gpu}: row remapping failed`);
    if (f.kind === "gpu-xid" && f.xid === 48) put("GPU Memory", `GPU ${gpu}: uncorrectable ECC errors detected`);
    if (f.kind === "nvlink-down") put("PCIe", `GPU ${gpu}: NVLink link down, P2P bandwidth below the minimum`);
    if (f.kind === "pcie-degraded") {
      const i = node.gpus.findIndex((g) => g.id === faultDevice(node, f));
      if (i >= 0) put("PCIe", `GPU ${i}: PCIe link width x8, expected x16`);
    }
  }
  return out;
}

/** The XIDs the burn-in sees again while gpu-xid (and nvlink-down, XID 74) faults are on the node. */
export function healthXidEvents(world: World, node: LabNode): XidEvent[] {
  return faultsOf(world, node)
    .filter((f) => f.kind === "gpu-xid" || f.kind === "nvlink-down")
    .map((f) => {
      const xid = f.kind === "nvlink-down" ? 74 : (f.xid ?? 0);
      const gpu = node.gpus[f.gpu ?? 0];
      return { xid, gpu_index: f.gpu ?? 0, gpu_uuid: gpu?.uuid ?? "", message: xidText(xid) };
    });
}

/** Whether a health fault takes the burn-in down. */
export function healthFailsBurnIn(world: World, node: LabNode): boolean {
  return faultsOf(world, node).length > 0;
}
