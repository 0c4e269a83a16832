/**
 * Ground for e2e tests of the built rackform provider: the lab in-process, the provider installed into a fresh mirror,
 * and HCL written from the lab file. The provider under test is dist/ (built by `npm test`), exactly what users run.
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { install, type ProviderPackage } from "../../src/cli/install.js";
import { type DefaultSpecOptions, defaultSpec, type Lab, startLab } from "../../src/lab/index.js";
import { until } from "./until.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The provider package as `rackform install` would place it; fails when dist/ has not been built. */
export function builtProvider(): ProviderPackage {
  const main = join(ROOT, "dist", "main.js");
  if (!existsSync(main)) throw new Error(`${main} is missing: run \`npm run build\` first (npm test does)`);
  return { namespace: "rackform", type: "rackform", version: "0.1.0", exec: [process.execPath, main] };
}

/** Installs the given packages into a fresh mirror and returns the CLI config path. */
export async function freshInstall(pkgs: readonly ProviderPackage[]): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), "rf-home-"));
  return (await install(home, pkgs)).cliConfigPath;
}

/** What a test lab's generated spec varies beyond its node count. */
export interface TestLabOptions {
  /** Per-node firmware versions and BIOS values (defaultSpec's option), e.g. a rack of mixed firmware. */
  readonly nodeOverrides?: DefaultSpecOptions["nodeOverrides"];
}

/** A lab for one test file, profile `instant` unless told otherwise. */
export async function testLab(nodes = 4, profile = "instant", opts: TestLabOptions = {}): Promise<Lab> {
  const stateDir = await mkdtemp(join(tmpdir(), "rf-lab-"));
  if (!opts.nodeOverrides) return startLab({ nodes, profile, stateDir });
  return startLab({ spec: defaultSpec({ nodes, nodeOverrides: opts.nodeOverrides }), profile, stateDir });
}

/** A test file's lab and the CLI config of the installed provider, set by the hooks e2eGround registers. */
export interface E2eGround {
  readonly lab: Lab;
  readonly cliConfig: string;
}

/** Registers a file's beforeAll (a testLab of `nodes`, the built provider installed) and afterAll (the lab closed). */
export function e2eGround(nodes = 4, opts: TestLabOptions = {}): E2eGround {
  let lab: Lab | undefined;
  let cliConfig: string | undefined;
  beforeAll(async () => {
    lab = await testLab(nodes, "instant", opts);
    cliConfig = await freshInstall([builtProvider()]);
  });
  afterAll(async () => {
    await lab?.close();
  });
  const set = <T>(v: T | undefined): T => {
    if (v === undefined) throw new Error("e2eGround: the lab and the install are set in beforeAll");
    return v;
  };
  return {
    get lab() {
      return set(lab);
    },
    get cliConfig() {
      return set(cliConfig);
    },
  };
}

/** What providerBlock renders beyond the redfish block. */
export interface ProviderBlockOptions {
  /** Lines added inside the redfish block. */
  readonly redfish?: string;
  /** Backend blocks to render from the lab file (its MAAS URL and API key, its Ironic URL). */
  readonly backends?: readonly ("maas" | "ironic")[];
}

/** The provider block for a lab, with the lab CA, and the backend blocks asked for. */
export function providerBlock(lab: Lab, opts: string | ProviderBlockOptions = {}): string {
  const o: ProviderBlockOptions = typeof opts === "string" ? { redfish: opts } : opts;
  const pdu = lab.info.pdus[0];
  const blocks: string[] = [];
  if (o.backends?.includes("maas")) {
    if (!lab.info.maas) throw new Error("the lab started without MAAS");
    blocks.push(`  maas {
    url     = ${JSON.stringify(lab.info.maas.url)}
    api_key = ${JSON.stringify(lab.info.maas.apiKey)}
  }
`);
  }
  if (o.backends?.includes("ironic")) {
    if (!lab.info.ironic) throw new Error("the lab started without Ironic");
    // The lab's Ironic has no [conductor] default: provide's cleaning boots the images every node is enrolled with.
    blocks.push(`  ironic {
    url            = ${JSON.stringify(lab.info.ironic.url)}
    deploy_kernel  = "${lab.images.url}ipa.kernel"
    deploy_ramdisk = "${lab.images.url}ipa.initramfs"
  }
`);
  }
  return `terraform {
  required_providers {
    rackform = { source = "rackform/rackform" }
  }
}
provider "rackform" {
  redfish {
    username = ${JSON.stringify(pdu.username)}
    password = ${JSON.stringify(pdu.password)}
    ca_file  = ${JSON.stringify(lab.info.ca)}
    power_on_interval = "0s"
${o.redfish ?? ""}
  }
${blocks.join("")}}
`;
}

/** HCL for one outlet resource per node, named after the node. */
export function outletResources(lab: Lab, nodes: readonly string[], state: "On" | "Off", extra = ""): string {
  return nodes
    .map((name) => {
      const n = lab.info.nodes.find((x) => x.name === name);
      if (!n) throw new Error(`no node ${name} in the lab`);
      const pdu = lab.info.pdus.find((p) => p.id === n.pdu)!;
      return `resource "rackform_pdu_outlet" ${JSON.stringify(name)} {
  endpoint    = ${JSON.stringify(pdu.url)}
  pdu_id      = ${JSON.stringify(n.pdu)}
  outlet_id   = "${n.outlet}"
  power_state = "${state}"
${extra}
}
`;
    })
    .join("\n");
}

/** Whether the lab's outlet feeding `node` is on. */
export function outletOn(lab: Lab, node: string): boolean {
  return lab.world.outletOf(node).on;
}

/** Pids of provider processes (dist/main.js) whose parent is `ppid`, or all when omitted. */
export async function providerPids(ppid?: number): Promise<number[]> {
  const { readdir, readFile } = await import("node:fs/promises");
  const main = join(ROOT, "dist", "main.js");
  const out: number[] = [];
  for (const d of await readdir("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const cmd = (await readFile(`/proc/${d}/cmdline`, "utf8")).split("\0");
      if (!cmd.includes(main)) continue;
      if (ppid !== undefined) {
        const stat = await readFile(`/proc/${d}/stat`, "utf8");
        const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        if (parent !== ppid) continue;
      }
      out.push(Number(d));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** A process's resident set size in KiB (0 once it has exited). */
export async function rssKiB(pid: number): Promise<number> {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(await readFile(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

/** Waits until none of `pids` (provider processes an engine's SIGKILL orphaned) is alive. */
export async function providersExited(pids: readonly number[], timeoutMs: number): Promise<void> {
  await until("the orphaned provider to exit", async () => (await providerPids()).every((p) => !pids.includes(p)), {
    timeoutMs,
    everyMs: 50,
  });
}

/** Runs the built `rackform plan-summary` with a plan's JSON (`show -json`) on stdin. */
export function summarise(
  planJson: string,
  args: readonly string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const cli = join(ROOT, "dist", "cli", "main.js");
    const child = spawn(process.execPath, [cli, "plan-summary", ...args], { stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(planJson);
  });
}
