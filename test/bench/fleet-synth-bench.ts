/**
 * Fleet synth benchmark (issue 6), printed, never asserted: time and memory to build and synthesize a Fleet of
 * `racks × nodes` (default 32 × 32 = 1,024 nodes, 6 resources each, one stack per rack, 4 waves after a canary),
 * as `cdktf synth` does it. Target: under 5 s for 1,000 nodes on the 2-core CI machine.
 * Run: node --import tsx test/bench/fleet-synth-bench.ts [--racks 32] [--nodes 32] [--runs 3]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import {
  AcceptancePolicy,
  Flavor,
  Fleet,
  type FleetRack,
  Image,
  MaasBackend,
  SlurmCluster,
} from "@rackform/constructs";
import { App } from "cdktf";

const { values } = parseArgs({
  options: {
    racks: { type: "string", default: "32" },
    nodes: { type: "string", default: "32" },
    runs: { type: "string", default: "3" },
  },
});
const RACKS = Number(values.racks);
const NODES = Number(values.nodes);
const RUNS = Number(values.runs);

function racks(): FleetRack[] {
  return Array.from({ length: RACKS }, (_, r) => {
    const name = `r${String(r + 1).padStart(2, "0")}`;
    const pdus = ["a", "b"].map((p, i) => ({ name: `${name}-pdu-${p}`, endpoint: `https://10.20.${r}.${250 + i}` }));
    const nodes = Array.from({ length: NODES }, (_, j) => ({
      name: `${name}-n${String(j + 1).padStart(2, "0")}`,
      u: j + 1,
      pdu: pdus[j % 2].name,
      outlet: Math.floor(j / 2) + 1,
      bmc: `10.21.${r}.${j + 1}`,
    }));
    return { name, pdus, nodes };
  });
}

/** Builds the fleet in a fresh app and synthesizes it; returns phase times in ms and the output size. */
function run(): { buildMs: number; synthMs: number; buildCpuMs: number; cpuMs: number; bytes: number } {
  const outdir = mkdtempSync(join(tmpdir(), "rackform-fleet-bench."));
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const app = new App({ outdir });
  const image = new Image(app, "ubuntu-gpu", { version: "2026.06.2", sha256: "ab".repeat(32) });
  const flavor = new Flavor(app, "hgx-h100", { gpus: { model: "H100", count: 8 }, minMemoryGiB: 1024 });
  const acceptance = new AcceptancePolicy(app, "standard");
  const backend = new MaasBackend(app, "maas", { url: "http://maas.example:5240/MAAS/" });
  const cluster = new SlurmCluster(app, "slurm", { url: "http://slurm.example:6820", user: "root" });
  const names = racks().map((r) => r.name);
  const waves = [names.slice(0, 8), names.slice(8, 16), names.slice(16, 24), names.slice(24)].filter((w) => w.length);
  new Fleet(app, "fleet", {
    racks: racks(),
    image,
    flavor,
    acceptance,
    backend,
    cluster,
    redfish: { username: "admin" },
    waves,
    canary: 1,
    stateBackend: { kind: "pg", connStr: "postgres://rackform@db.example/terraform" },
  });
  const t1 = performance.now();
  const cpu1 = process.cpuUsage(cpu0);
  app.synth();
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpu0);
  const bytes = readdirSync(join(outdir, "stacks")).reduce(
    (sum, s) => sum + statSync(join(outdir, "stacks", s, "cdk.tf.json")).size,
    0,
  );
  rmSync(outdir, { recursive: true, force: true });
  return {
    buildMs: t1 - t0,
    synthMs: t2 - t1,
    buildCpuMs: (cpu1.user + cpu1.system) / 1000,
    cpuMs: (cpu.user + cpu.system) / 1000,
    bytes,
  };
}

const mib = (b: number) => `${(b / 1024 / 1024).toFixed(0)} MiB`;
const rssBefore = process.memoryUsage().rss;
console.log(`fleet synth: ${RACKS} racks × ${NODES} nodes = ${RACKS * NODES} nodes, ${RACKS * NODES * 6} resources`);
for (let i = 1; i <= RUNS; i++) {
  const r = run();
  const m = process.memoryUsage();
  console.log(
    `  run ${i}: construct + validate ${r.buildMs.toFixed(0)} ms (cpu ${r.buildCpuMs.toFixed(0)}), ` +
      `synth ${r.synthMs.toFixed(0)} ms (cpu ${(r.cpuMs - r.buildCpuMs).toFixed(0)}), ` +
      `total ${(r.buildMs + r.synthMs).toFixed(0)} ms (cpu ${r.cpuMs.toFixed(0)} ms); cdk.tf.json ${mib(r.bytes)}; ` +
      `heap used ${mib(m.heapUsed)}, rss ${mib(m.rss)}`,
  );
}
// maxRSS is the process's peak resident set (KiB), the figure a CI runner's memory limit is compared with.
console.log(
  `  peak rss ${mib(process.resourceUsage().maxRSS * 1024)} (at start ${mib(rssBefore)}); target: total < 5000 ms`,
);
