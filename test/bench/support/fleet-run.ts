/**
 * What the fleet benchmark measures while engines run: each engine's own CPU (sampled from /proc, since Node gives no
 * rusage of a child), each provider process's CPU and peak RSS (reported at its exit by provider-cpu-hook.mjs), and the
 * lab's request rate per endpoint kind, sampled every second.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Lab } from "../../../src/lab/index.js";
import { backendBmcCalls } from "./backend-bmc-calls.js";

/** The hook each provider process loads (NODE_OPTIONS=--import …) to report its CPU and peak RSS at exit. */
export const CPU_HOOK = pathToFileURL(join(dirname(fileURLToPath(import.meta.url)), "provider-cpu-hook.mjs")).href;

/** User + system CPU seconds of one process from /proc/<pid>/stat (its own, not its children's); 0 once gone. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After "(comm) ", field 3 of proc(5) is index 0: utime is field 14, stime field 15.
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

export interface EngineRun {
  readonly code: number | null;
  readonly wallS: number;
  /** The engine's own CPU seconds (last sample before it exited: up to 0.2 s low). */
  readonly engineCpuS: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs an engine in `cwd`, sampling its own CPU every 200 ms. */
export function runEngine(
  bin: string,
  args: readonly string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<EngineRun> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let cpu = 0;
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setInterval(() => {
      if (child.pid) cpu = Math.max(cpu, cpuSecondsOf(child.pid));
    }, 200);
    child.on("error", (e) => {
      clearInterval(timer);
      reject(e);
    });
    child.on("exit", () => {
      clearInterval(timer);
    });
    child.on("close", (code) =>
      resolve({ code, wallS: (performance.now() - t0) / 1000, engineCpuS: cpu, stdout, stderr }),
    );
  });
}

export interface ProviderFigures {
  readonly processes: number;
  readonly cpuS: number;
  readonly peakRssMiB: number;
  /** The peak of the process's own (anonymous) memory; the rest of its RSS is shared executable pages. */
  readonly peakAnonMiB: number;
}

/** Sums the lines provider-cpu-hook.mjs appended to `file` (µs user, µs system, KiB max RSS, KiB max anonymous). */
export async function providerFigures(file: string): Promise<ProviderFigures> {
  const text = await readFile(file, "utf8").catch(() => "");
  let cpuS = 0;
  let peak = 0;
  let peakAnon = 0;
  let processes = 0;
  for (const line of text.split("\n")) {
    const [u, s, rss, anon] = line.split(" ").map(Number);
    if (!Number.isFinite(u) || !Number.isFinite(s)) continue;
    processes++;
    cpuS += (u + s) / 1e6;
    peak = Math.max(peak, rss / 1024);
    if (Number.isFinite(anon)) peakAnon = Math.max(peakAnon, anon / 1024);
  }
  return { processes, cpuS, peakRssMiB: peak, peakAnonMiB: peakAnon };
}

/** Redfish from the provider (BMCs and PDUs), Redfish from the lab's MAAS/Ironic (power control, sync), backends. */
export type Kind = "redfish" | "redfish (by backend)" | "maas" | "ironic" | "slurm";
export const KINDS: readonly Kind[] = ["redfish", "redfish (by backend)", "maas", "ironic", "slurm"];

/** Request counts per endpoint kind now (the lab's logs only grow). */
export function requestCounts(lab: Lab): Record<Kind, number> {
  const b = lab.backends!;
  const byBackend = backendBmcCalls();
  return {
    redfish: lab.requests.last() - byBackend,
    "redfish (by backend)": byBackend,
    maas: b.maas.requests.length,
    ironic: b.ironic.requests.length,
    slurm: b.slurm.requests.length,
  };
}

/** Samples the lab's request counts every second; `stop` gives the requests since start and the peak per second. */
export function sampleRates(lab: Lab): {
  stop(): { total: Record<Kind, number>; peakPerS: Record<Kind, number> };
} {
  const start = requestCounts(lab);
  let last = start;
  const peak = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const tick = () => {
    const now = requestCounts(lab);
    for (const k of KINDS) peak[k] = Math.max(peak[k], now[k] - last[k]);
    last = now;
  };
  const timer = setInterval(tick, 1000);
  return {
    stop() {
      clearInterval(timer);
      tick();
      const now = requestCounts(lab);
      const total = Object.fromEntries(KINDS.map((k) => [k, now[k] - start[k]])) as Record<Kind, number>;
      return { total, peakPerS: { ...peak } };
    },
  };
}
