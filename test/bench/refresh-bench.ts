/**
 * Refresh benchmark (issue 12), printed, never asserted: a no-op plan of N rackform_bmc resources (each checking its
 * node against an `expected` baseline) against a baseline run in the same process on the same machine: a no-op plan
 * of N terraform_data resources under the same engine, which measures the engine's own cost of N resources.
 * Prints wall time of each, Redfish requests per BMC (from the lab's request log, by method and path), and the ratio.
 * A third workdir plans N resources of a provider with no logic of its own, written with HashiCorp's
 * terraform-plugin-framework (test/bench/floor-provider, built with Go when Go is on PATH): what the engine and a
 * plugin process cost before any provider does anything. A fourth plans one `redfish_power` per BMC of Dell's Go
 * provider (test/bench/support/dell-provider.ts) against the same BMCs: issue 31's goal for the plan with refresh.
 * Run: npm run build && npm run bench:refresh -- [--nodes 64] [--rounds 3] [--engine terraform] [--detail]
 * [--cpu-prof DIR] (one extra plan of each kind after the rounds, the provider profiled into DIR by a preload;
 * `node scripts/cpu-prof-top.mjs DIR/<file>` prints its top costs)
 */
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { startLab } from "../../src/lab/index.js";
import { engine as findEngine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock, ROOT } from "../support/rackform-e2e.js";
import { DELL_VERSION, dellProvider, dellResources } from "./support/dell-provider.js";
import { floorProvider, floorResources, terraformDataResources } from "./support/floor-provider.js";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "64" },
    rounds: { type: "string", default: "3" },
    engine: { type: "string", default: "terraform" },
    detail: { type: "boolean", default: false },
    "cpu-prof": { type: "string" },
  },
});

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * CPU seconds (user + system) of this process's waited-for children and theirs (/proc/self/stat cutime + cstime):
 * the engine and the provider processes it starts. Less noisy than wall time on a shared machine.
 */
function childCpu(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1].split(" ");
  // After "pid (comm) ": field 3 (state) is index 0, so cutime (16) and cstime (17) are indexes 13 and 14.
  return (Number(fields[13]) + Number(fields[14])) / 100;
}

/** Runs `f` and returns its wall seconds and the CPU seconds its child processes used. */
async function timed<T>(f: () => Promise<T>): Promise<{ wall: number; cpu: number; out: T }> {
  const [t, c] = [performance.now(), childCpu()];
  const out = await f();
  return { wall: (performance.now() - t) / 1000, cpu: childCpu() - c, out };
}

async function main(): Promise<void> {
  const n = Number(values.nodes);
  const rounds = Number(values.rounds);
  const eng = findEngine(values.engine as "terraform" | "tofu");
  const stateDir = await mkdtemp(join(tmpdir(), "rf-refresh-bench-"));
  const lab = await startLab({ nodes: n, profile: "instant", stateDir });
  const floor = await floorProvider();
  const dell = dellProvider();
  const cliConfig = await freshInstall([builtProvider(), ...(floor ? [floor] : []), ...(dell.pkg ? [dell.pkg] : [])]);
  const dirs: string[] = [dirname(cliConfig), stateDir];
  try {
    for (const node of lab.world.nodes.values()) lab.world.setOutlet(node.spec.pdu, node.spec.outlet, "On");
    const bmcs = [...lab.world.nodes.values()]
      .map(
        (node) => `resource "rackform_bmc" ${JSON.stringify(node.spec.name)} {
  endpoint = ${JSON.stringify(lab.info.nodes.find((x) => x.name === node.spec.name)!.bmc.url)}
  expected = {
    gpu_count = ${lab.world.visibleGpus(node).length}
    firmware  = { BIOS = ${JSON.stringify(lab.world.firmwareVersion(node, "bios"))} }
  }
}
`,
      )
      .join("\n");
    const wb = await Workdir.create(eng, cliConfig, { "main.tf": providerBlock(lab) + bmcs });
    const wd = await Workdir.create(eng, cliConfig, { "main.tf": terraformDataResources(n) });
    const wf = floor ? await Workdir.create(eng, cliConfig, { "main.tf": floorResources(n) }) : undefined;
    const bmc0 = lab.info.nodes[0].bmc;
    const wg = dell.pkg
      ? await Workdir.create(
          eng,
          cliConfig,
          {
            "main.tf": dellResources(
              lab.info.nodes.map((x) => ({ name: x.name, url: x.bmc.url })),
              bmc0.username,
            ),
          },
          { TF_VAR_bmc_password: bmc0.password, SSL_CERT_FILE: lab.info.ca },
        )
      : undefined;
    const peers = [wb, wd, ...(wf ? [wf] : []), ...(wg ? [wg] : [])];
    dirs.push(...peers.map((w) => w.dir));
    for (const w of peers) {
      await w.ok(["init", "-no-color"]);
      await w.ok(["apply", "-auto-approve", "-no-color"]);
    }
    const walls = { bmc: [] as number[], data: [] as number[], norefresh: [] as number[] };
    const cpus = { bmc: [] as number[], data: [] as number[], norefresh: [] as number[] };
    const floorWalls = { refresh: [] as number[], norefresh: [] as number[] };
    const dellWalls = { refresh: [] as number[], norefresh: [] as number[] };
    for (let round = 1; round <= rounds; round++) {
      const d = await timed(() => wd.run(["plan", "-no-color", "-detailed-exitcode"]));
      walls.data.push(d.wall);
      cpus.data.push(d.cpu);
      if (d.out.code !== 0) throw new Error(`terraform_data plan was not empty (exit ${d.out.code})\n${d.out.stdout}`);
      // The same plan without refresh: the engine and the provider process alone, no Redfish.
      const o = await timed(() => wb.ok(["plan", "-no-color", "-refresh=false"]));
      walls.norefresh.push(o.wall);
      cpus.norefresh.push(o.cpu);
      const before = lab.requests.last();
      const b = await timed(() => wb.run(["plan", "-no-color", "-detailed-exitcode"]));
      walls.bmc.push(b.wall);
      cpus.bmc.push(b.cpu);
      const r = b.out;
      if (r.code !== 0) throw new Error(`rackform_bmc plan was not empty (exit ${r.code})\n${r.stdout}\n${r.stderr}`);
      const reqs = lab.requests.since(before).filter((e) => e.target !== undefined && lab.world.node(e.target));
      const perBmc = new Map<string, number>();
      for (const e of reqs) perBmc.set(e.target!, (perBmc.get(e.target!) ?? 0) + 1);
      const counts = [...perBmc.values()];
      // The most requests one BMC of each vendor style took (their event logs sit in different places).
      const byVendor = new Map<string, number>();
      for (const [name, c] of perBmc) {
        const vendor = lab.world.node(name)?.spec.vendor ?? "?";
        byVendor.set(vendor, Math.max(byVendor.get(vendor) ?? 0, c));
      }
      console.log(
        `round ${round}: no-op plan of ${n} rackform_bmc ${walls.bmc.at(-1)!.toFixed(2)} s, of ${n} terraform_data ` +
          `${walls.data.at(-1)!.toFixed(2)} s, of rackform_bmc without refresh ${walls.norefresh.at(-1)!.toFixed(2)} s; Redfish requests ${reqs.length} (per BMC max ${Math.max(...counts)}, ` +
          `mean ${(reqs.length / n).toFixed(1)}; by vendor ${[...byVendor].map(([v, c]) => `${v} ${c}`).join(", ")}); CPU of engine and provider processes ${cpus.bmc.at(-1)!.toFixed(2)} s ` +
          `(without refresh ${cpus.norefresh.at(-1)!.toFixed(2)} s; terraform_data ${cpus.data.at(-1)!.toFixed(2)} s)`,
      );
      if (wf) {
        const fo = await timed(() => wf.ok(["plan", "-no-color", "-refresh=false"]));
        const fr = await timed(() => wf.ok(["plan", "-no-color"]));
        floorWalls.norefresh.push(fo.wall);
        floorWalls.refresh.push(fr.wall);
        console.log(
          `  floor provider (terraform-plugin-framework, no logic): ${n} resources ${fr.wall.toFixed(2)} s, without ` +
            `refresh ${fo.wall.toFixed(2)} s; CPU ${fr.cpu.toFixed(2)} s (${fo.cpu.toFixed(2)} s)`,
        );
      }
      if (wg) {
        const go = await timed(() => wg.ok(["plan", "-no-color", "-refresh=false"]));
        const before = lab.requests.last();
        const gr = await timed(() => wg.run(["plan", "-no-color", "-detailed-exitcode"]));
        if (gr.out.code !== 0)
          throw new Error(`redfish_power plan was not empty (exit ${gr.out.code})\n${gr.out.stdout}`);
        const sent = lab.requests.since(before).filter((e) => e.target !== undefined && lab.world.node(e.target));
        dellWalls.norefresh.push(go.wall);
        dellWalls.refresh.push(gr.wall);
        console.log(
          `  Dell's Go provider v${DELL_VERSION} (redfish_power): ${n} resources ${gr.wall.toFixed(2)} s, without ` +
            `refresh ${go.wall.toFixed(2)} s; CPU ${gr.cpu.toFixed(2)} s (${go.cpu.toFixed(2)} s); Redfish requests ` +
            `${sent.length} (${(sent.length / n).toFixed(1)} per BMC)`,
        );
      }
      if (values.detail) {
        const first = lab.info.nodes[0].name;
        for (const e of reqs.filter((x) => x.target === first))
          console.log(`  ${e.method} ${e.path}${e.query ? `?${e.query}` : ""} ${e.status}`);
      }
    }
    const prof = values["cpu-prof"];
    if (prof) {
      // NODE_OPTIONS reaches the provider through the engine (node refuses --cpu-prof there: a preload profiles).
      for (const [what, args] of [
        ["refresh", ["plan", "-no-color"]],
        ["norefresh", ["plan", "-no-color", "-refresh=false"]],
      ] as const) {
        const dir = join(prof, what);
        const preload = join(ROOT, "scripts", "cpu-prof-preload.cjs");
        const env = { NODE_OPTIONS: `--require ${preload}`, RACKFORM_CPU_PROF_DIR: dir };
        const r = await wb.run([...args], { env });
        if (r.code !== 0) throw new Error(`profiled plan failed (exit ${r.code})\n${r.stderr}`);
        console.log(`cpu profile of the provider during a no-op plan (${what}) in ${dir}`);
      }
    }
    const b = median(walls.bmc);
    const d = median(walls.data);
    const o = median(walls.norefresh);
    console.log(
      `median CPU (engine + provider processes): rackform_bmc ${median(cpus.bmc).toFixed(2)} s, without refresh ` +
        `${median(cpus.norefresh).toFixed(2)} s, terraform_data ${median(cpus.data).toFixed(2)} s`,
    );
    console.log(
      `median (${eng.name}, ${rounds} rounds): rackform_bmc ${b.toFixed(2)} s, terraform_data ${d.toFixed(2)} s, ` +
        `ratio ${(b / d).toFixed(2)}; rackform_bmc without refresh ${o.toFixed(2)} s (refresh itself ≈ ${(b - o).toFixed(2)} s)`,
    );
    if (wf) {
      const fo = median(floorWalls.norefresh);
      console.log(
        `median floor provider: ${median(floorWalls.refresh).toFixed(2)} s, without refresh ${fo.toFixed(2)} s ` +
          `(${(fo / d).toFixed(2)}× terraform_data); rackform_bmc without refresh is ${(o / fo).toFixed(2)}× the floor`,
      );
    } else console.log("floor provider not measured: Go is not on PATH (test/bench/floor-provider)");
    console.log(`goals (issue 31): rackform_bmc without refresh ${(o / d).toFixed(2)}× terraform_data (goal ≤ 3×)`);
    if (wg) {
      const g = median(dellWalls.refresh);
      console.log(
        `  with refresh ${b.toFixed(2)} s against Dell's Go provider ${g.toFixed(2)} s (${(b / g).toFixed(2)}×; goal ≤ 1×); ` +
          `Dell's without refresh ${median(dellWalls.norefresh).toFixed(2)} s (${(median(dellWalls.norefresh) / d).toFixed(2)}× terraform_data)`,
      );
    } else console.log(`  Dell's Go provider not measured: ${dell.why}`);
  } finally {
    await lab.close();
    await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
  }
}

await main();
