/**
 * Acceptance signals of one simulated node: what DCGM diagnostics, NCCL all_reduce_perf, a burn-in and the kernel log
 * would report on that hardware with its faults. Deterministic (a node always measures the same), so evidence recorded
 * by the provider can be compared between runs; faults are the only way to change a measurement.
 */
import { createHash } from "node:crypto";
import { COMPONENTS, type LabNode, type World } from "../world/model.js";
import { healthDcgmFailures, healthFailsBurnIn, healthXidEvents } from "./health-signals.js";

/** The format tag of every acceptance document. */
export const ACCEPTANCE_FORMAT = "rackform-acceptance/v1";

/** What the gate asks for. */
export interface AcceptanceParams {
  /** dcgmi diag -r level, 1 (quick) to 4 (extended). */
  readonly dcgmLevel: 1 | 2 | 3 | 4;
  /** Requested burn-in duration in seconds (simulated: the run takes the time profile's burnInMs). */
  readonly burnInS: number;
  /** Minimum NCCL all_reduce bus bandwidth. @default 92 % of the fabric line rate rounded to 10 GB/s (370 on 8 × 400 Gb/s) */
  readonly ncclMinBusbwGBps?: number;
}

/** One DCGM diagnostic test result. */
export interface DcgmTest {
  readonly name: string;
  readonly category: "Deployment" | "Integration" | "Hardware" | "Stress";
  readonly result: "Pass" | "Fail";
  readonly info?: string;
}

/** An XID event from the kernel log (NVRM: Xid). */
export interface XidEvent {
  readonly xid: number;
  readonly gpu_index: number;
  readonly gpu_uuid: string;
  readonly message: string;
}

/** The acceptance document: `{"format":"rackform-acceptance/v1", …}`. */
export interface AcceptanceReport {
  readonly format: typeof ACCEPTANCE_FORMAT;
  readonly node: string;
  readonly serial: string;
  readonly measured_at: string;
  readonly passed: boolean;
  /** One line per failed check, naming measured vs expected. */
  readonly failures: readonly string[];
  readonly parameters: { dcgm_level: number; burn_in_s: number; nccl_min_busbw_gbps: number };
  readonly gpu_model: string | null;
  readonly gpu_count: number;
  readonly gpu_count_expected: number;
  readonly dcgm: { level: number; passed: boolean; tests: readonly DcgmTest[] };
  readonly nccl: {
    test: "all_reduce_perf";
    ranks: number;
    size_bytes: number;
    algbw_gbps: number;
    busbw_gbps: number;
    line_rate_gbps: number;
    min_busbw_gbps: number;
    passed: boolean;
  };
  readonly burn_in: { requested_s: number; simulated_ms: number; passed: boolean; xid_errors: number };
  readonly xid_events: readonly XidEvent[];
  readonly firmware: readonly { component: string; version: string; sha256: string }[];
}

// dcgmi diag test names by the level that first runs them (levels are cumulative).
const DCGM_TESTS: readonly (readonly [level: number, category: DcgmTest["category"], name: string])[] = [
  [1, "Deployment", "Denylist"],
  [1, "Deployment", "NVML Library"],
  [1, "Deployment", "CUDA Main Library"],
  [1, "Deployment", "Permissions and OS Blocks"],
  [1, "Deployment", "Persistence Mode"],
  [1, "Deployment", "Environment Variables"],
  [1, "Deployment", "Page Retirement/Row Remap"],
  [1, "Deployment", "Graphics Processes"],
  [1, "Deployment", "Inforom"],
  [1, "Deployment", "GPU count"],
  [2, "Integration", "PCIe"],
  [2, "Hardware", "GPU Memory"],
  [3, "Hardware", "Diagnostic"],
  [3, "Stress", "Targeted Stress"],
  [3, "Stress", "Targeted Power"],
  [3, "Stress", "Memory Bandwidth"],
  [4, "Hardware", "Memtest"],
  [4, "Stress", "Pulse Test"],
];

const XID_MESSAGES: Readonly<Record<number, string>> = {
  13: "Graphics Engine Exception",
  31: "GPU memory page fault",
  48: "Double Bit ECC Error",
  63: "ECC page retirement or row remapping recording event",
  74: "NVLINK Error",
  79: "GPU has fallen off the bus",
  94: "Contained ECC error",
  95: "Uncontained ECC error",
};

/** A deterministic fraction in [0, 1) from a string. */
function unit(key: string): number {
  return createHash("sha256").update(key).digest().readUInt32BE(0) / 2 ** 32;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Fabric line rate in GB/s: the ports of the fastest NIC model (the compute fabric; the boot NICs are slower). */
export function fabricLineRateGBps(node: LabNode): number {
  const fastest = Math.max(0, ...node.ports.map((p) => p.speedMbps));
  const fabric = node.ports.filter((p) => p.speedMbps === fastest);
  return (fabric.length * fastest) / 8000;
}

/** Nominal all_reduce bus bandwidth: 93–94.5% of line rate, fixed per node (400 GB/s → 372.0–378.0). */
export function nominalBusbwGBps(node: LabNode): number {
  return round1(fabricLineRateGBps(node) * (0.93 + 0.015 * unit(`nccl/${node.spec.name}`)));
}

function dcgm(world: World, node: LabNode, level: number): AcceptanceReport["dcgm"] {
  const name = node.spec.name;
  const expected = node.gpus.length;
  const visible = world.visibleGpus(node).length;
  const sick = world.faults.find("gpu-health", { node: name }) !== undefined;
  const health = healthDcgmFailures(world, node);
  const failInfo: Record<string, string | undefined> = {
    ...health,
    "GPU count": visible < expected ? `${visible} of ${expected} GPUs visible` : undefined,
    PCIe: visible < expected ? `GPU ${visible}: PCIe link down (device not found on the bus)` : health.PCIe,
    "GPU Memory": sick ? "GPU 0: uncorrectable ECC errors detected" : health["GPU Memory"],
    Diagnostic: sick ? "GPU 0: compute kernel returned incorrect results" : undefined,
  };
  const tests = DCGM_TESTS.filter(([l]) => l <= level).map(([, category, test]): DcgmTest => {
    const info = failInfo[test];
    return info ? { name: test, category, result: "Fail", info } : { name: test, category, result: "Pass" };
  });
  return { level, passed: tests.every((t) => t.result === "Pass"), tests };
}

function xids(world: World, node: LabNode): XidEvent[] {
  const f = world.faults.find("xid-error", { node: node.spec.name });
  const gpus = world.visibleGpus(node);
  if (!f || gpus.length === 0) return healthXidEvents(world, node);
  const xid = f.value ?? 79;
  const i = Math.floor(unit(`xid/${node.spec.name}`) * gpus.length);
  return [
    { xid, gpu_index: i, gpu_uuid: gpus[i].uuid, message: XID_MESSAGES[xid] ?? "GPU error" },
    ...healthXidEvents(world, node),
  ];
}

/** Measures every acceptance signal of `node` now (faults as currently injected). */
export function measureAcceptance(world: World, node: LabNode, params: AcceptanceParams): AcceptanceReport {
  const name = node.spec.name;
  const expected = node.gpus.length;
  const visible = world.visibleGpus(node).length;
  const line = fabricLineRateGBps(node);
  const minBusbw = params.ncclMinBusbwGBps ?? Math.round((line * 0.92) / 10) * 10;
  const marginal = world.faults.find("marginal-nccl", { node: name });
  const busbw = marginal?.value !== undefined ? marginal.value : nominalBusbwGBps(node);
  const ranks = Math.max(1, visible);
  const diag = dcgm(world, node, params.dcgmLevel);
  const events = xids(world, node);
  const sick = world.faults.find("gpu-health", { node: name }) !== undefined;
  const burnPassed = events.length === 0 && !sick && visible === expected && !healthFailsBurnIn(world, node);
  const ncclPassed = busbw >= minBusbw;
  const failures = [
    ...(visible !== expected ? [`gpu_count: ${visible} GPUs visible, ${expected} expected`] : []),
    ...diag.tests
      .filter((t) => t.result === "Fail")
      .map((t) => `dcgm level ${diag.level}: ${t.name} failed (${t.info})`),
    ...(ncclPassed ? [] : [`nccl: all_reduce busbw ${busbw} GB/s below the minimum ${minBusbw} GB/s`]),
    ...events.map((e) => `xid: XID ${e.xid} on GPU ${e.gpu_index} (${e.message})`),
    ...(burnPassed ? [] : [`burn_in: failed within the requested ${params.burnInS} s`]),
  ];
  return {
    format: ACCEPTANCE_FORMAT,
    node: name,
    serial: node.serial,
    measured_at: new Date(world.now()).toISOString(),
    passed: failures.length === 0,
    failures,
    parameters: { dcgm_level: params.dcgmLevel, burn_in_s: params.burnInS, nccl_min_busbw_gbps: minBusbw },
    gpu_model: node.spec.hardware.gpus?.model ?? null,
    gpu_count: visible,
    gpu_count_expected: expected,
    dcgm: diag,
    nccl: {
      test: "all_reduce_perf",
      ranks,
      size_bytes: 8 * 1024 ** 3,
      // all_reduce: busbw = algbw × 2(n−1)/n.
      algbw_gbps: ranks > 1 ? round1((busbw * ranks) / (2 * (ranks - 1))) : busbw,
      busbw_gbps: busbw,
      line_rate_gbps: line,
      min_busbw_gbps: minBusbw,
      passed: ncclPassed,
    },
    burn_in: {
      requested_s: params.burnInS,
      simulated_ms: world.time.duration("burnInMs"),
      passed: burnPassed,
      xid_errors: events.length,
    },
    xid_events: events,
    firmware: COMPONENTS.map((c) => {
      const version = world.firmwareVersion(node, c);
      return { component: c, version, sha256: createHash("sha256").update(`${c}:${version}`).digest("hex") };
    }),
  };
}

/** Parses a duration: seconds as a number, or "90s", "30m", "72h", "1h30m", "2d". Throws naming the bad value. */
export function parseDurationS(v: unknown): number {
  if (typeof v === "number" && Number.isFinite(v) && v >= 0) return Math.round(v);
  const s = String(v ?? "").trim();
  if (/^\d+$/.test(s)) return Number(s);
  const parts = [...s.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== s) {
    throw new Error(`burn_in: "${s}" is not a duration (use seconds or e.g. "72h", "30m", "1h30m")`);
  }
  const mult: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };
  return Math.round(parts.reduce((sum, p) => sum + Number(p[1]) * mult[p[2]], 0));
}

/** Reads gate parameters as the backends pass them (strings from MAAS, JSON values from Ironic step args). */
export function paramsFrom(raw: {
  dcgm_level?: unknown;
  burn_in?: unknown;
  nccl_min_busbw_gbps?: unknown;
}): AcceptanceParams {
  const level = Number(raw.dcgm_level ?? 3);
  if (![1, 2, 3, 4].includes(level)) throw new Error(`dcgm_level: must be 1, 2, 3 or 4, got ${raw.dcgm_level}`);
  const min = raw.nccl_min_busbw_gbps;
  const minNum = min === undefined || min === null || min === "" ? undefined : Number(min);
  if (minNum !== undefined && !(minNum >= 0)) throw new Error(`nccl_min_busbw_gbps: must be a number ≥ 0, got ${min}`);
  return {
    dcgmLevel: level as AcceptanceParams["dcgmLevel"],
    burnInS: parseDurationS(raw.burn_in ?? 0),
    ...(minNum === undefined ? {} : { ncclMinBusbwGBps: minNum }),
  };
}
