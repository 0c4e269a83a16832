/**
 * Drift is never destruction (rackform_bmc): a re-check, whether a read found drift, a read failed, or the baseline was
 * edited, plans the inventory with known values (those read, or the last known), so nothing built on `macs` is
 * replaced; only power_state is left to the apply. An inventory that moves between plan and apply fails the apply
 * and keeps the state. In process, through the provider server, against the lab on loopback (instant profile).
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isObjectValue, isUnknown, type ObjectValue, type Value } from "../../../src/framework/index.js";
import { type Lab, ManualClock, startLab } from "../../../src/lab/index.js";
import { type ProviderData, providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { planAndApply, planChange } from "../../support/provider-rpc.js";

const T = "rackform_bmc";
const INVENTORY = ["macs", "gpus", "gpu_count", "memory_gib", "cpu_count", "firmware"] as const;
let lab: Lab;
let srv: ProviderServer;
let data: ProviderData | undefined;

const schema = () =>
  rackformProvider()
    .resources()
    .find((r) => r.typeName === T)!.schema;
const node = (name: string) => lab.info.nodes.find((n) => n.name === name)!;

beforeAll(async () => {
  // The state dir (CA key included) lives in the file's own TMPDIR, removed when the file ends.
  lab = await startLab({
    nodes: 3,
    profile: "instant",
    clock: new ManualClock(),
    stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")),
  });
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
});

const plan = (config: ObjectValue, prior: Value) => planChange(srv, T, schema(), config, prior);

async function apply(config: ObjectValue, prior: Value = null) {
  const r = await planAndApply(srv, T, schema(), config, prior);
  expect(r.plan.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r;
}

const read = (state: Value) => srv.readResource({ typeName: T, currentState: state, private: new Uint8Array(0) });
const cfg = (name: string, expected: Record<string, Value> | null = null) =>
  configOf(schema(), {
    endpoint: node(name).bmc.url,
    expected: expected && {
      gpu_model: null,
      dpu_count: null,
      min_memory_gib: null,
      cpu_count: null,
      nic_count: null,
      macs: null,
      firmware: null,
      ...expected,
    },
    timeouts: { create: null, read: "5s", update: "30s" },
  });

function expectKnownInventory(planned: Value, state: ObjectValue): void {
  expect(isObjectValue(planned)).toBe(true);
  const p = planned as ObjectValue;
  for (const k of INVENTORY) {
    expect(isUnknown(p[k]), `${k} is unknown in the plan`).toBe(false);
    expect(p[k], k).toEqual(state[k]);
  }
}

describe("rackform_bmc re-checks keep the inventory known", () => {
  it("GIVEN a BMC that cannot be read THEN the plan re-checks it with the last known inventory, replacing nothing; apply brings it back", async () => {
    const created = await apply(cfg("r01-n01", { gpu_count: 8 }));
    const state = created.newState as ObjectValue;
    const f = lab.world.faults.add({ kind: "bmc-unreachable", node: "r01-n01" });
    const r = await read(state);
    const stale = r.newState as ObjectValue;
    expect(stale.conformant).toBe(false);
    for (const k of INVENTORY) expect(stale[k], `${k} kept from the last read`).toEqual(state[k]);

    const p = await plan(cfg("r01-n01", { gpu_count: 8 }), stale);
    expectKnownInventory(p.plannedState, state);
    expect((p.plannedState as ObjectValue).conformant).toBe(true);
    expect(isUnknown((p.plannedState as ObjectValue).power_state)).toBe(true);
    expect(p.requiresReplace).toEqual([]);

    lab.world.faults.remove(f.id);
    const a = await srv.applyResourceChange({
      typeName: T,
      priorState: stale,
      plannedState: p.plannedState,
      config: cfg("r01-n01", { gpu_count: 8 }),
      plannedPrivate: p.plannedPrivate,
    });
    expect(a.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect((a.newState as ObjectValue).conformant).toBe(true);
    expect((a.newState as ObjectValue).macs).toEqual(state.macs);
  });

  it("GIVEN an edited baseline (the flavor's GPU count) THEN the plan is an in-place re-check with the inventory known", async () => {
    const created = await apply(cfg("r01-n02", { gpu_count: 8 }));
    const state = created.newState as ObjectValue;
    const p = await plan(cfg("r01-n02", { gpu_count: 4 }), state);
    expectKnownInventory(p.plannedState, state);
    expect(p.requiresReplace).toEqual([]);
    const a = await srv.applyResourceChange({
      typeName: T,
      priorState: state,
      plannedState: p.plannedState,
      config: cfg("r01-n02", { gpu_count: 4 }),
      plannedPrivate: p.plannedPrivate,
    });
    // The node has 8 GPUs: the re-check fails on this node only, naming the difference; nothing else moves.
    expect(a.diagnostics.map((d) => d.detail).join()).toContain("gpu_count: found 8, expected 4");
  });

  it("GIVEN the inventory changes between plan and apply THEN the apply fails, keeps the state and asks for a new plan", async () => {
    const created = await apply(cfg("r01-n03", { gpu_count: 8 }));
    const state = created.newState as ObjectValue;
    const drift = lab.world.faults.add({ kind: "bmc-unreachable", node: "r01-n03" });
    const stale = (await read(state)).newState as ObjectValue;
    const p = await plan(cfg("r01-n03", { gpu_count: 8 }), stale);
    lab.world.faults.remove(drift.id);
    const gone = lab.world.faults.add({ kind: "missing-gpu", node: "r01-n03" });
    const a = await srv.applyResourceChange({
      typeName: T,
      priorState: stale,
      plannedState: p.plannedState,
      config: cfg("r01-n03", { gpu_count: 8 }),
      plannedPrivate: p.plannedPrivate,
    });
    lab.world.faults.remove(gone.id);
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => d.summary)).toEqual(["The node's inventory changed between plan and apply"]);
    expect(errors[0].detail).toMatch(/gpu_count was 8, now 7.*run the plan again/s);
  });

  it("GIVEN a GPU lost on a running node THEN read names it, the plan keeps gpu_count known (7) and the re-check records conformant = false as a warning, not an error", async () => {
    const created = await apply(cfg("r01-n01", { gpu_count: 8 }));
    const state = created.newState as ObjectValue;
    const lost = (state.gpus as ObjectValue[]).at(-1)!;
    const f = lab.world.faults.add({ kind: "missing-gpu", node: "r01-n01" });
    try {
      const r = await read(state);
      expect(r.diagnostics.map((d) => d.severity)).toEqual(["warning"]);
      expect(r.diagnostics[0].detail).toContain("gpu_count: found 7, expected 8");
      expect(r.diagnostics[0].detail).toContain(`No longer reported since the last read: GPU serial ${lost.serial}`);
      const drifted = r.newState as ObjectValue;
      expect([drifted.conformant, drifted.gpu_count]).toEqual([false, 7]);
      // The read's private data says the node answered: the re-check's result is left to the apply.
      const p = await planChange(srv, T, schema(), cfg("r01-n01", { gpu_count: 8 }), drifted, r.private);
      const planned = p.plannedState as ObjectValue;
      expect(planned.gpu_count).toBe(7);
      expect(isUnknown(planned.conformant)).toBe(true);
      expect(isUnknown(planned.macs)).toBe(false);
      expect(p.requiresReplace).toEqual([]);
      const a = await srv.applyResourceChange({
        typeName: T,
        priorState: drifted,
        plannedState: p.plannedState,
        config: cfg("r01-n01", { gpu_count: 8 }),
        plannedPrivate: p.plannedPrivate,
      });
      expect(a.diagnostics.map((d) => `${d.severity}: ${d.summary}`)).toEqual([
        `warning: Node still does not conform to its expected baseline: ${new URL(node("r01-n01").bmc.url).origin}`,
      ]);
      expect((a.newState as ObjectValue).conformant).toBe(false);
      expect((a.newState as ObjectValue).gpu_count).toBe(7);
    } finally {
      lab.world.faults.remove(f.id);
    }
    // The GPU back: read finds the node conforming, and the plan holds nothing for it.
    const healed = await read(state);
    expect(healed.diagnostics).toEqual([]);
    const p = await planChange(srv, T, schema(), cfg("r01-n01", { gpu_count: 8 }), healed.newState, healed.private);
    expect(p.plannedState).toEqual(healed.newState);
  });
});
