/**
 * Inventory benchmark (printed, never asserted): a full RedfishClient.inventory of N lab nodes, and reading N MAAS
 * machines' status. Run: node --import tsx test/bench/inventory-bench.ts [--nodes 1000] [--parallel 64] [--readers 2]
 *
 * Redfish: every node is read by `readers` concurrent callers (as a refresh reads one BMC for several resources).
 *   (a) coalesced — one shared HttpCore and one client per node: concurrent identical GETs become one request;
 *   (b) uncoalesced — each call builds a fresh client with its own core (the core has no switch to turn
 *       coalescing off), so nothing is shared: not the request, not the service root, not the connection.
 *   (c) one reader per node through the shared core, the floor both are compared with.
 * Basic auth throughout so that session logins do not blur the request counts. Requests are counted by the lab.
 * MAAS: N machines' status by one GET machines/{id}/ each vs one batched GET machines/ (MachineCache).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { HttpCore } from "../../src/clients/http/index.js";
import { mapLimit } from "../../src/clients/http/semaphore.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import { RedfishClient } from "../../src/clients/redfish/index.js";
import { type Lab, startLab } from "../../src/lab/index.js";
import { createMaasApi, memoryPowerDriver } from "../../src/lab/maas/index.js";

const { values } = parseArgs({
  options: {
    nodes: { type: "string", default: "1000" },
    parallel: { type: "string", default: "64" },
    readers: { type: "string", default: "2" },
  },
});
const NODES = Number(values.nodes);
const PARALLEL = Number(values.parallel);
const READERS = Number(values.readers);

interface Row {
  readonly name: string;
  readonly requests: number;
  readonly perNode: number;
  readonly ms: number;
  readonly note: string;
}

async function measure(count: () => number, name: string, note: string, f: () => Promise<void>, nodes = NODES) {
  const before = count();
  const t0 = performance.now();
  await f();
  const ms = performance.now() - t0;
  const requests = count() - before;
  return { name, requests, perNode: requests / nodes, ms, note } satisfies Row;
}

async function redfishRows(lab: Lab): Promise<Row[]> {
  const count = () => lab.requests.last();
  const opts = (i: number) => ({
    baseUrl: lab.info.nodes[i].bmc.url,
    username: lab.info.nodes[i].bmc.username,
    password: lab.info.nodes[i].bmc.password,
    auth: "basic" as const,
  });
  const idx = lab.info.nodes.map((_, i) => i);
  let gpus = 0;
  const check = (n: number) => {
    if (n !== 8) throw new Error(`inventory saw ${n} GPUs, expected 8`);
    gpus += n;
  };

  const shared = new HttpCore({ tls: { ca: lab.info.ca }, maxConcurrentPerHost: 4 });
  const clients = idx.map((i) => new RedfishClient({ ...opts(i), core: shared }));
  const a = await measure(count, `(a) coalesced, ${READERS} readers/node`, "one HttpCore", async () => {
    await mapLimit(idx, PARALLEL, async (i) => {
      const invs = await Promise.all(Array.from({ length: READERS }, () => clients[i].inventory()));
      for (const inv of invs) check(inv.gpus.length);
    });
  });
  const b = await measure(count, `(b) uncoalesced, ${READERS} readers/node`, "fresh core per call", async () => {
    await mapLimit(idx, PARALLEL, async (i) => {
      const invs = await Promise.all(
        Array.from({ length: READERS }, async () => {
          const c = new RedfishClient({ ...opts(i), ca: lab.info.ca });
          try {
            return await c.inventory();
          } finally {
            await c.close();
          }
        }),
      );
      for (const inv of invs) check(inv.gpus.length);
    });
  });
  // A fresh shared core, so (c) does not profit from (a)'s warm connections or cached service roots.
  const floorCore = new HttpCore({ tls: { ca: lab.info.ca }, maxConcurrentPerHost: 4 });
  // The floor is the same for every node; a sample keeps the run short on a shared 2-core machine.
  const sample = idx.slice(0, Math.min(NODES, 100));
  const floorClients = sample.map((i) => new RedfishClient({ ...opts(i), core: floorCore }));
  const c = await measure(
    count,
    `(c) one reader/node, ${sample.length} nodes`,
    "one HttpCore",
    async () => {
      await mapLimit(sample, PARALLEL, async (i) => check((await floorClients[i].inventory()).gpus.length));
    },
    sample.length,
  );
  await Promise.all([...clients, ...floorClients].map((x) => x.close()));
  await shared.close();
  await floorCore.close();
  if (gpus !== 8 * (2 * READERS * NODES + Math.min(NODES, 100))) throw new Error(`GPU total ${gpus} is off`);
  return [a, b, c];
}

async function maasRows(): Promise<Row[]> {
  const key = "bench:bench:bench";
  const maas = createMaasApi({ apiKeys: [key], power: memoryPowerDriver() });
  const server = await maas.listen("127.0.0.1", 0);
  const client = new MaasClient({ url: server.url, apiKey: key });
  try {
    const ids = await mapLimit(
      Array.from({ length: NODES }, (_, i) => i),
      16,
      async (i) =>
        (
          await client.createMachine({
            hostname: `bench-${i}`,
            architecture: "amd64/generic",
            macAddresses: [
              `52:54:01:${((i >> 8) & 255).toString(16).padStart(2, "0")}:${(i & 255).toString(16).padStart(2, "0")}:01`,
            ],
            power: { powerAddress: `https://127.0.0.1/bmc-${i}`, powerUser: "u", powerPass: "p" },
            commission: false,
          })
        ).systemId,
    );
    const count = () => maas.requests.length;
    let seen = 0;
    const one = await measure(count, "MAAS: GET machines/{id}/ each", "16 in flight", async () => {
      const ms = await mapLimit(ids, 16, (id) => client.getMachine(id));
      seen += ms.length;
    });
    const batched = await measure(count, "MAAS: batched (MachineCache)", "all readers at once", async () => {
      const ms = await Promise.all(ids.map((id) => client.machines.get(id, { fresh: true })));
      seen += ms.filter((m) => m !== undefined).length;
    });
    if (seen !== 2 * NODES) throw new Error(`MAAS reads found ${seen} machines, expected ${2 * NODES}`);
    return [one, batched];
  } finally {
    await client.close();
    maas.stop();
    await server.close();
  }
}

function table(rows: readonly Row[]): void {
  const head = ["variant", "requests", "req/node", "wall ms", "notes"];
  const cells = rows.map((r) => [r.name, String(r.requests), r.perNode.toFixed(3), r.ms.toFixed(0), r.note]);
  const w = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(w[i])).join(" | ")} |`;
  console.log(line(head));
  console.log(`|${w.map((n) => "-".repeat(n + 2)).join("|")}|`);
  for (const c of cells) console.log(line(c));
}

async function main(): Promise<void> {
  const stateDir = mkdtempSync(join(tmpdir(), "rackform-inventory-bench-"));
  const t0 = performance.now();
  const lab = await startLab({ nodes: NODES, profile: "instant", stateDir });
  for (const n of lab.world.nodes.values()) lab.world.setOutlet(n.spec.pdu, n.spec.outlet, "On");
  console.log(`lab: ${NODES} nodes up in ${Math.round(performance.now() - t0)} ms; ${PARALLEL} nodes in flight`);
  try {
    const rf = await redfishRows(lab);
    const mr = await maasRows();
    table([...rf, ...mr]);
    const [a, b, c] = rf;
    const [one, batched] = mr;
    const r = (x: number, y: number) => (y === 0 ? "∞" : (x / y).toFixed(2));
    console.log(
      `ratios: uncoalesced/coalesced requests ${r(b.requests, a.requests)}x, wall ${r(b.ms, a.ms)}x; ` +
        `coalesced ${READERS} readers vs 1 reader requests/node ${r(a.perNode, c.perNode)}x; ` +
        `MAAS per-machine/batched requests ${r(one.requests, batched.requests)}x, wall ${r(one.ms, batched.ms)}x`,
    );
  } finally {
    await lab.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
}

await main();
