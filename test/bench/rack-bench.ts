/**
 * Rack benchmark (issue 5), printed, never asserted: the demo's full chain (outlet → bmc → machine → deployment →
 * acceptance → cluster_member) converged by the built provider under a real engine against the lab, for each size:
 *  - apply wall time at the parallelism a user would set, against the lab's critical path (one node's chain, summed
 *    from the lab's own simulated durations) and the power-on stagger floor (power_on_interval × (outlets − 1) on
 *    the busiest PDU: power-ons are spaced per PDU);
 *  - requests per node by endpoint kind (Redfish BMC and PDU from the provider, BMC requests the lab's MAAS/Ironic make
 *    for power control, MAAS, Ironic, Slurm);
 *  - a no-op plan (with refresh): wall time, requests by kind, provider peak RSS.
 * Run: npm run build && npm run bench:rack -- [8,64,512] [--backend maas|ironic|maas,ironic] [--engine terraform]
 *      [--profile demo] [--speed 1] [--parallelism P] [--compare-default] [--detail] [--member-timeout 5m]
 * A failed apply is reported (error count and first messages), never thrown, so one lost node keeps the others' figures.
 */

import { rmSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { type Lab, startLab } from "../../src/lab/index.js";
import { type Engine, engine as findEngine, Workdir } from "../support/engines.js";
import { rackStack, uploadGoldenImage } from "../support/rack.js";
import { builtProvider, freshInstall, providerPids, rssKiB } from "../support/rackform-e2e.js";
import { backendBmcCalls } from "./support/backend-bmc-calls.js";
import { criticalPath } from "./support/critical-path.js";
import { terraformDataResources } from "./support/floor-provider.js";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    backend: { type: "string", default: "maas" },
    engine: { type: "string", default: "terraform" },
    profile: { type: "string", default: "demo" },
    speed: { type: "string", default: "1" },
    parallelism: { type: "string" },
    "compare-default": { type: "boolean", default: false },
    detail: { type: "boolean", default: false },
    "member-timeout": { type: "string", default: "5m" },
  },
});

/** The demo configuration's redfish.power_on_interval: power-ons on one PDU are spaced by this. */
const POWER_ON_INTERVAL_MS = 250;

/** The stagger's floor: the busiest PDU's power-ons, one interval apart. */
function staggerFloorMs(lab: Lab): number {
  const perPdu = new Map<string, number>();
  for (const n of lab.info.nodes) perPdu.set(n.pdu, (perPdu.get(n.pdu) ?? 0) + 1);
  return Math.max(0, ...[...perPdu.values()].map((k) => (k - 1) * POWER_ON_INTERVAL_MS));
}
/** What a user sets: every node of a rack at once, capped at 64 so one MAAS region or Ironic conductor is not flooded. */
const userParallelism = (nodes: number) => Math.min(nodes, 64);

type Kind = "bmc" | "pdu" | "bmc (by backend)" | "maas" | "ironic" | "slurm";
const KINDS: readonly Kind[] = ["bmc", "pdu", "bmc (by backend)", "maas", "ironic", "slurm"];
type Counts = Record<Kind, number>;

/** Counters now, to subtract later. */
function snapshot(lab: Lab): { redfish: number; backendBmc: number; maas: number; ironic: number; slurm: number } {
  const b = lab.backends!;
  return {
    redfish: lab.requests.last(),
    backendBmc: backendBmcCalls(),
    maas: b.maas.requests.length,
    ironic: b.ironic.requests.length,
    slurm: b.slurm.requests.length,
  };
}

function countsSince(lab: Lab, s: ReturnType<typeof snapshot>): Counts {
  const pdus = new Set(lab.info.pdus.map((p) => p.id));
  let bmc = 0;
  let pdu = 0;
  for (const e of lab.requests.since(s.redfish)) {
    if (e.target !== undefined && pdus.has(e.target)) pdu++;
    else bmc++;
  }
  const byBackend = backendBmcCalls() - s.backendBmc;
  const now = snapshot(lab);
  return {
    bmc: bmc - byBackend,
    pdu,
    "bmc (by backend)": byBackend,
    maas: now.maas - s.maas,
    ironic: now.ironic - s.ironic,
    slurm: now.slurm - s.slurm,
  };
}

/** With --detail: the no-op plan's requests by method and path shape (ids folded), most frequent first. */
function printPaths(lab: Lab, s: ReturnType<typeof snapshot>, nodes: number): void {
  const b = lab.backends!;
  const fold = (p: string) =>
    p
      .split("?")[0]
      .replace(/\/(nodes|machines)\/[^/]+\//, "/$1/{id}/")
      .replace(/\/[0-9a-f-]{6,}(?=\/|$)/gi, "/{id}")
      .replace(/\/\d+(?=\/|$)/g, "/{n}");
  const by = new Map<string, number>();
  const add = (kind: string, method: string, path: string, op?: string | null) => {
    const key = `${kind} ${method} ${fold(path)}${op ? ` op=${op}` : ""}`;
    by.set(key, (by.get(key) ?? 0) + 1);
  };
  for (const e of lab.requests.since(s.redfish))
    add("redfish", e.method, e.path.replace(/\/(Systems|Managers|Chassis)\/[^/]+/, "/$1/{id}"));
  for (const e of b.maas.requests.slice(s.maas)) add("maas", e.method, e.path, e.op);
  for (const e of b.ironic.requests.slice(s.ironic)) add("ironic", e.method, e.path);
  for (const e of b.slurm.requests.slice(s.slurm)) add("slurm", e.method, e.path);
  console.error(`  no-op plan requests at ${nodes} nodes by shape:`);
  const sorted = [...by].sort((x, y) => y[1] - x[1]);
  const shown = [
    ...sorted.filter(([k]) => k.startsWith("redfish")).slice(0, 12),
    ...sorted.filter(([k]) => !k.startsWith("redfish")),
  ];
  for (const [k, v] of shown) console.error(`    ${String(v).padStart(6)}  ${k}`);
}

/** Runs the engine, timing it and sampling the peak RSS of its provider processes. */
async function timed(
  w: Workdir,
  args: string[],
): Promise<{ wallS: number; peakMiB: number; code: number | null; errors: string[]; summary: string }> {
  let enginePid = 0;
  let peak = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      if (enginePid) for (const pid of await providerPids(enginePid)) peak = Math.max(peak, await rssKiB(pid));
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const t = performance.now();
  const r = await w.run(args, { onSpawn: (pid) => (enginePid = pid) });
  const wallS = (performance.now() - t) / 1000;
  sampling = false;
  await sampler;
  // A failed node must not hide the others' figures: errors are counted and shown, never thrown.
  const errors = [...r.stderr.matchAll(/^(?:│ )?Error: (.+)$/gm)].map((m) => m[1]);
  const summary =
    (/Apply complete!.*/.exec(r.stdout) ?? /Plan: .*|No changes\./.exec(r.stdout))?.[0] ?? `exit ${r.code}`;
  return { wallS, peakMiB: peak / 1024, code: r.code, errors, summary };
}

interface Row {
  readonly backend: string;
  readonly nodes: number;
  readonly parallelism: number;
  readonly applyS: number;
  readonly criticalS: number;
  readonly staggerS: number;
  /** The backend's peak requests in any 1 s of the apply. */
  readonly peak: number;
  readonly apply: Counts;
  readonly applyErrors: number;
  readonly planSummary?: string;
  readonly planS?: number;
  readonly plan?: Counts;
  readonly planRssMiB?: number;
}

const perNode = (c: Counts, n: number) => KINDS.map((k) => (c[k] / n).toFixed(1).padStart(k.length)).join("  ");

async function one(
  cliConfig: string,
  backend: "maas" | "ironic",
  nodes: number,
  parallelism: number,
  plan: boolean,
): Promise<Row> {
  const stateDir = await mkdtemp(join(tmpdir(), "rf-rack-bench-"));
  const lab = await startLab({ nodes, profile: values.profile, speed: Number(values.speed), stateDir });
  let workdir: string | undefined;
  try {
    if (backend === "maas") await uploadGoldenImage(lab);
    const eng = findEngine(values.engine as "terraform" | "tofu");
    const names = lab.info.nodes.map((n) => n.name);
    const w = await rackStack(eng, cliConfig, lab, backend, names);
    workdir = w.dir;
    // A node that never registers would hold the apply for the default 30 min; bound the members' wait instead.
    const main = await readFile(join(w.dir, "main.tf"), "utf8");
    await w.write({
      "main.tf": main.replace(
        /(resource "rackform_cluster_member" "[^"]+" \{\n)/g,
        `$1  timeouts {\n    create = ${JSON.stringify(values["member-timeout"])}\n  }\n`,
      ),
    });
    await w.ok(["init", "-no-color"]);
    const cp = criticalPath((op) => lab.world.time.duration(op), backend);
    let s = snapshot(lab);
    const applyStart = Date.now();
    const apply = await timed(w, ["apply", "-auto-approve", "-no-color", `-parallelism=${parallelism}`]);
    const applyCounts = countsSince(lab, s);
    console.error(
      `  ${backend} ${nodes} nodes, -parallelism=${parallelism}: apply ${apply.wallS.toFixed(1)} s (${apply.summary}, ` +
        `${apply.errors.length} errors); critical path ${cp.terms} = ${(cp.totalMs / 1000).toFixed(1)} s`,
    );
    for (const e of [...new Set(apply.errors)].slice(0, 5)) console.error(`    error: ${e}`);
    console.error(
      `    apply requests per node: ${KINDS.map((k) => `${k} ${(applyCounts[k] / nodes).toFixed(1)}`).join(", ")}`,
    );
    const peaks = lab.requestRates(applyStart);
    console.error(
      `    apply peak requests in any 1 s (lab's logs): ${Object.entries(peaks)
        .map(([k, r]) => `${k} ${r.peakPerSecond}`)
        .join(", ")}`,
    );
    const row = {
      backend,
      nodes,
      parallelism,
      applyS: apply.wallS,
      criticalS: cp.totalMs / 1000,
      staggerS: staggerFloorMs(lab) / 1000,
      apply: applyCounts,
      applyErrors: apply.errors.length,
      peak: peaks[backend]?.peakPerSecond ?? 0,
    };
    if (!plan) return row;
    s = snapshot(lab);
    const noop = await timed(w, ["plan", "-no-color", "-detailed-exitcode", `-parallelism=${parallelism}`]);
    const planCounts = countsSince(lab, s);
    console.error(
      `  no-op plan: ${noop.wallS.toFixed(1)} s (${noop.summary}), peak RSS ${noop.peakMiB.toFixed(0)} MiB, requests: ` +
        KINDS.map((k) => `${k} ${planCounts[k]}`).join(", "),
    );
    if (values.detail) printPaths(lab, s, nodes);
    await planWithoutRefresh(eng, cliConfig, w);
    return { ...row, planS: noop.wallS, plan: planCounts, planRssMiB: noop.peakMiB, planSummary: noop.summary };
  } finally {
    await lab.close();
    // The lab's state (its CA key included) and the engine's workdir are the bench's own: nothing stays in /tmp.
    await rm(stateDir, { recursive: true, force: true });
    if (workdir) await rm(workdir, { recursive: true, force: true });
  }
}

/**
 * The converged rack planned with `-refresh=false` against as many `terraform_data` resources (medians of 3): the
 * provider's own cost per resource over the engine's, with no BMC or backend read (issue 31's goal ≤ 3×).
 */
async function planWithoutRefresh(eng: Engine, cliConfig: string, w: Workdir): Promise<void> {
  const list = await w.ok(["state", "list"]);
  const n = list.stdout.split("\n").filter((l) => l.trim() !== "" && !l.startsWith("data.")).length;
  const wd = await Workdir.create(eng, cliConfig, { "main.tf": terraformDataResources(n) });
  try {
    await wd.ok(["init", "-no-color"]);
    await wd.ok(["apply", "-auto-approve", "-no-color"]);
    const median3 = async (x: Workdir) => {
      const walls: number[] = [];
      for (let i = 0; i < 3; i++) walls.push((await timed(x, ["plan", "-no-color", "-refresh=false"])).wallS);
      return walls.sort((a, b) => a - b)[1];
    };
    const rack = await median3(w);
    const floor = await median3(wd);
    console.error(
      `  plan -refresh=false of the converged rack (${n} resources): ${rack.toFixed(2)} s, of ${n} terraform_data ` +
        `${floor.toFixed(2)} s: ${(rack / floor).toFixed(2)}× (goal ≤ 3×, issue 31)`,
    );
  } finally {
    await rm(wd.dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const sizes = (positionals[0] ?? "8,64,512").split(",").map(Number);
  const backends = values.backend.split(",") as ("maas" | "ironic")[];
  const cliConfig = await freshInstall([builtProvider()]);
  process.on("exit", () => rmSync(dirname(cliConfig), { recursive: true, force: true }));
  const speed = Number(values.speed);
  console.log(
    `rack bench: ${values.engine}, lab profile "${values.profile}" at speed factor ${speed}, power_on_interval ${POWER_ON_INTERVAL_MS} ms, ` +
      `parallelism ${values.parallelism ?? "min(nodes, 64)"}`,
  );
  const rows: Row[] = [];
  for (const backend of backends) {
    for (const n of sizes) {
      const p = values.parallelism ? Number(values.parallelism) : userParallelism(n);
      rows.push(await one(cliConfig, backend, n, p, true));
      if (values["compare-default"] && p !== 10 && n <= 64) rows.push(await one(cliConfig, backend, n, 10, false));
    }
  }
  console.log(
    "\nbackend  nodes  P    apply s  errors  critical s  stagger s  apply/critical  peak req/s | requests per node in apply: " +
      KINDS.join("  "),
  );
  for (const r of rows) {
    console.log(
      `${r.backend.padEnd(7)}  ${String(r.nodes).padStart(5)}  ${String(r.parallelism).padStart(3)}  ${r.applyS.toFixed(1).padStart(7)}  ${String(r.applyErrors).padStart(6)}  ` +
        `${r.criticalS.toFixed(1).padStart(10)}  ${r.staggerS.toFixed(1).padStart(9)}  ${(r.applyS / r.criticalS).toFixed(2).padStart(14)}  ${String(r.peak).padStart(10)} | ${perNode(r.apply, r.nodes)}`,
    );
  }
  console.log(
    `\nno-op plan (refresh on)    wall s  provider peak RSS MiB  total requests | ${KINDS.join("  ")} | plan`,
  );
  for (const r of rows) {
    if (!r.plan || r.planS === undefined) continue;
    const total = KINDS.reduce((a, k) => a + r.plan![k], 0);
    console.log(
      `${r.backend.padEnd(7)} ${String(r.nodes).padStart(5)} nodes P=${String(r.parallelism).padEnd(3)}  ${r.planS.toFixed(1).padStart(6)}  ` +
        `${(r.planRssMiB ?? 0).toFixed(0).padStart(21)}  ${String(total).padStart(14)} | ${KINDS.map((k) => String(r.plan![k]).padStart(k.length)).join("  ")} | ${r.planSummary}`,
    );
  }
}

await main();
