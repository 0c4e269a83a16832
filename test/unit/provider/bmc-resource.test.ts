/**
 * rackform_bmc and rackform_inventory through the provider server (in process) against the lab on loopback, with a
 * manual clock: waiting for a booting BMC, conformance on create, drift as a planned re-check, import, data source rows.
 * The real engines run the same scenarios in test/e2e (bmc.test.ts, inventory.test.ts).
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Diagnostic,
  formatPath,
  isObjectValue,
  isUnknown,
  type LogFields,
  type Logger,
  type ObjectValue,
  type Value,
} from "../../../src/framework/index.js";
import { type Lab, ManualClock, startLab } from "../../../src/lab/index.js";
import { type ProviderData, providerSchema } from "../../../src/provider/config/config.js";
import { DEFAULT_TIMINGS, rackformProvider } from "../../../src/provider/index.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf, proposedNew } from "../../support/kitchen-sink/engine-sim.js";
import { planAndApply } from "../../support/provider-rpc.js";

const T = "rackform_bmc";
let lab: Lab;
let clock: ManualClock;
let srv: ProviderServer;
let data: ProviderData | undefined;

const schema = () =>
  rackformProvider()
    .resources()
    .find((r) => r.typeName === T)!.schema;
const node = (name: string) => lab.info.nodes.find((n) => n.name === name)!;
const lines = (ds: readonly Diagnostic[]) =>
  ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}: ${d.detail}`).join("\n");
/** "BMC not answering yet; waiting" lines the provider logged, with their fields. */
const waits: LogFields[] = [];
const recording: Logger = {
  trace: () => {},
  debug: () => {},
  info: (message, fields = {}) => {
    if (message.startsWith("BMC not answering yet")) waits.push(fields);
  },
  warn: () => {},
  error: () => {},
  with: () => recording,
};
const outletOn = (name: string) => lab.world.setOutlet(node(name).pdu, node(name).outlet, "On");

beforeAll(async () => {
  clock = new ManualClock();
  lab = await startLab({ nodes: 6, profile: "demo", clock, stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")) });
  // Fast ready-polls: the test steps the lab's clock, so nothing is gained by waiting between attempts.
  const provider = rackformProvider({ timings: { ...DEFAULT_TIMINGS, readyPollMs: 10 } });
  const configure = provider.configure.bind(provider);
  srv = createServer(
    {
      ...provider,
      async configure(req, resp) {
        await configure(req, resp);
        data = resp.resourceData as ProviderData;
      },
    },
    { logger: recording },
  );
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
  // Close the provider's keep-alive connections first: the lab's listeners wait for open connections to end.
  await data?.core.close();
  await lab?.close();
});

function apply(config: ObjectValue, prior: Value = null) {
  return planAndApply(srv, T, schema(), config, prior);
}

const read = (state: Value) => srv.readResource({ typeName: T, currentState: state, private: new Uint8Array(0) });

const EXPECTED = {
  gpu_model: "H100",
  gpu_count: 8,
  dpu_count: null,
  min_memory_gib: 2048,
  cpu_count: 2,
  nic_count: null,
  macs: null,
  firmware: null,
};

describe("rackform_bmc in process", () => {
  it("GIVEN an outlet just switched on WHEN create THEN it waits for the BMC to boot and records the inventory", async () => {
    outletOn("r01-n01");
    expect(lab.world.bmcState(lab.world.node("r01-n01")!)).toBe("booting");
    const config = configOf(schema(), { endpoint: node("r01-n01").bmc.url, expected: EXPECTED });
    const pending = apply(config);
    // The resource's own wait loop carries on past the client's retries of one request: wait (on the provider's log,
    // not on a timer) for its third attempt before the BMC finishes booting.
    while (!waits.some((w) => Number(w.attempt) >= 3)) await new Promise((r) => setTimeout(r, 10));
    clock.advance(1000);
    const a = await pending;
    expect(lines(a.diagnostics)).toBe("");
    const s = a.newState as ObjectValue;
    const n = lab.world.node("r01-n01")!;
    expect(s.id).toBe(`${node("r01-n01").bmc.url}/redfish/v1/Systems/${n.systemId}`);
    expect(s.gpu_count).toBe(8);
    expect(s.macs).toEqual(n.ports.map((p) => p.mac.toUpperCase()));
    expect((s.gpus as ObjectValue[]).map((g) => g.serial)).toEqual(n.gpus.map((g) => g.serial));
    expect(s.conformant).toBe(true);
    expect(s.memory_gib).toBe(2048);
  });

  it("fails create on a missing GPU with every difference at `expected`, and records nothing", async () => {
    outletOn("r01-n02");
    clock.advance(1000);
    lab.world.faults.add({ kind: "missing-gpu", node: "r01-n02", gpus: 1 });
    lab.world.faults.add({ kind: "firmware-drift", node: "r01-n02", component: "bios", version: "0.0.1" });
    const before = lab.world.node("r01-n02")!.boot.target;
    const config = configOf(schema(), {
      endpoint: node("r01-n02").bmc.url,
      expected: { ...EXPECTED, firmware: { BIOS: "9.9.9" } },
      boot_source_override_target: "Pxe",
    });
    const a = await apply(config);
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors).toHaveLength(1);
    expect(formatPath(errors[0].attribute)).toBe("expected");
    expect(errors[0].detail).toContain("gpu_count: found 7, expected 8");
    expect(errors[0].detail).toContain('firmware["BIOS"]: found 0.0.1, expected 9.9.9');
    expect(a.newState).toBeNull();
    expect(lab.world.node("r01-n02")!.boot.target, "the boot override was set on a rejected node").toBe(before);
    lab.world.faults.clear();
  });

  it("GIVEN firmware drift after create WHEN read THEN a warning lists it and the plan re-checks the node; apply fails until it conforms", async () => {
    outletOn("r01-n03");
    clock.advance(1000);
    const fw = lab.world.firmwareVersion(lab.world.node("r01-n03")!, "bios");
    const config = configOf(schema(), {
      endpoint: node("r01-n03").bmc.url,
      expected: { ...EXPECTED, firmware: { BIOS: fw } },
      boot_source_override_target: "Pxe",
      boot_source_override_enabled: "Once",
    });
    const created = await apply(config);
    expect(lines(created.diagnostics)).toBe("");
    expect(lab.world.node("r01-n03")!.boot.target).toBe("Pxe");
    const state = created.newState as ObjectValue;

    const fault = lab.world.faults.add({
      kind: "firmware-drift",
      node: "r01-n03",
      component: "bios",
      version: "0.0.1",
    });
    const r = await read(state);
    expect(r.diagnostics.map((d) => d.severity)).toEqual(["warning"]);
    expect(r.diagnostics[0].detail).toContain(`firmware["BIOS"]: found 0.0.1, expected ${fw}`);
    const drifted = r.newState as ObjectValue;
    expect(drifted.conformant).toBe(false);

    const again = await apply(config, drifted);
    expect(isObjectValue(again.plan.plannedState) && again.plan.plannedState.conformant).toBe(true);
    expect(isObjectValue(again.plan.plannedState) && isUnknown(again.plan.plannedState.macs)).toBe(false);
    expect(again.plan.requiresReplace).toEqual([]);
    expect(
      again.diagnostics
        .filter((d) => d.severity === "error")
        .map((d) => d.detail)
        .join(),
    ).toContain(`firmware["BIOS"]: found 0.0.1, expected ${fw}`);

    lab.world.faults.remove(fault.id);
    const healed = await read(drifted);
    expect((healed.newState as ObjectValue).conformant).toBe(true);
    const noop = await srv.planResourceChange({
      typeName: T,
      priorState: healed.newState,
      proposedNewState: proposedNew(schema(), config, healed.newState),
      config,
      priorPrivate: new Uint8Array(0),
    });
    expect(noop.plannedState).toEqual(healed.newState);
  });

  it("GIVEN a BMC that stops answering WHEN read THEN the node is marked non-conformant with a warning, not an error", async () => {
    outletOn("r01-n04");
    clock.advance(1000);
    const config = configOf(schema(), {
      endpoint: node("r01-n04").bmc.url,
      timeouts: { create: null, read: "5s", update: null },
    });
    const created = await apply(config);
    expect(lines(created.diagnostics)).toBe("");
    const f = lab.world.faults.add({ kind: "bmc-unreachable", node: "r01-n04" });
    const r = await read(created.newState);
    lab.world.faults.remove(f.id);
    expect(r.diagnostics.map((d) => `${d.severity} ${formatPath(d.attribute)}`)).toEqual(["warning endpoint"]);
    expect((r.newState as ObjectValue).conformant).toBe(false);
  });

  it("imports by endpoint or by system URL, and refuses anything else with the expected form", async () => {
    const n = lab.world.node("r01-n01")!;
    const url = node("r01-n01").bmc.url;
    for (const id of [url, `${url}/redfish/v1/Systems/${n.systemId}`]) {
      const imp = await srv.importResourceState({ typeName: T, id });
      expect(imp.diagnostics).toEqual([]);
      const r = await read(imp.imported[0].state);
      expect(lines(r.diagnostics)).toBe("");
      expect((r.newState as ObjectValue).id).toBe(`${url}/redfish/v1/Systems/${n.systemId}`);
      expect((r.newState as ObjectValue).gpu_count).toBe(8);
    }
    const bad = await srv.importResourceState({ typeName: T, id: "bmc-7" });
    expect(bad.diagnostics[0].detail).toContain("https://10.0.0.5/redfish/v1/Systems/1");
  });

  it("fails validation of a bad MAC and of an override setting without a target, before any request", async () => {
    const before = lab.requests.last();
    const v = await srv.validateResourceConfig({
      typeName: T,
      config: configOf(schema(), {
        endpoint: "https://127.10.1.1",
        expected: { ...EXPECTED, macs: ["0C:42:A1:00:00:01", "nope"] },
        boot_source_override_enabled: "Once",
      }),
    });
    expect(v.diagnostics.map((d) => formatPath(d.attribute)).sort()).toEqual([
      "boot_source_override_enabled",
      "expected.macs[1]",
    ]);
    expect(lab.requests.last()).toBe(before);
  });
});

describe("rackform_inventory in process", () => {
  it("GIVEN a CSV with one unreachable address THEN that row says so and the others are full", async () => {
    outletOn("r01-n05");
    clock.advance(1000);
    const csv = `name,endpoint,rack,u\r\nr01-n05,${node("r01-n05").bmc.url},r01,22\r\nghost,https://127.10.1.250:1,r01,40\r\n`;
    const ds = rackformProvider().dataSources()[0];
    const r = await srv.readDataSource({
      typeName: "rackform_inventory",
      config: configOf(ds.schema, { csv, bmc_timeout: "10s" }),
    });
    expect(lines(r.diagnostics)).toBe("");
    const rows = (r.state as ObjectValue).nodes as ObjectValue[];
    expect(rows.map((x) => [x.name, x.reachable, x.gpu_count, x.rack, x.u])).toEqual([
      ["r01-n05", true, 8, "r01", 22],
      ["ghost", false, null, "r01", 40],
    ]);
    expect(rows[0].error).toBeNull();
    expect(rows[0].gpu_model).toBe("NVIDIA H100 80GB HBM3");
    const n5 = lab.world.node("r01-n05")!;
    expect(rows[0].bios_version).toBe(lab.world.firmwareVersion(n5, "bios"));
    expect(rows[0].bmc_firmware_version).toBe(lab.world.firmwareVersion(n5, "bmc"));
    expect(rows[1].error).toMatch(/RACKFORM_ERR_HTTP_CONNECT/);
    expect(rows[1].bios_version).toBeNull();
  });

  it("fails on duplicate names in bmcs, naming the element", async () => {
    const ds = rackformProvider().dataSources()[0];
    const bmcs = [
      { name: "a", endpoint: "https://127.10.1.1" },
      { name: "a", endpoint: "https://127.10.1.2" },
    ];
    const v = await srv.validateDataResourceConfig({
      typeName: "rackform_inventory",
      config: configOf(ds.schema, { bmcs }),
    });
    expect(v.diagnostics.map((d) => formatPath(d.attribute))).toEqual(["bmcs[1].name"]);
  });
});
