/**
 * Firmware roll benchmark (issue 29), printed, never asserted: a rack converged on day 1 with a firmware baseline
 * (rackform_firmware per node, applied before enrollment), then a new BIOS version for every node rolled in one apply
 * inside max_unavailable — each node drained, reset once, read back, its gate re-run, rejoined. Prints the apply's wall
 * time, split into the engine's refresh and plan (and the images' checks) before the first image push and the roll from it, against the lab's
 * critical path with the budget applied (the push, then waves of max_unavailable nodes, each one node's reset → gate),
 * the Redfish requests per node of the roll, and the no-op plan's requests per BMC after.
 * Run: npm run build && npm run bench:firmware -- [8,64] [--max-unavailable 8] [--engine terraform] [--speed 1]
 * [--cpu-prof DIR] (RF_DEBUG=1 also lists the first node's Redfish requests of the roll and of each plan after it)
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { defaultSpec, type Lab, labFirmwareFile, startLab } from "../../src/lab/index.js";
import { engine as findEngine } from "../support/engines.js";
import { rackConfig, rackStack, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall } from "../support/rackform-e2e.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    "max-unavailable": { type: "string", default: "8" },
    engine: { type: "string", default: "terraform" },
    speed: { type: "string", default: "1" },
    "cpu-prof": { type: "string" },
  },
});

/** The baseline of every node: one BIOS version and SR-IOV on (the lab's nodes are Dell's, one registry). */
function baseline(lab: Lab, version: string) {
  const f = labFirmwareFile("bios", version);
  const fw = {
    components: { BIOS: { version, url: `${lab.images.url}${f.name}`, sha256: f.sha256 } },
    bios: { SriovGlobalEnable: "Enabled" },
  };
  return Object.fromEntries(lab.info.nodes.map((n) => [n.name, fw]));
}

/**
 * One node's roll from the lab's durations: the reset (power on) and the gate's run; and once before the waves, the
 * update task that stages every node's image side by side (`pushMs`). Nothing else is on the lab's path: the reset's
 * outage is shorter than slurmd's timeout, so the node never leaves the scheduler and rejoins once undrained
 * (src/lab/glue/joins.ts).
 */
function rollPathMs(lab: Lab): { perNodeMs: number; pushMs: number; terms: string } {
  const d = (op: "powerOnMs" | "burnInMs" | "firmwareUpdateMs") => lab.world.time.duration(op);
  const terms: [string, number][] = [
    ["reset", d("powerOnMs")],
    ["acceptance", d("burnInMs")],
  ];
  return {
    perNodeMs: terms.reduce((a, [, ms]) => a + ms, 0),
    pushMs: d("firmwareUpdateMs"),
    terms: terms.map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)}`).join(" + "),
  };
}

/**
 * Seconds from the apply's start to its first image push (a POST to an UpdateService): the engine's refresh and plan,
 * and the firmware resources' reads and image checks, before the roll.
 */
function refreshS(lab: Lab, since: number, startedAt: number): number {
  const first = lab.requests.since(since).find((e) => e.method === "POST" && e.path.includes("/UpdateService"));
  return first ? (Date.parse(first.time) - startedAt) / 1000 : 0;
}

/** Redfish requests per BMC address since `since`. */
function perBmc(lab: Lab, since: number): number[] {
  const pdus = new Set(lab.info.pdus.map((p) => p.id));
  const by = new Map<string, number>();
  for (const e of lab.requests.since(since)) {
    if (e.target === undefined || pdus.has(e.target)) continue;
    by.set(e.target, (by.get(e.target) ?? 0) + 1);
  }
  return [...by.values()];
}

async function one(cliConfig: string, nodes: number, maxUnavailable: number): Promise<void> {
  const stateDir = await mkdtemp(join(tmpdir(), "rf-fw-bench-"));
  const spec = defaultSpec({ nodes, vendors: ["dell"] });
  const lab = await startLab({ spec, profile: "demo", speed: Number(values.speed), stateDir });
  try {
    await uploadGoldenImage(lab);
    const names = lab.info.nodes.map((n) => n.name);
    const eng = findEngine(values.engine as "terraform" | "tofu");
    const opts = { maxUnavailable, firmware: baseline(lab, "9.1.0") };
    const w = await rackStack(eng, cliConfig, lab, "maas", names, opts);
    const parallelism = `-parallelism=${Math.min(nodes, 64)}`;
    await w.ok(["init", "-no-color"]);
    await w.ok(["apply", "-auto-approve", "-no-color", parallelism]);
    // The new baseline for every node, rolled in one apply.
    await w.write({ "main.tf": rackConfig(lab, "maas", names, { ...opts, firmware: baseline(lab, "9.2.0") }) });
    const since = lab.requests.last();
    const t = performance.now();
    const startedAt = Date.now();
    // --cpu-prof DIR: the roll's provider processes profiled into DIR by a preload (scripts/cpu-prof-top.mjs reads them).
    const prof = values["cpu-prof"];
    const preload = join(import.meta.dirname, "../../scripts/cpu-prof-preload.cjs");
    const env: Record<string, string> = prof
      ? { NODE_OPTIONS: `--require ${preload}`, RACKFORM_CPU_PROF_DIR: prof }
      : {};
    const r = await w.run(["apply", "-auto-approve", "-no-color", parallelism], { env });
    const wallS = (performance.now() - t) / 1000;
    const beforeS = refreshS(lab, since, startedAt);
    const redfish = lab.requests.last() - since;
    if (process.env.RF_DEBUG) {
      const first = lab.info.nodes[0].name;
      for (const e of lab.requests.since(since).filter((x) => x.target === first))
        console.log(`    roll: ${e.method} ${e.path}${e.query ? `?${e.query}` : ""} ${e.status}`);
    }
    const done = names.filter((n) => lab.world.node(n)?.firmware.bios === "9.2.0").length;
    const path = rollPathMs(lab);
    const waves = Math.ceil(nodes / maxUnavailable);
    const floorS = (path.pushMs + waves * path.perNodeMs) / 1000;
    const rollS = wallS - beforeS;
    console.log(
      `${nodes} nodes, max_unavailable ${maxUnavailable}: apply ${wallS.toFixed(1)} s (exit ${r.code}, ${done}/${nodes} on the new BIOS) = ` +
        `refresh, plan and checks ${beforeS.toFixed(1)} + roll ${rollS.toFixed(1)}; critical path with the budget ${floorS.toFixed(1)} s = ` +
        `push ${(path.pushMs / 1000).toFixed(1)} + ${waves} waves × (${path.terms}); ratio roll ${(rollS / floorS).toFixed(2)}, ` +
        `apply ${(wallS / floorS).toFixed(2)}; Redfish requests per node ${(redfish / nodes).toFixed(1)}`,
    );
    // The first plan reads what the roll changed (the Manager of a BMC whose firmware changed, the values the
    // member's reset put in place); the next is a no-op plan of a converged rack.
    for (const which of ["first plan after the roll", "no-op plan"]) {
      const before = lab.requests.last();
      const plan = await w.run(["plan", "-no-color", "-detailed-exitcode", parallelism]);
      const counts = perBmc(lab, before);
      if (process.env.RF_DEBUG) {
        const first = lab.info.nodes[0].name;
        for (const e of lab.requests.since(before).filter((x) => x.target === first))
          console.log(`    ${e.method} ${e.path}${e.query ? `?${e.query}` : ""} ${e.status}`);
      }
      const mean = counts.reduce((a, b) => a + b, 0) / Math.max(1, counts.length);
      console.log(
        `  ${which}: exit ${plan.code}; Redfish requests per BMC max ${Math.max(0, ...counts)}, mean ${mean.toFixed(1)}`,
      );
    }
    if (!process.env.RF_KEEP) await rm(w.dir, { recursive: true, force: true });
    else console.log(`kept ${w.dir}`);
  } finally {
    await lab.close();
    await rm(stateDir, { recursive: true, force: true });
  }
}

const sizes = (positionals[0] ?? "8")
  .split(",")
  .map(Number)
  .filter((n) => n > 0);
const cliConfig = await freshInstall([builtProvider()]);
for (const n of sizes) await one(cliConfig, n, Number(values["max-unavailable"]));
