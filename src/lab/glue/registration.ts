/** What a booted node's slurmd and kubelet report about themselves, derived from the simulated hardware. */
import type { KubeletRegistration, NodeRegistration } from "../scheduler/index.js";
import type { LabNode } from "../world/model.js";

/** "NVIDIA H100 80GB HBM3" → "h100" (the GRES type and feature name sites use). */
export function gpuSlug(model: string): string {
  const words = model
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w && w !== "nvidia" && w !== "tesla");
  return (words[0] ?? "gpu").replace(/[^a-z0-9]/g, "");
}

function fabricGbps(node: LabNode): number {
  return Math.max(0, ...node.ports.map((p) => p.speedMbps)) / 1000;
}

/** Features slurmd advertises (slurm.conf Features=): GPU type, NVLink generation, fabric speed, rack. */
export function hardwareFeatures(node: LabNode): string[] {
  const gpus = node.spec.hardware.gpus;
  return [
    ...(gpus ? [gpuSlug(gpus.model)] : []),
    ...(gpus?.nvlinkVersion ? [`nvlink${gpus.nvlinkVersion}`] : []),
    `fabric${fabricGbps(node)}g`,
    `rack-${node.spec.rack}`,
  ];
}

/**
 * slurmd's registration. The lab models slurm.conf listing the node with ReturnToService=0: a node slurmctld has seen
 * DOWN stays DOWN ("Not responding") when its slurmd registers, until an operator (rackform) RESUMEs it. A node the lab
 * has never seen appears at its first registration in that same DOWN state. `dynamic`: slurmd runs with -Z, so the
 * node is in no slurm.conf line: slurmctld creates it IDLE at its first registration, and it can be deleted.
 */
export function slurmRegistration(node: LabNode, visibleGpus: number, dynamic = false): NodeRegistration {
  const hw = node.spec.hardware;
  return {
    gres: hw.gpus ? `gpu:${gpuSlug(hw.gpus.model)}:${visibleGpus}` : "",
    features: hardwareFeatures(node),
    partitions: ["gpu"],
    // A dynamic node is created IDLE by its first registration; a slurm.conf node waits DOWN for its RESUME.
    ...(dynamic ? { state: "IDLE" as const } : { state: "DOWN" as const, reason: "Not responding" }),
    cpus: hw.cpu.sockets * hw.cpu.coresPerSocket * 2,
    realMemoryMiB: hw.memory.dimms * hw.memory.dimmGiB * 1024,
    dynamic,
  };
}

// Label values: ≤ 63 characters of [A-Za-z0-9._-], starting and ending alphanumeric.
function labelValue(s: string): string {
  return s
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[^A-Za-z0-9]+|[^A-Za-z0-9]+$/g, "")
    .slice(0, 63);
}

/** The kubelet's registration: unschedulable until uncordoned (--register-schedulable=false), GPU Feature Discovery labels. */
export function kubeletRegistration(node: LabNode, visibleGpus: number): KubeletRegistration {
  const hw = node.spec.hardware;
  const gpuLabels: Record<string, string> = hw.gpus
    ? {
        "nvidia.com/gpu.present": "true",
        "nvidia.com/gpu.product": labelValue(hw.gpus.model),
        "nvidia.com/gpu.count": String(visibleGpus),
        "nvidia.com/gpu.memory": String(hw.gpus.memoryGiB * 1024),
      }
    : {};
  return {
    labels: {
      ...gpuLabels,
      "node.kubernetes.io/instance-type": labelValue(hw.model),
      "topology.kubernetes.io/zone": labelValue(node.spec.rack),
      "rackform.io/rack": labelValue(node.spec.rack),
      "rackform.io/fabric-gbps": String(fabricGbps(node)),
    },
    capacity: {
      cpu: String(hw.cpu.sockets * hw.cpu.coresPerSocket * 2),
      memory: `${hw.memory.dimms * hw.memory.dimmGiB * 1024 * 1024}Ki`,
      ...(hw.gpus ? { "nvidia.com/gpu": String(visibleGpus) } : {}),
    },
    unschedulable: true,
  };
}
