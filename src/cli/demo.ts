/**
 * `rackform demo`: the main job. Starts the lab (a simulated 8-node GPU rack on loopback), installs the provider into a
 * filesystem mirror, and drives a real engine (Terraform, else OpenTofu) through init → plan → apply → plan, converging
 * every node's PDU outlet to On — then shows each node's BMC coming up behind its outlet.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { authorizationHeader, parseApiKey } from "../clients/maas/index.js";
import { type Lab, startLab } from "../lab/index.js";
import { type DemoImage, demoConfig } from "./demo-config.js";
import { install, type ProviderPackage } from "./install.js";

/** Options of the demo. */
export interface DemoOptions {
  readonly nodes: number;
  readonly engine?: string;
  readonly dir: string;
  readonly keep: boolean;
  readonly pkg: ProviderPackage;
}

function findEngine(name?: string): string {
  const tofu = join(process.env.RACKFORM_CACHE ?? join(homedir(), ".cache", "rackform"), "opentofu-v1.12.6", "tofu");
  const candidates = name === "tofu" ? [tofu] : name === "terraform" ? ["terraform"] : ["terraform", tofu];
  for (const c of candidates) {
    const onPath = !c.includes("/") && (process.env.PATH ?? "").split(":").some((d) => existsSync(join(d, c)));
    if (onPath || existsSync(c)) return c;
  }
  throw new Error("no engine found: install Terraform 1.11, or run scripts/build-opentofu.sh for OpenTofu");
}

function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((done, fail) => {
    process.stdout.write(`\n$ ${bin.split("/").pop()} ${args.join(" ")}\n`);
    const c = spawn(bin, args, { cwd, env, stdio: ["ignore", "inherit", "inherit"] });
    c.on("error", fail);
    c.on("close", (code) => done(code ?? 1));
  });
}

/** Uploads the golden image to the lab MAAS as custom/<name>-<version>, as an operator does before deploying it. */
async function uploadImage(maas: { url: string; apiKey: string }, image: DemoImage): Promise<void> {
  const body = new URLSearchParams({
    name: `custom/${image.name}-${image.version}`,
    architecture: "amd64/generic",
    sha256: image.sha256,
    size: "1000",
  });
  const r = await fetch(`${maas.url}api/2.0/boot-resources/`, {
    method: "POST",
    headers: { Authorization: authorizationHeader(parseApiKey(maas.apiKey)) },
    body,
  });
  if (r.status !== 201) throw new Error(`uploading the image to the lab MAAS failed: ${r.status} ${await r.text()}`);
}

type StateResource = { type: string; name: string; values: Record<string, unknown> };

function capture(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((done, fail) => {
    let out = "";
    const c = spawn(bin, args, { cwd, env, stdio: ["ignore", "pipe", "inherit"] });
    c.stdout.on("data", (d) => {
      out += d;
    });
    c.on("error", fail);
    c.on("close", (code) => (code === 0 ? done(out) : fail(new Error(`${args.join(" ")} exited ${code}`))));
  });
}

/** One row per node from the engine's own state: what each link of the chain recorded. */
function table(lab: Lab, state: StateResource[]): string {
  const get = (type: string, node: string, attr: string) =>
    String(state.find((r) => r.type === type && r.name === node.replaceAll("-", "_"))?.values[attr] ?? "-");
  const rows = lab.info.nodes.map((n) => [
    n.name,
    `${n.pdu}/${n.outlet}`,
    get("rackform_pdu_outlet", n.name, "power_state"),
    `${get("rackform_bmc", n.name, "gpu_count")}× GPU`,
    get("rackform_machine", n.name, "status"),
    get("rackform_deployment", n.name, "deployed_image"),
    `${get("rackform_acceptance", n.name, "busbw_gbps")} GB/s`,
    get("rackform_cluster_member", n.name, "state"),
  ]);
  const head = ["node", "pdu/outlet", "outlet", "bmc", "maas", "image", "nccl busbw", "slurm"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [head, ...rows].map((r) => r.map((c, i) => c.padEnd(widths[i])).join("  ")).join("\n");
}

/** Runs the demo; resolves with the process exit code. */
export async function demo(opts: DemoOptions): Promise<number> {
  const engine = findEngine(opts.engine);
  const dir = resolve(opts.dir);
  rmSync(dir, { recursive: true, force: true });
  const stack = join(dir, "stack");
  mkdirSync(stack, { recursive: true });
  const lab = await startLab({ nodes: opts.nodes, profile: "demo", stateDir: join(dir, "lab") });
  try {
    lab.writeInfo(join(dir, "lab.json"));
    process.stdout.write(
      `lab: ${lab.info.nodes.length} nodes, ${lab.info.pdus.length} PDUs; lab file ${join(dir, "lab.json")}\n`,
    );
    const { cliConfigPath } = await install(join(dir, "home"), [opts.pkg]);
    const maas = lab.info.maas as { url: string; apiKey: string };
    const slurm = lab.info.slurm as { token: string };
    const image: DemoImage = {
      name: "ubuntu-gpu",
      version: "2026.06.2",
      sha256: createHash("sha256").update("ubuntu-gpu-2026.06.2").digest("hex"),
    };
    await uploadImage(maas, image);
    writeFileSync(join(stack, "main.tf"), demoConfig(lab.info, image));
    const env = {
      ...process.env,
      TF_CLI_CONFIG_FILE: cliConfigPath,
      TF_IN_AUTOMATION: "1",
      CHECKPOINT_DISABLE: "1",
      TF_VAR_redfish_password: lab.info.nodes[0].bmc.password,
      TF_VAR_maas_api_key: maas.apiKey,
      TF_VAR_slurm_token: slurm.token,
    };
    const started = Date.now();
    for (const args of [
      ["init", "-no-color"],
      ["apply", "-auto-approve", "-no-color"],
    ]) {
      const code = await run(engine, args, stack, env);
      if (code !== 0) return code;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const plan = await run(engine, ["plan", "-detailed-exitcode", "-no-color"], stack, env);
    if (plan !== 0) {
      process.stderr.write(`demo: the plan after apply was not empty (exit ${plan})\n`);
      return 1;
    }
    // Record what each system reports now (the machine has moved from Ready to Deployed since it was enrolled).
    await capture(engine, ["apply", "-refresh-only", "-auto-approve", "-no-color"], stack, env);
    const shown = JSON.parse(await capture(engine, ["show", "-json"], stack, env));
    const state = (shown.values?.root_module?.resources ?? []) as StateResource[];
    process.stdout.write(`\nThe rack, as the engine recorded it:\n${table(lab, state)}\n`);
    const joined = state.filter((r) => r.type === "rackform_cluster_member" && r.values.joined === true).length;
    process.stdout.write(
      `\nconverged: ${joined} of ${lab.info.nodes.length} nodes joined Slurm in ${seconds} s; plan after apply is empty (${engine.split("/").pop()})\n`,
    );
    if (joined !== lab.info.nodes.length) return 1;
    if (opts.keep) {
      process.stdout.write(`\nlab still running (Ctrl-C to stop); stack in ${stack}\n`);
      await new Promise<void>((r) => {
        process.once("SIGINT", r);
        process.once("SIGTERM", r);
      });
    }
    return 0;
  } finally {
    await lab.close();
  }
}
