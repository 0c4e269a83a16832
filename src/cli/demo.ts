/**
 * `rackform demo`: the main job. Starts the lab (a simulated 8-node GPU rack on loopback), installs the provider into a
 * filesystem mirror, and deploys the default CDKTF example (examples/gpu-rack) with `cdktf deploy --auto-approve`
 * through a real engine (Terraform, else OpenTofu): the plan summary a reviewer would read first, the deploy, a
 * refresh and a plan of each stack through the engine that must show no changes, and the rack as the engine recorded it. Above one rack (`--nodes` > 8) it
 * deploys examples/fleet-rollout, every stack (`cdktf deploy '*'`) in its wave, with a local PostgreSQL for the state.
 */
import { spawn } from "node:child_process";
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
import { fileURLToPath } from "node:url";
import { authorizationHeader, parseApiKey } from "../clients/maas/index.js";
import { type Lab, type LabInfo, startLab } from "../lab/index.js";
import { UsageError } from "./args.js";
import { chooseExample, type DemoImage, demoImageUrl } from "./demo-config.js";
import { type DemoPostgres, postgresBin, startDemoPostgres } from "./demo-postgres.js";
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

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * Flags of every cdktf run. `--skip-provider-lock`: after init, cdktf runs `providers lock`, which asks the origin
 * registry and ignores the filesystem mirror; init alone writes the lock file from the mirror.
 */
const CDKTF_FLAGS = ["--skip-provider-lock", "--no-color"];

type Run = { code: number; out: string };

/** Runs a command; its output streams to the terminal when `show`, else is kept for an error report. */
function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, show: boolean): Promise<Run> {
  return new Promise((done, fail) => {
    if (show) process.stdout.write(`\n$ ${[bin.split("/").pop(), ...args.map(quote)].join(" ")}\n`);
    const c = spawn(bin, args, { cwd, env, stdio: ["ignore", show ? "inherit" : "pipe", show ? "inherit" : "pipe"] });
    let out = "";
    c.stdout?.on("data", (d) => {
      out += d;
    });
    c.stderr?.on("data", (d) => {
      out += d;
    });
    c.on("error", fail);
    c.on("close", (code) => done({ code: code ?? 1, out }));
  });
}

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

const PASTE_VARS = [
  "TF_CLI_CONFIG_FILE",
  "RACKFORM_LAB_FILE",
  "TERRAFORM_BINARY_NAME",
  "RACKFORM_PG_CONN_STR",
  "TF_CLI_ARGS_apply",
  "CHECKPOINT_DISABLE",
] as const;
const DEMO_SECRETS = ["TF_VAR_redfish_password", "TF_VAR_maas_api_key", "TF_VAR_slurm_token", "PGPASSWORD"] as const;

/** A value as one shell word (single-quoted when it holds more than plain path characters). */
function quote(v: string): string {
  return /^[\w./:@=-]+$/.test(v) ? v : `'${v.replaceAll("'", "'\\''")}'`;
}

/**
 * The lines a user pastes to go on with a kept project: `export` lines for the non-secret variables set, the secrets
 * file to source (its values are never printed), and a `cdktf diff` (of one stack: cdktf refuses a bare diff of a
 * project with several, "Found more than one stack").
 */
export function pasteLines(
  env: NodeJS.ProcessEnv,
  secrets: string,
  project: string,
  stacks: readonly string[],
): string[] {
  const diff = `${join(ROOT, "node_modules", ".bin", "cdktf")} diff ${stacks.length > 1 ? `${stacks[0]} ` : ""}`;
  const which = stacks.length > 1 ? `   # one stack at a time: ${stacks.join(", ")}` : "";
  return [
    ...PASTE_VARS.flatMap((k) => (env[k] === undefined ? [] : [`export ${k}=${quote(env[k])}`])),
    `. ${secrets}   # this lab's secrets: TF_VAR_*${env.PGPASSWORD === undefined ? "" : ", PGPASSWORD"} (0600; not printed)`,
    `cd ${project} && ${diff}${CDKTF_FLAGS.join(" ")}${which}`,
  ];
}

/**
 * Keeps the lab running until Ctrl-C, whether or not every node joined, and prints what to paste to keep using the
 * project: the non-secret variables as `export` lines, and the secrets (TF_VAR_*, PGPASSWORD) as a 0600 file to
 * source — never printed.
 */
async function keepLab(dir: string, project: string, env: NodeJS.ProcessEnv, stacks: string[]): Promise<void> {
  const secrets = join(dir, "secrets.env");
  const tfVars = DEMO_SECRETS.flatMap((k) => (env[k] === undefined ? [] : [[k, env[k]] as const]));
  writeFileSync(secrets, tfVars.map(([k, v]) => `export ${k}='${String(v).replaceAll("'", "'\\''")}'\n`).join(""), {
    mode: 0o600,
  });
  const lines = pasteLines(env, secrets, project, stacks);
  process.stdout.write(
    `\nlab still running (Ctrl-C to stop); the cdktf project ${project} is yours. To go on:\n\n${lines.join("\n")}\n`,
  );
  await new Promise<void>((r) => {
    process.once("SIGINT", r);
    process.once("SIGTERM", r);
  });
}

/** Runs the demo; resolves with the process exit code. */
export async function demo(opts: DemoOptions): Promise<number> {
  const engine = findEngine(opts.engine);
  const engineName = engine.split("/").pop();
  // The installed package ships dist/ and bin/ only: the demo deploys the checkout's examples with its cdktf-cli.
  if (!existsSync(join(ROOT, "examples")))
    throw new Error("demo runs from a checkout of the repository (its examples/): there, `npm ci && npm run demo`");
  const cdktf = join(ROOT, "node_modules", ".bin", "cdktf");
  if (!existsSync(cdktf)) throw new Error(`${cdktf} is missing: run \`npm ci\` (cdktf-cli is a dev dependency)`);
  const choice = chooseExample(opts.nodes, opts.example);
  const example = join(ROOT, "examples", choice.example, "main.ts");
  if (!existsSync(example)) {
    const have = readdirSync(join(ROOT, "examples")).filter((d) => existsSync(join(ROOT, "examples", d, "main.ts")));
    throw new UsageError(`--example: no example ${JSON.stringify(opts.example)}; choose one of ${have.join(", ")}`);
  }
  if (choice.postgres) postgresBin(); // fails with what to install before anything starts
  if (choice.note) process.stdout.write(`demo: ${choice.note}\n`);
  const dir = resolve(opts.dir);
  rmSync(dir, { recursive: true, force: true });
  const project = join(dir, "project");
  mkdirSync(project, { recursive: true });
  const lab: Lab = await startLab({ nodes: opts.nodes, profile: opts.profile ?? "demo", stateDir: join(dir, "lab") });
  let keptEnv: NodeJS.ProcessEnv | undefined;
  let pg: DemoPostgres | undefined;
  let stackNames: string[] = [];
  let watch: DemoWatch | undefined;
  try {
    const labFile = join(dir, "lab.json");
    lab.writeInfo(labFile);
    process.stdout.write(`lab: ${lab.info.nodes.length} nodes, ${lab.info.pdus.length} PDUs; lab file ${labFile}\n`);
    const { cliConfigPath } = await install(join(dir, "home"), [opts.pkg]);
    // The project is a copy of the example the user owns (kept with --keep), with its own cdktf.out and local state.
    const main = copyExample(dirname(example), project);
    const config = { language: "typescript", app: `${join(ROOT, "node_modules", ".bin", "tsx")} ${main}` };
    writeFileSync(join(project, "cdktf.json"), `${JSON.stringify(config, null, 2)}\n`);
    const env: NodeJS.ProcessEnv = {
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
    if (choice.postgres) {
      pg = await startDemoPostgres();
      process.stdout.write("postgres: a local server for the stacks' state (RACKFORM_PG_CONN_STR)\n");
      env.RACKFORM_PG_CONN_STR = pg.connStr;
      env.PGPASSWORD = pg.password;
      // New stacks' first applies take the pg backend's database-wide creation lock one at a time: wait, don't fail.
      env.TF_CLI_ARGS_apply = "-lock-timeout=10m";
    }
    keptEnv = env;
    const step = async (args: string[], show: boolean): Promise<Run | undefined> => {
      const r = await run(cdktf, args, project, env, show);
      if (r.code === 0) return r;
      if (!show) process.stderr.write(appError(r.out) ?? r.out);
      process.stderr.write(`demo: cdktf ${args[0]} failed (exit ${r.code})\n`);
      return undefined;
    };

    // Review first: synthesize, plan into cdktf's plan file, and summarize it as a pull request would show it.
    if (!(await step(["synth", "--no-color"], false))) return 1;
    const stacks = synthesizedStacks(project);
    stackNames = stacks.map((s) => s.name);
    // No upload here: each stack's rackform_image (the Image construct's) puts the image in MAAS before any deploy.
    const plans: { stack: string; file: string }[] = [];
    for (const s of stacks) {
      if (!(await step(["diff", s.name, "--skip-synth", ...CDKTF_FLAGS], false))) return 1;
      const shown = await run(engine, ["show", "-json", "plan"], s.dir, env, false);
      if (shown.code !== 0) {
        process.stderr.write(shown.out);
        return 1;
      }
      plans.push({ stack: s.name, file: join(s.dir, "plan.json") });
      writeFileSync(join(s.dir, "plan.json"), shown.out);
    }
    process.stdout.write(
      `\nThe plan, as a reviewer reads it:\n\n${await planSummary(plans, join(project, "cdktf.out", "manifest.json"), env)}`,
    );

    watch = await startDemoWatch(project, engine, env);
    process.stdout.write(`\nwatch the rack converge: ${watch.url} (rackform watch, read-only)\n`);
    const started = Date.now();
    // Every stack, in the waves their dependencies make (cdktf refuses a bare deploy of more than one stack).
    const which = stacks.length > 1 ? ["*"] : [];
    // The app was synthesized above and has not changed since: a second synth would only repeat it.
    if (!(await step(["deploy", ...which, "--auto-approve", "--skip-synth", ...CDKTF_FLAGS], true))) return 1;
    const seconds = ((Date.now() - started) / 1000).toFixed(1);

    let state: StateResource[] = [];
    for (const s of stacks) {
      // Record what each system reports now (the machine has moved from Ready to Deployed since it was enrolled),
      // then plan against that fresh state: a refresh and a plan, as `cdktf diff` would do, without its synth and init.
      await run(engine, ["apply", "-refresh-only", "-auto-approve", "-no-color", "-input=false"], s.dir, env, false);
      const plan = await run(
        engine,
        ["plan", "-refresh=false", "-detailed-exitcode", "-no-color", "-input=false"],
        s.dir,
        env,
        false,
      );
      if (plan.code !== 0) {
        process.stderr.write(
          `${plan.out}\ndemo: the plan of ${s.name} after deploy was not empty (exit ${plan.code})\n`,
        );
        return 1;
      }
      const shown = await run(engine, ["show", "-json"], s.dir, env, false);
      const values = JSON.parse(shown.out) as { values?: { root_module?: { resources?: StateResource[] } } };
      state = state.concat(values.values?.root_module?.resources ?? []);
    }
    process.stdout.write(`\nThe rack, as the engine recorded it:\n${table(lab.info, state)}\n`);
    const joined = state.filter((r) => r.type === "rackform_cluster_member" && r.values.joined === true).length;
    process.stdout.write(
      `\nconverged: ${joined} of ${lab.info.nodes.length} nodes joined Slurm in ${seconds} s; the plan after deploy shows no changes (${engineName})\n`,
    );
    return joined === lab.info.nodes.length ? 0 : 1;
  } finally {
    // --keep keeps the lab whether the deploy converged or not: a half-converged rack is worth looking at.
    if (opts.keep && keptEnv) await keepLab(dir, project, keptEnv, stackNames);
    await watch?.stop();
    await pg?.stop();
    await lab.close();
  }
}
