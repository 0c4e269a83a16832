/**
 * Provider benchmarks (issue 2), printed, never asserted:
 *  1. spawn → handshake line of the built provider, through the launcher `rackform install` writes, as the engine
 *     launches it (cookie + client cert, mTLS, this shell's environment).
 *  2. a no-op plan of N rackform_pdu_outlet resources against the lab: wall time, provider peak RSS, lab requests.
 * Run: npm run build && node --import tsx test/bench/provider-bench.ts [--resources 500] [--spawns 20] [--engine terraform]
 */
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { launcherScript } from "../../src/cli/install.js";
import { generateCertificate } from "../../src/protocol/index.js";
import { engine as findEngine, Workdir } from "../support/engines.js";
import {
  builtProvider,
  freshInstall,
  outletResources,
  providerBlock,
  providerPids,
  rssKiB,
  testLab,
} from "../support/rackform-e2e.js";

const { values } = parseArgs({
  options: {
    resources: { type: "string", default: "500" },
    spawns: { type: "string", default: "20" },
    engine: { type: "string", default: "terraform" },
  },
});

function stats(xs: number[]): string {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, min ${s[0].toFixed(0)} ms (n=${s.length})`;
}

async function handshakeOnce(launcher: string, clientCertPem: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(launcher, [], {
    env: {
      ...process.env,
      TF_PLUGIN_MAGIC_COOKIE: "d602bf8f470bc67ca7faa0386276bbdd4330efaf76d1a219cb4d6991ca9872b2",
      PLUGIN_PROTOCOL_VERSIONS: "5,6",
      PLUGIN_MIN_PORT: "10000",
      PLUGIN_MAX_PORT: "25000",
      PLUGIN_CLIENT_CERT: clientCertPem,
    },
    stdio: ["ignore", "pipe", "ignore"],
  });
  const ms = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", () => resolve(performance.now() - t0));
    child.once("exit", (c) => reject(new Error(`provider exited ${c} before the handshake`)));
  });
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
  return ms;
}

async function main(): Promise<void> {
  // Everything the bench writes (the lab's CA keys, the engine's workdir, the provider install) goes under one
  // directory of its own, removed at the end.
  const outer = tmpdir();
  const scratch = mkdtempSync(join(outer, "rf-bench-"));
  process.env.TMPDIR = scratch;
  try {
    await run();
  } finally {
    process.env.TMPDIR = outer;
    rmSync(scratch, { recursive: true, force: true, maxRetries: 3 });
  }
}

async function run(): Promise<void> {
  const cert = await generateCertificate();
  const launcher = join(process.env.TMPDIR ?? tmpdir(), "terraform-provider-rackform");
  writeFileSync(launcher, launcherScript(builtProvider()));
  chmodSync(launcher, 0o755);
  const times: number[] = [];
  for (let i = 0; i < Number(values.spawns); i++) times.push(await handshakeOnce(launcher, cert.certPem));
  console.log(`spawn → handshake (built provider, mTLS): ${stats(times)}   goal ≤ 120 ms (issue 31)`);

  const n = Number(values.resources);
  const lab = await testLab(n, "instant");
  try {
    const eng = findEngine(values.engine as "terraform" | "tofu");
    const w = await Workdir.create(eng, await freshInstall([builtProvider()]), {
      "main.tf":
        providerBlock(lab) +
        outletResources(
          lab,
          lab.info.nodes.map((x) => x.name),
          "On",
        ),
    });
    await w.ok(["init", "-no-color"]);
    let t = performance.now();
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    console.log(
      `apply of ${n} outlets (${eng.name}, parallelism 10): ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    for (let round = 1; round <= 2; round++) {
      const before = lab.requests.last();
      let peak = 0;
      let enginePid = 0;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          for (const pid of await providerPids(enginePid || undefined)) peak = Math.max(peak, await rssKiB(pid));
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
      t = performance.now();
      const r = await w.run(["plan", "-no-color", "-detailed-exitcode"], {
        onSpawn: (pid) => {
          enginePid = pid;
        },
      });
      const wall = (performance.now() - t) / 1000;
      sampling = false;
      await sampler;
      if (r.code !== 0) throw new Error(`no-op plan was not empty (exit ${r.code})\n${r.stdout}\n${r.stderr}`);
      const reqs = lab.requests.last() - before;
      console.log(
        `no-op plan of ${n} resources #${round}: ${wall.toFixed(1)} s wall, provider peak RSS ${(peak / 1024).toFixed(0)} MiB, ` +
          `${reqs} Redfish requests (${(reqs / n).toFixed(1)} per resource)`,
      );
    }
  } finally {
    await lab.close();
  }
}

await main();
