/**
 * Fleet convergence benchmark (issues 12 and 31), printed, never asserted. A fleet of `stacks × nodes` (default 32 × 32
 * = 1,024 nodes) built with the Fleet construct, one stack per rack, state in PostgreSQL (one schema per stack), every
 * stack applied at once by its own engine as a pipeline's parallel jobs would, against one lab on the `realistic`
 * profile sped up so one node's chain (the critical path) takes about `--target` seconds. Then a no-op plan of every
 * stack at once. Printed per run, each beside its goal: apply wall / critical path, stacks converged, provider and
 * engine CPU-s per node, peak provider RSS per process, requests per node per endpoint kind and the peak rate per
 * second; then what one runner pays per stack (its apply against its own critical path, its provider's and engine's
 * CPU-s per node, its provider's peak RSS) and the backend's peak request rate per node in flight; the lab's own CPU
 * apart (on real hardware the lab is not on the runner).
 * Run: npm run build && npm run bench:fleet-converge -- [--stacks 32] [--nodes 32 (per stack)] [--backend maas,ironic]
 *      [--engine terraform|tofu] [--profile realistic] [--target 540 | --speed N] [--sweep] [--total 256]
 *      [--cpu-prof DIR] (every provider process profiled into DIR by a preload; `node scripts/cpu-prof-top.mjs
 *      DIR/<file>` prints a profile's top costs)
 * --sweep: instead, `--total` nodes as stacks of 16, 32 and 64 nodes, to pick a stack size for a machine like this.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import {
  AcceptancePolicy,
  Flavor,
  Fleet,
  Image,
  IronicBackend,
  MaasBackend,
  Rack,
  RackformStack,
  SlurmCluster,
} from "@rackform/constructs";
import { App } from "cdktf";
import { imageUrl, type LabFile, rackLayout, rackNames } from "../../examples/lab-file.js";
import { imagesOf, synthesizedStacks, uploadImages } from "../../src/cli/demo.js";
import { mapLimit } from "../../src/clients/http/semaphore.js";
import { defaultSpec, type Lab, startLab } from "../../src/lab/index.js";
import { profileByName } from "../../src/lab/time.js";
import { engine as findEngine } from "../support/engines.js";
import { startPostgres } from "../support/postgres.js";
import { builtProvider, freshInstall, ROOT } from "../support/rackform-e2e.js";
import { criticalPath } from "./support/critical-path.js";
import { perStackView, report, type StackResult } from "./support/fleet-report.js";
import { CPU_HOOK, providerFigures, runEngine, sampleRates } from "./support/fleet-run.js";
import { recordTimeline } from "./support/timeline.js";

const { values } = parseArgs({
  options: {
    stacks: { type: "string", default: "32" },
    nodes: { type: "string", default: "32" },
    backend: { type: "string", default: "maas,ironic" },
    engine: { type: "string", default: "terraform" },
    profile: { type: "string", default: "realistic" },
    target: { type: "string", default: "540" },
    speed: { type: "string" },
    sweep: { type: "boolean", default: false },
    total: { type: "string", default: "256" },
    "cpu-prof": { type: "string" },
  },
});

type Backend = "maas" | "ironic";

/** The speed factor that puts one node's chain near `--target` seconds (or `--speed` as given). */
function speedFor(backend: Backend): number {
  if (values.speed) return Number(values.speed);
  const p = profileByName(values.profile);
  const ms = criticalPath((op) => p[op], backend).totalMs;
  return ms > 0 ? ms / 1000 / Number(values.target) : 1; // the instant profile has no chain to scale
}

/**
 * Synthesizes the fleet (no waves: every stack at once) into `outdir`; returns the stacks' names and directories. One
 * rack per stack is the Fleet construct; more racks per stack (a rack holds at most 52 nodes) are Racks grouped in
 * RackformStacks, with the same shared constructs and state backend.
 */
function synthFleet(lab: Lab, backend: Backend, outdir: string, pgConn: string, racksPerStack: number) {
  const info = lab.info as unknown as LabFile;
  const app = new App({ outdir });
  const image = new Image(app, "ubuntu-gpu", {
    version: "2026.06.2",
    url: imageUrl(info, "ubuntu-gpu-2026.06.2.qcow2"),
    sha256: "762af2a3c180385ab91b1ae939b9f4a73a621fd01ac43a2ab212826e610acf39",
  });
  const ib = info.ironic;
  const shared = {
    image,
    flavor: new Flavor(app, "hgx-h100", { gpus: { model: "H100", count: 8 }, minMemoryGiB: 1024 }),
    acceptance: new AcceptancePolicy(app, "standard"),
    backend:
      backend === "maas"
        ? new MaasBackend(app, "maas", { url: info.maas!.url })
        : new IronicBackend(app, "ironic", {
            url: ib!.url,
            deployKernel: imageUrl(info, "ipa.kernel"),
            deployRamdisk: imageUrl(info, "ipa.initramfs"),
          }),
    cluster: new SlurmCluster(app, "slurm", { url: info.slurm!.url, user: info.slurm!.user }),
    redfish: { username: info.nodes[0].bmc.username, caFile: info.ca },
  };
  const stateBackend = { kind: "pg" as const, connStr: pgConn };
  const racks = rackNames(info).map((name) => ({ name, ...rackLayout(info, name) }));
  if (racksPerStack === 1) new Fleet(app, "fleet", { racks, ...shared, stateBackend });
  else
    for (let i = 0; i < racks.length; i += racksPerStack) {
      const stack = new RackformStack(app, `fleet-s${String(i / racksPerStack + 1).padStart(2, "0")}`, {
        stateBackend,
      });
      for (const { name, ...layout } of racks.slice(i, i + racksPerStack))
        new Rack(stack, name, { ...layout, ...shared });
    }
  app.synth();
  return synthesizedStacks(join(outdir, ".."));
}

/**
 * Creates a stack's empty state: an apply of a configuration holding only the stack's backend block, so the lock -1 is
 * held for well under a second and no provider starts. Run one stack after another: concurrent ones would wait for
 * each other's lock with the engine's back-off.
 */
async function createState(
  bin: string,
  stack: { name: string; json: unknown },
  root: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const dir = join(root, stack.name);
  mkdirSync(dir, { recursive: true });
  const backend = (stack.json as { terraform: { backend: unknown } }).terraform.backend;
  writeFileSync(join(dir, "main.tf.json"), JSON.stringify({ terraform: { backend } }));
  for (const args of [
    ["init", "-no-color", "-input=false"],
    ["apply", "-auto-approve", "-no-color", "-input=false", "-lock-timeout=10m"],
  ]) {
    const r = await runEngine(bin, args, dir, env);
    if (r.code !== 0) throw new Error(`creating the state of ${stack.name} failed:\n${r.stdout}\n${r.stderr}`);
  }
}

/** Each error's summary with the first line of its detail (the engine's boxed diagnostics, `-no-color`). */
function errorsOf(stderr: string): string[] {
  const lines = stderr.split("\n").map((l) => l.replace(/^[│╷╵] ?/, "").trim());
  const out: string[] = [];
  lines.forEach((l, i) => {
    if (!l.startsWith("Error: ")) return;
    // The detail's first paragraph (the engine wraps it at its terminal width): skip the address and source lines.
    const from = lines.findIndex(
      (x, j) => j > i && x !== "" && !/^(with |on |\d+:|\(source code not available\))/.test(x),
    );
    const end = lines.findIndex((x, j) => j > from && x === "");
    const detail = from > i && from < i + 12 ? lines.slice(from, end === -1 ? undefined : end).join(" ") : "";
    out.push(`${l.slice(7)}${detail ? `: ${detail}` : ""}`.slice(0, 400));
  });
  return out;
}

/** The largest rack the lab builds for a stack: a stack of 64 nodes is two racks of 32. */
const MAX_RACK = 32;

async function converge(backend: Backend, stackCount: number, perStack: number): Promise<void> {
  const nodes = stackCount * perStack;
  const perRack = Math.min(perStack, MAX_RACK);
  if (perStack % perRack !== 0) throw new Error(`--nodes ${perStack}: a stack is whole racks of ${MAX_RACK} or fewer`);
  const speed = speedFor(backend);
  const dir = await mkdtemp(join(tmpdir(), "rf-fleet-bench-"));
  const cleanups: (() => Promise<void>)[] = [];
  // A database given by RACKFORM_PG_CONN_STR (and PGPASSWORD), as the test suite passes its own; else a server of its own.
  const pg = process.env.RACKFORM_PG_CONN_STR ? undefined : await startPostgres();
  const pgConn = pg?.connStr ?? process.env.RACKFORM_PG_CONN_STR!;
  const pgPassword = pg?.password ?? process.env.PGPASSWORD ?? "";
  const lab = await startLab({
    spec: defaultSpec({ nodes, nodesPerRack: perRack }),
    profile: values.profile,
    speed,
    stateDir: join(dir, "lab"),
  });
  try {
    const cliConfig = await freshInstall([builtProvider()]);
    cleanups.push(() => rm(dirname(cliConfig), { recursive: true, force: true }));
    mkdirSync(join(dir, "project"));
    const stacks = synthFleet(lab, backend, join(dir, "project", "cdktf.out"), pgConn, perStack / perRack);
    if (backend === "maas") await uploadImages(lab.info, imagesOf(stacks.map((s) => s.json)));
    const eng = findEngine(values.engine as "terraform" | "tofu");
    // Profiles go to DIR/<stack>/: the engine passes NODE_OPTIONS on to the providers it starts (node refuses
    // --cpu-prof there, so a preload profiles).
    const prof = values["cpu-prof"];
    const profHook = prof ? ` --require=${join(ROOT, "scripts", "cpu-prof-preload.cjs")}` : "";
    const env = (stack: string): NodeJS.ProcessEnv => ({
      ...process.env,
      TF_CLI_CONFIG_FILE: cliConfig,
      TF_IN_AUTOMATION: "1",
      CHECKPOINT_DISABLE: "1",
      TF_INPUT: "0",
      PGPASSWORD: pgPassword,
      TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
      TF_VAR_maas_api_key: lab.info.maas!.apiKey,
      TF_VAR_slurm_token: lab.info.slurm!.token,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --import=${CPU_HOOK}${profHook}`.trim(),
      RF_BENCH_CPU_FILE: join(dir, `provider-cpu.${stack}.log`),
      ...(prof ? { RACKFORM_CPU_PROF_DIR: join(prof, stack) } : {}),
    });
    const cp = criticalPath((op) => lab.world.time.duration(op), backend);
    console.log(
      `\n${backend}: ${stackCount} stacks × ${perStack} nodes = ${nodes} nodes, ${values.engine}, lab "${values.profile}" ×${speed.toFixed(1)}; ` +
        `critical path ${cp.terms} = ${(cp.totalMs / 1000).toFixed(1)} s`,
    );
    const t0 = performance.now();
    // One after another: the pg backend's first init in a database creates objects shared by every stack (the
    // public.global_states_id_seq sequence) with CREATE … IF NOT EXISTS, and two concurrent inits can both try
    // ("duplicate key value violates unique constraint pg_class_relname_nsp_index").
    await mapLimit(stacks, 1, async (s) => {
      const r = await runEngine(
        eng.bin,
        ["init", "-no-color", "-input=false", "-lock-timeout=10m"],
        s.dir,
        env(s.name),
      );
      if (r.code !== 0) throw new Error(`init of ${s.name} failed:\n${r.stdout}\n${r.stderr}`);
      if (process.env.RF_BENCH_DEBUG) console.log(s.name, r.wallS, r.stdout.slice(-200));
    });
    console.log(
      `  init of ${stacks.length} stacks (one after another): ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    // Terraform's pg backend holds its database-wide workspace-creation lock (advisory lock -1) for the whole first
    // apply of a stack whose state row does not exist yet, so the first applies of new stacks in one database run one
    // after another. A pipeline creates each stack's state once, before its first rollout; so does the bench.
    const t1 = performance.now();
    for (const s of stacks) await createState(eng.bin, s, join(dir, "state-init"), env(s.name));
    console.log(`  states created (one stack after another): ${((performance.now() - t1) / 1000).toFixed(1)} s`);

    const P = `-parallelism=${Math.min(perStack, 64)}`;
    /** Every stack at once, each by its own engine: the wall, each stack's outcome, provider figures and rates. */
    const everyStack = async (what: "apply" | "no-op plan", args: string[], criticalS?: number) => {
      for (const s of stacks) await rm(join(dir, `provider-cpu.${s.name}.log`), { force: true });
      const rates = sampleRates(lab);
      const timeline = what === "apply" && backend === "maas" ? recordTimeline(lab) : undefined;
      const startMs = Date.now();
      const t = performance.now();
      const labCpu = process.cpuUsage();
      const results: StackResult[] = await Promise.all(
        stacks.map(async (s) => {
          const r = await runEngine(eng.bin, args, s.dir, env(s.name));
          if (process.env.RF_BENCH_DEBUG) console.log(r.stdout, r.code === 0 ? "" : r.stderr);
          return {
            name: s.name,
            nodes: perStack,
            applyS: r.wallS,
            ok: r.code === 0,
            errors: errorsOf(r.stderr),
            engineCpuS: r.engineCpuS,
          };
        }),
      );
      const wallS = (performance.now() - t) / 1000;
      const seen = rates.stop();
      const used = process.cpuUsage(labCpu);
      const labCpuS = (used.user + used.system) / 1e6;
      const providers = await Promise.all(stacks.map((s) => providerFigures(join(dir, `provider-cpu.${s.name}.log`))));
      report({ what, nodes, wallS, criticalS, stacks: results, providers, rates: seen, labCpuS });
      perStackView(results, providers, criticalS);
      timeline?.report(startMs, Date.now());
    };
    await everyStack("apply", ["apply", "-auto-approve", "-no-color", P, "-lock-timeout=10m"], cp.totalMs / 1000);
    await everyStack("no-op plan", ["plan", "-no-color", "-detailed-exitcode", P, "-lock-timeout=10m"]);
  } finally {
    await lab.close();
    await pg?.stop();
    await rm(dir, { recursive: true, force: true });
    for (const c of cleanups) await c();
  }
}

const backends = values.backend.split(",") as Backend[];
if (values.sweep) {
  const total = Number(values.total);
  for (const backend of backends) {
    for (const per of [16, 32, 64]) await converge(backend, Math.ceil(total / per), per);
  }
} else {
  for (const backend of backends) await converge(backend, Number(values.stacks), Number(values.nodes));
}
