/**
 * Issue 30: rackform_bmc's refresh reads the BMC's event log since the last entry seen and records what the new
 * entries mean in `health`, against the lab's vendor placements: iDRAC's SEL under the Manager (read with
 * `$filter=Id gt`), the System's log carried inline by the `$expand` of the System (HGX, iLO, OpenBMC), and HGX without
 * `$expand`, whose log refuses `$filter` (read by `$top`/`$skip` paging). A log finding clears once the host is seen
 * powered on after its entry (the System's LastResetTime).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ObjectValue, Value } from "../../../src/framework/index.js";
import { type Lab, type LabNode, ManualClock, startLab } from "../../../src/lab/index.js";
import type { Quirk } from "../../../src/lab/world/quirks.js";
import { type ProviderData, providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { planAndApply } from "../../support/provider-rpc.js";

const T = "rackform_bmc";
let lab: Lab;
let clock: ManualClock;
let stateDir: string;
let srv: ProviderServer;
let data: ProviderData | undefined;

const schema = () =>
  rackformProvider()
    .resources()
    .find((r) => r.typeName === T)!.schema;

beforeAll(async () => {
  stateDir = await mkdtemp(join(tmpdir(), "rf-bmc-log-"));
  clock = new ManualClock();
  lab = await startLab({ nodes: 12, profile: "instant", clock, stateDir });
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  const provider = rackformProvider();
  const configure = provider.configure.bind(provider);
  srv = createServer({
    ...provider,
    async configure(req, resp) {
      await configure(req, resp);
      data = resp.resourceData as ProviderData;
    },
  });
  const { username, password } = lab.info.pdus[0];
  const redfish = {
    username,
    password,
    ca_file: lab.info.ca,
    insecure: null,
    max_concurrent_per_bmc: null,
    power_on_interval: null,
  };
  const r = await srv.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, { redfish }) });
  expect(r.diagnostics).toEqual([]);
});
afterAll(async () => {
  await data?.core.close();
  await lab?.close();
  await rm(stateDir, { recursive: true, force: true });
});

/** The n-th node of a vendor style (nodes go round-robin over the styles). */
function nodeOf(vendor: string, nth = 0): LabNode {
  const n = [...lab.world.nodes.values()].filter((x) => x.spec.vendor === vendor)[nth];
  if (!n) throw new Error(`no ${vendor} node ${nth}`);
  return n;
}

const cfg = (n: LabNode) =>
  configOf(schema(), {
    endpoint: lab.info.nodes.find((x) => x.name === n.spec.name)!.bmc.url,
    timeouts: { create: null, read: "10s", update: null },
  });

/** A node's BMC created, and a read function that carries state and private state from read to read. */
async function managed(n: LabNode) {
  const created = await planAndApply(srv, T, schema(), cfg(n), null);
  expect(created.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  let state = created.newState as Value;
  let priv = created.private;
  return {
    async read(): Promise<ObjectValue> {
      const r = await srv.readResource({ typeName: T, currentState: state, private: priv });
      expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
      state = r.newState;
      priv = r.private;
      return state as ObjectValue;
    },
  };
}

type Finding = { component: string; kind: string; health: string; uri: string; since: string };
const logFindings = (s: ObjectValue) => ((s.health ?? []) as Finding[]).filter((f) => f.kind.startsWith("log:"));
const requestsOf = (n: LabNode, since: number) => lab.requests.since(since).filter((e) => e.target === n.spec.name);

describe("rackform_bmc health from the BMC's event log", () => {
  it("HGX: an XID 48 becomes a gpu-xid finding with its XID and Created time; a power-on clears it", async () => {
    const n = nodeOf("nvidia-dgx");
    const bmc = await managed(n);
    expect(logFindings(await bmc.read())).toEqual([]);
    lab.world.faults.add({ kind: "gpu-xid", node: n.spec.name, xid: 48, gpu: 1 });
    clock.advance(1_000);
    const sick = logFindings(await bmc.read());
    expect(sick).toHaveLength(1);
    expect(sick[0]).toMatchObject({ kind: "log:gpu-xid", health: "Critical" });
    expect(sick[0].component).toContain("(XID 48)");
    const entry = lab.world.logs.entries(n.spec.name).at(-1)!;
    expect(Date.parse(sick[0].since)).toBe(entry.created);
    // Read again with nothing new: the finding stands, with the same time.
    expect(logFindings(await bmc.read())).toEqual(sick);

    clock.advance(1_000);
    lab.world.setHostPower(n, false);
    clock.advance(60_000);
    lab.world.setHostPower(n, true);
    clock.advance(600_000);
    expect(logFindings(await bmc.read())).toEqual([]);
  });

  it("Dell: the SEL under the Manager, one conditional GET a refresh (304 when nothing is new), $filter=Id gt once it has entries; MEM0001 is memory-ecc", async () => {
    const n = nodeOf("dell");
    const bmc = await managed(n);
    const sel = (since: number) =>
      requestsOf(n, since)
        .filter((e) => e.path.endsWith("/LogServices/Sel/Entries"))
        .map((e) => [e.query, e.status]);
    await bmc.read();
    let before = lab.requests.last();
    await bmc.read();
    expect(sel(before)).toEqual([["$skip=0&$top=50", 304]]);

    lab.world.faults.add({ kind: "memory-ecc", node: n.spec.name, dimm: 3 });
    clock.advance(1_000);
    const s = await bmc.read();
    expect(logFindings(s)).toMatchObject([{ kind: "log:memory-ecc", health: "Critical", component: "DIMM3" }]);
    // The DIMM's own Status.Health is a finding too.
    expect((s.health as Finding[]).some((f) => f.kind === "memory" && f.health === "Critical")).toBe(true);
    await bmc.read();
    before = lab.requests.last();
    expect(logFindings(await bmc.read())).toEqual(logFindings(s));
    expect(sel(before)).toEqual([["$filter=Id gt '1'", 304]]);
  });

  it("iLO and OpenBMC: the System's log comes inline in its $expand; a no-op refresh sends no request for it", async () => {
    for (const vendor of ["hpe", "contoso"]) {
      const n = nodeOf(vendor);
      const bmc = await managed(n);
      await bmc.read();
      const before = lab.requests.last();
      await bmc.read();
      expect(requestsOf(n, before).filter((e) => e.path.includes("/LogServices"))).toEqual([]);
      lab.world.faults.add({ kind: "memory-ecc", node: n.spec.name, dimm: 2 });
      clock.advance(1_000);
      expect(logFindings(await bmc.read()), vendor).toMatchObject([{ kind: "log:memory-ecc", health: "Critical" }]);
    }
  });

  it("HGX without $expand: its log refuses $filter (501), so new entries are read by $top/$skip paging", async () => {
    const n = nodeOf("nvidia-dgx", 1);
    (n.spec as { quirks?: Quirk[] }).quirks = [...(n.spec.quirks ?? []), "no-expand-query"];
    const bmc = await managed(n);
    await bmc.read();
    lab.world.faults.add({ kind: "gpu-xid", node: n.spec.name, xid: 79, gpu: 0 });
    clock.advance(1_000);
    const before = lab.requests.last();
    const s = await bmc.read();
    const asked = requestsOf(n, before).filter((e) => e.path.endsWith("/LogServices/EventLog/Entries"));
    expect(asked.every((e) => !e.query?.includes("$filter") && e.status === 200)).toBe(true);
    expect(asked.length).toBeGreaterThan(0);
    expect(logFindings(s)).toMatchObject([{ kind: "log:gpu-xid", health: "Critical" }]);
    expect(logFindings(s)[0].component).toContain("(XID 79)");
  });
});
