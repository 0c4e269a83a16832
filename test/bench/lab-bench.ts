/**
 * Lab benchmark: 1,000 nodes — start-up time, RSS, and sustained Redfish GET throughput over keep-alive HTTPS.
 * Run: node --import tsx test/bench/lab-bench.ts [--nodes 1000] [--seconds 10] [--concurrency 128]
 * The load client runs in a child process so that it does not share the lab's event loop. Figures are printed only.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Agent, request } from "undici";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    nodes: { type: "string", default: "1000" },
    seconds: { type: "string", default: "10" },
    concurrency: { type: "string", default: "128" },
  },
});

interface Job {
  readonly targets: { url: string; path: string }[];
  readonly ca: string;
  readonly auth: string;
  readonly seconds: number;
  readonly concurrency: number;
}

async function client(job: Job): Promise<void> {
  const agent = new Agent({ connect: { ca: readFileSync(job.ca, "utf8") }, connections: 1, keepAliveTimeout: 60_000 });
  // Warm-up: one request per BMC opens its keep-alive connection (one TLS handshake each), as a real poller would.
  const w0 = performance.now();
  let cursor = 0;
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (cursor < job.targets.length) {
        const t = job.targets[cursor++];
        const res = await request(`${t.url}${t.path}`, { headers: { authorization: job.auth }, dispatcher: agent });
        await res.body.text();
      }
    }),
  );
  const warmupS = (performance.now() - w0) / 1000;
  const latencies: number[] = [];
  let ok = 0;
  let failed = 0;
  let next = 0;
  const end = performance.now() + job.seconds * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t = job.targets[next++ % job.targets.length];
      const start = performance.now();
      try {
        const res = await request(`${t.url}${t.path}`, { headers: { authorization: job.auth }, dispatcher: agent });
        await res.body.text();
        if (res.statusCode === 200) ok++;
        else failed++;
      } catch {
        failed++;
      }
      latencies.push(performance.now() - start);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: job.concurrency }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]?.toFixed(1);
  process.stdout.write(
    `${JSON.stringify({ warmupS, ok, failed, seconds: elapsed, rps: Math.round(ok / elapsed), p50ms: pct(0.5), p99ms: pct(0.99) })}\n`,
  );
  await agent.close();
}

async function main(): Promise<void> {
  const nodes = Number(values.nodes);
  const { startLab } = await import("../../src/lab/index.js");
  const stateDir = mkdtempSync(join(tmpdir(), "rackform-lab-bench-"));
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const lab = await startLab({ nodes, profile: "instant", stateDir });
  const startupMs = performance.now() - t0;
  const rssUp = process.memoryUsage().rss;
  for (const n of lab.world.nodes.values()) lab.world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
  const { username, password } = lab.spec.credentials;
  const job: Job = {
    targets: lab.info.nodes.map((n) => ({
      url: n.bmc.url,
      path: `/redfish/v1/Systems/${lab.world.node(n.name)?.systemId}`,
    })),
    ca: lab.info.ca,
    auth: `Basic ${Buffer.from(`${username}:${password}`).toString("base64")}`,
    seconds: Number(values.seconds),
    concurrency: Number(values.concurrency),
  };
  const child = spawn(process.execPath, ["--import", "tsx", import.meta.filename, "client"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stdin.end(JSON.stringify(job));
  await new Promise((r) => child.on("close", r));
  const load = JSON.parse(out);
  const rssLoad = process.memoryUsage().rss;
  const mb = (b: number) => `${Math.round(b / 1048576)} MiB`;
  console.log(
    `lab bench: ${nodes} nodes, ${lab.info.pdus.length} PDUs, ${lab.info.nodes.length + lab.info.pdus.length} HTTPS listeners`,
  );
  console.log(`  start-up           ${Math.round(startupMs)} ms`);
  console.log(`  RSS                before ${mb(rss0)}, after start ${mb(rssUp)}, after load ${mb(rssLoad)}`);
  console.log(
    `  warm-up            ${job.targets.length} keep-alive connections (TLS handshakes) in ${load.warmupS.toFixed(1)} s`,
  );
  console.log(
    `  GET ComputerSystem ${load.rps} req/s over ${load.seconds.toFixed(1)} s (${load.ok} ok, ${load.failed} failed), p50 ${load.p50ms} ms, p99 ${load.p99ms} ms, concurrency ${job.concurrency}`,
  );
  console.log(`  request log        ${lab.requests.last()} entries`);
  await lab.close();
  rmSync(stateDir, { recursive: true, force: true });
}

if (positionals[0] === "client") {
  let input = "";
  process.stdin.on("data", (d) => (input += d));
  process.stdin.on("end", () => void client(JSON.parse(input)));
} else {
  await main();
}
