import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join, resolve } from "node:path";
import { authorizationHeader, parseApiKey } from "../clients/maas/index.js";
import { type Lab, type LabInfo, startLab } from "../lab/index.js";
import { UsageError } from "./args.js";
import { chooseExample, type DemoImage, demoImageUrl } from "./demo-config.js";
import { type DemoPostgres, postgresBin, startDemoPostgres } from "./demo-postgres.js";
import { CDKTF_FLAGS, keepLab, ROOT, type Run, run } from "./demo-shell.js";
import { type DemoWatch, startDemoWatch } from "./demo-watch.js";
import { findEngine } from "./engine.js";
import { install, type ProviderPackage } from "./install.js";

/** Options of the demo. */
export interface DemoOptions {
  readonly nodes: number;
  readonly engine?: string;
  readonly dir: string;
  readonly keep: boolean;
  readonly pkg: ProviderPackage;
  /** The example under examples/ to deploy. @default "gpu-rack" for one rack, "fleet-rollout" above 8 nodes */
  readonly example?: string;
  /** The lab's time profile. @default "demo" */
  readonly profile?: string;
}

export { pasteLines } from "./demo-shell.js";

/**
 * What the app itself wrote to stderr when `cdktf synth` failed: cdktf logs that text as it arrives and repeats it in
 * its summary, so the demo prints the summary's copy alone (undefined when the output has no such section).
 */
export function appError(cdktfOutput: string): string | undefined {
  const m = /Command output on stderr:\n\n([\s\S]*?)(?:\n\s*Command output on stdout:|\n\n\n|$)/.exec(cdktfOutput);
  if (!m) return undefined;
  return `${m[1]
    .split("\n")
    .map((l) => l.replace(/^ {4}/, ""))
    .join("\n")
    .trimEnd()}\n`;
}

/** The images the synthesized stacks deploy (every rackform_deployment's `image`), without duplicates. */
export function imagesOf(stackJson: readonly unknown[]): DemoImage[] {
  const seen = new Map<string, DemoImage>();
  for (const s of stackJson) {
    const deployments = (s as { resource?: { rackform_deployment?: Record<string, { image?: DemoImage }> } }).resource
      ?.rackform_deployment;
    for (const d of Object.values(deployments ?? {})) {
      if (d.image) seen.set(`${d.image.name}-${d.image.version}-${d.image.sha256}`, d.image);
    }
  }
  return [...seen.values()];
}

/**
 * For configurations without a rackform_image (the HCL rack tests, the day-2 tests' extra versions): uploads each
 * image to the lab MAAS as custom/<name>-<version>, as an operator would by hand. The demo itself no longer calls it
 * (its stacks' rackform_image does the upload). Downloads
 * it from where the configuration says it is served (the lab image server), creates the boot resource with its sha256
 * and size, then sends the bytes to the file's upload_uri. MAAS checks the sha256 when the last byte arrives and
 * answers "Saved content does not match given SHA256 value." otherwise; such an image is not deployable.
 */
export async function uploadImages(info: LabInfo, images: readonly DemoImage[]): Promise<void> {
  const maas = info.maas;
  if (!maas) return;
  const key = parseApiKey(maas.apiKey);
  for (const image of images) {
    const url = demoImageUrl(info, image);
    const got = await fetch(url);
    if (!got.ok) throw new Error(`downloading ${url} for the MAAS upload failed: HTTP ${got.status}`);
    const bytes = Buffer.from(await got.arrayBuffer());
    const body = new URLSearchParams({
      name: `custom/${image.name}-${image.version}`,
      architecture: "amd64/generic",
      sha256: image.sha256,
      size: String(bytes.length),
    });
    const r = await fetch(`${maas.url}api/2.0/boot-resources/`, {
      method: "POST",
      headers: { Authorization: authorizationHeader(key) },
      body,
    });
    if (r.status !== 201) throw new Error(`uploading the image to the lab MAAS failed: ${r.status} ${await r.text()}`);
    const created = (await r.json()) as { sets: Record<string, { files: Record<string, { upload_uri?: string }> }> };
    const file = Object.values(Object.values(created.sets)[0]?.files ?? {})[0];
    if (!file?.upload_uri) continue;
    const put = await fetch(new URL(file.upload_uri, maas.url), {
      method: "PUT",
      headers: { Authorization: authorizationHeader(key), "Content-Type": "application/octet-stream" },
      body: bytes,
    });
    if (!put.ok) throw new Error(`uploading ${url} to the lab MAAS failed: ${put.status} ${await put.text()}`);
  }
}

/** The synthesized stacks of a cdktf project: name, working directory and cdk.tf.json content. */
export function synthesizedStacks(project: string): { name: string; dir: string; json: unknown }[] {
  const out = join(project, "cdktf.out");
  const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as {
    stacks: Record<string, { name: string; workingDirectory: string; synthesizedStackPath: string }>;
  };
  return Object.values(manifest.stacks).map((s) => ({
    name: s.name,
    dir: join(out, s.workingDirectory),
    json: JSON.parse(readFileSync(join(out, s.synthesizedStackPath), "utf8")),
  }));
}

type StateResource = { type: string; values: Record<string, unknown> };

/** One row per node from the engine's own state, found by attribute values so construct naming does not matter. */
function table(info: LabInfo, state: StateResource[]): string {
  const of = (type: string, match: (v: Record<string, unknown>) => boolean) =>
    state.find((r) => r.type === type && match(r.values))?.values ?? {};
  const show = (v: unknown) => (v === undefined || v === null ? "-" : String(v));
  const rows = info.nodes.flatMap((n) => {
    const pdu = info.pdus.find((p) => p.id === n.pdu);
    const outlet = of("rackform_pdu_outlet", (v) => v.endpoint === pdu?.url && String(v.outlet_id) === `${n.outlet}`);
    const bmc = of("rackform_bmc", (v) => v.endpoint === n.bmc.url);
    const machine = of("rackform_machine", (v) => v.name === n.name);
    if (outlet.power_state === undefined && machine.id === undefined) return [];
    const deployment = of("rackform_deployment", (v) => v.machine_id === machine.id);
    const acceptance = of("rackform_acceptance", (v) => v.machine_id === deployment.id);
    const member = of("rackform_cluster_member", (v) => v.node === n.name);
    return [
      [
        n.name,
        `${n.pdu}/${n.outlet}`,
        show(outlet.power_state),
        `${show(bmc.gpu_count)}× GPU`,
        show(machine.status),
        show(deployment.deployed_image),
        `${show(acceptance.busbw_gbps)} GB/s`,
        show(member.state),
      ],
    ];
  });
  const head = ["node", "pdu/outlet", "outlet", "bmc", "machine", "image", "nccl busbw", "scheduler"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [head, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i])).join("  ")).join("\n");
}

/** The Markdown a pull request would show for these plans: `rackform plan-summary --plan STACK=FILE ...`. */
async function planSummary(
  plans: readonly { stack: string; file: string }[],
  manifest: string,
  env: NodeJS.ProcessEnv,
): Promise<string> {
  // the manifest gives the stacks' waves (the fleet's canary first), which the plans alone do not hold
  const args = [...plans.flatMap((p) => ["--plan", `${p.stack}=${p.file}`]), "--manifest", manifest];
  const cli = join(ROOT, "dist", "cli", "main.js");
  const r = await run(process.execPath, [cli, "plan-summary", ...args], ROOT, env, false);
  if (r.code !== 0) throw new Error(`rackform plan-summary failed (exit ${r.code}):\n${r.out}`);
  return r.out;
}

/**
 * Copies the example app into `project` so the kept project is the user's own: main.ts and the lab-file helper. The
 * example imports the library by its package name (`@rackform/constructs`), as an app that installed the package does;
 * node_modules is linked to this checkout's, where npm's workspace links that name to constructs/ (built by `npm run
 * build`), so `cdktf` and the package resolve wherever the project is. Returns the copied main.ts.
 */
export function copyExample(exampleDir: string, project: string): string {
  const main = readFileSync(join(exampleDir, "main.ts"), "utf8").replaceAll('"../lab-file.js"', '"./lab-file.js"');
  writeFileSync(join(project, "main.ts"), main);
  copyFileSync(join(ROOT, "examples", "lab-file.ts"), join(project, "lab-file.ts"));
  const modules = join(project, "node_modules");
  if (!existsSync(modules)) symlinkSync(join(ROOT, "node_modules"), modules);
  return join(project, "main.ts");
}

/** The environment of the demo's engine and cdktf runs: the installed provider, the lab and its secrets. */
function demoEnv(engine: string, cliConfigPath: string, labFile: string, lab: Lab): NodeJS.ProcessEnv {
  return {
    ...process.env,
    TERRAFORM_BINARY_NAME: engine,
    TF_CLI_CONFIG_FILE: cliConfigPath,
    TF_IN_AUTOMATION: "1",
    CHECKPOINT_DISABLE: "1",
    CI: "1",
    FORCE_COLOR: "0",
    RACKFORM_LAB_FILE: labFile,
    TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
    ...(lab.info.maas ? { TF_VAR_maas_api_key: lab.info.maas.apiKey } : {}),
    ...(lab.info.slurm ? { TF_VAR_slurm_token: lab.info.slurm.token } : {}),
  };
}

/** One demo run's engine, project and environment, and a cdktf step that reports its own failure. */
interface DemoRun {
  readonly engine: string;
  readonly project: string;
  readonly env: NodeJS.ProcessEnv;
  step(args: string[], show: boolean): Promise<Run | undefined>;
}

type Stack = ReturnType<typeof synthesizedStacks>[number];

/** Review first: synthesize, plan each stack into cdktf's plan file, and summarize it as a pull request shows it. */
async function review(r: DemoRun): Promise<Stack[] | undefined> {
  if (!(await r.step(["synth", "--no-color"], false))) return undefined;
  const stacks = synthesizedStacks(r.project);
  // No upload here: each stack's rackform_image (the Image construct's) puts the image in MAAS before any deploy.
  const plans: { stack: string; file: string }[] = [];
  for (const s of stacks) {
    if (!(await r.step(["diff", s.name, "--skip-synth", ...CDKTF_FLAGS], false))) return undefined;
    const shown = await run(r.engine, ["show", "-json", "plan"], s.dir, r.env, false);
    if (shown.code !== 0) {
      process.stderr.write(shown.out);
      return undefined;
    }
    plans.push({ stack: s.name, file: join(s.dir, "plan.json") });
    writeFileSync(join(s.dir, "plan.json"), shown.out);
  }
  const manifest = join(r.project, "cdktf.out", "manifest.json");
  process.stdout.write(`\nThe plan, as a reviewer reads it:\n\n${await planSummary(plans, manifest, r.env)}`);
  return stacks;
}

/**
 * Records what each system reports now (the machine has moved from Ready to Deployed since it was enrolled), then
 * plans against that fresh state — a refresh and a plan, as `cdktf diff` would do, without its synth and init. The
 * resources every stack recorded, or undefined when a plan was not empty.
 */
async function recorded(r: DemoRun, stacks: readonly Stack[]): Promise<StateResource[] | undefined> {
  let state: StateResource[] = [];
  for (const s of stacks) {
    await run(r.engine, ["apply", "-refresh-only", "-auto-approve", "-no-color", "-input=false"], s.dir, r.env, false);
    const args = ["plan", "-refresh=false", "-detailed-exitcode", "-no-color", "-input=false"];
    const plan = await run(r.engine, args, s.dir, r.env, false);
    if (plan.code !== 0) {
      process.stderr.write(`${plan.out}\ndemo: the plan of ${s.name} after deploy was not empty (exit ${plan.code})\n`);
      return undefined;
    }
    const shown = await run(r.engine, ["show", "-json"], s.dir, r.env, false);
    const values = JSON.parse(shown.out) as { values?: { root_module?: { resources?: StateResource[] } } };
    state = state.concat(values.values?.root_module?.resources ?? []);
  }
  return state;
}

/** The example to deploy, checked before anything starts (a missing example, cdktf or PostgreSQL fails here). */
function demoExample(opts: DemoOptions): { main: string; postgres: boolean } {
  // The installed package ships dist/ and bin/ only: the demo deploys the checkout's examples with its cdktf-cli.
  if (!existsSync(join(ROOT, "examples")))
    throw new Error("demo runs from a checkout of the repository (its examples/): there, `npm ci && npm run demo`");
  const cdktf = join(ROOT, "node_modules", ".bin", "cdktf");
  if (!existsSync(cdktf)) throw new Error(`${cdktf} is missing: run \`npm ci\` (cdktf-cli is a dev dependency)`);
  const choice = chooseExample(opts.nodes, opts.example);
  const main = join(ROOT, "examples", choice.example, "main.ts");
  if (!existsSync(main)) {
    const have = readdirSync(join(ROOT, "examples")).filter((d) => existsSync(join(ROOT, "examples", d, "main.ts")));
    throw new UsageError(`--example: no example ${JSON.stringify(opts.example)}; choose one of ${have.join(", ")}`);
  }
  if (choice.postgres) postgresBin(); // fails with what to install before anything starts
  if (choice.note) process.stdout.write(`demo: ${choice.note}\n`);
  return { main, postgres: choice.postgres };
}

/** What the demo started, for its cleanup. */
interface Started {
  env?: NodeJS.ProcessEnv;
  pg?: DemoPostgres;
  stackNames: string[];
  watch?: DemoWatch;
}

/** Runs the demo; resolves with the process exit code. */
export async function demo(opts: DemoOptions): Promise<number> {
  const engine = findEngine(opts.engine);
  const example = demoExample(opts);
  const dir = resolve(opts.dir);
  rmSync(dir, { recursive: true, force: true });
  const project = join(dir, "project");
  mkdirSync(project, { recursive: true });
  const lab: Lab = await startLab({ nodes: opts.nodes, profile: opts.profile ?? "demo", stateDir: join(dir, "lab") });
  const started: Started = { stackNames: [] };
  try {
    return await converge({ engine, example, dir, project, lab, pkg: opts.pkg }, started);
  } finally {
    // --keep keeps the lab whether the deploy converged or not: a half-converged rack is worth looking at.
    if (opts.keep && started.env) await keepLab(dir, project, started.env, started.stackNames);
    await started.watch?.stop();
    await started.pg?.stop();
    await lab.close();
  }
}

/** The demo's work once its lab runs: install, review, deploy, check the plan is empty, show the rack. */
async function converge(
  d: {
    engine: string;
    example: { main: string; postgres: boolean };
    dir: string;
    project: string;
    lab: Lab;
    pkg: ProviderPackage;
  },
  started: Started,
): Promise<number> {
  const { engine, lab, project } = d;
  const labFile = join(d.dir, "lab.json");
  lab.writeInfo(labFile);
  process.stdout.write(`lab: ${lab.info.nodes.length} nodes, ${lab.info.pdus.length} PDUs; lab file ${labFile}\n`);
  const { cliConfigPath } = await install(join(d.dir, "home"), [d.pkg]);
  // The project is a copy of the example the user owns (kept with --keep), with its own cdktf.out and local state.
  const main = copyExample(dirname(d.example.main), project);
  const config = { language: "typescript", app: `${join(ROOT, "node_modules", ".bin", "tsx")} ${main}` };
  writeFileSync(join(project, "cdktf.json"), `${JSON.stringify(config, null, 2)}\n`);
  const env = demoEnv(engine, cliConfigPath, labFile, lab);
  if (d.example.postgres) {
    started.pg = await startDemoPostgres();
    process.stdout.write("postgres: a local server for the stacks' state (RACKFORM_PG_CONN_STR)\n");
    env.RACKFORM_PG_CONN_STR = started.pg.connStr;
    env.PGPASSWORD = started.pg.password;
    // New stacks' first applies take the pg backend's database-wide creation lock one at a time: wait, don't fail.
    env.TF_CLI_ARGS_apply = "-lock-timeout=10m";
  }
  started.env = env;
  const cdktf = join(ROOT, "node_modules", ".bin", "cdktf");
  const r: DemoRun = {
    engine,
    project,
    env,
    async step(args, show) {
      const out = await run(cdktf, args, project, env, show);
      if (out.code === 0) return out;
      if (!show) process.stderr.write(appError(out.out) ?? out.out);
      process.stderr.write(`demo: cdktf ${args[0]} failed (exit ${out.code})\n`);
      return undefined;
    },
  };
  const stacks = await review(r);
  if (!stacks) return 1;
  started.stackNames = stacks.map((s) => s.name);
  started.watch = await startDemoWatch(project, engine, env);
  process.stdout.write(`\nwatch the rack converge: ${started.watch.url} (rackform watch, read-only)\n`);
  const t0 = Date.now();
  // Every stack, in the waves their dependencies make (cdktf refuses a bare deploy of more than one stack).
  const which = stacks.length > 1 ? ["*"] : [];
  // The app was synthesized above and has not changed since: a second synth would only repeat it.
  if (!(await r.step(["deploy", ...which, "--auto-approve", "--skip-synth", ...CDKTF_FLAGS], true))) return 1;
  const seconds = ((Date.now() - t0) / 1000).toFixed(1);
  const state = await recorded(r, stacks);
  if (!state) return 1;
  process.stdout.write(`\nThe rack, as the engine recorded it:\n${table(lab.info, state)}\n`);
  const joined = state.filter((x) => x.type === "rackform_cluster_member" && x.values.joined === true).length;
  const engineName = engine.split("/").pop();
  process.stdout.write(
    `\nconverged: ${joined} of ${lab.info.nodes.length} nodes joined Slurm in ${seconds} s; the plan after deploy shows no changes (${engineName})\n`,
  );
  return joined === lab.info.nodes.length ? 0 : 1;
}
