/**
 * Contract: rackform_bmc through the provider server (in process, as the engine drives it) against sushy-tools'
 * Redfish emulator: create (discovery, conformance, boot override), refresh, update of the override, a node that does
 * not conform, destroy. The provider is configured as a user would: redfish username, password and ca_file, session
 * auth by default (the emulator has no SessionService: basic auth, see client.test.ts).
 * Where the emulator is a plain BMC, rackform_bmc must record what such a BMC gives:
 *  - no GPUs: gpu_count 0 and an empty gpus list, conformant to `expected.gpu_count = 0`;
 *  - no `$expand`: no refresh fingerprint, so every refresh reads the node in full (and finds it unchanged);
 *  - no health data beyond Status.Health "OK" (no LogServices): an empty `health`, no warning;
 *  - no processor or memory figures (fake driver): cpu_count 0, memory_gib null;
 *  - links it cannot serve (Memory, FirmwareInventory): one "BMC inventory incomplete" warning at create naming them.
 * Fails, never skips, when the emulator was not started.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type Diagnostic,
  decodePrivate,
  formatPath,
  type ObjectValue,
  type Value,
} from "../../../src/framework/index.js";
import { providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { PRIVATE_FINGERPRINT } from "../../../src/provider/resources/bmc-discovery.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { keepingData, resourceDriver } from "../../support/provider-rpc.js";
import type { SushyEmulatorInfo } from "../../support/real-sushy.js";
import { emulator, emulatorClient, SUSHY_SYSTEMS } from "./emulator.js";

const T = "rackform_bmc";
const SYS = SUSHY_SYSTEMS.bmc;
const schema = rackformProvider()
  .resources()
  .find((r) => r.typeName === T)!.schema;
const bmc = resourceDriver(T, schema);
let info: SushyEmulatorInfo;
let server: ReturnType<typeof keepingData>;

const lines = (ds: readonly Diagnostic[]) =>
  ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}: ${d.detail}`).join("\n");
/** The baseline of a node without GPUs with the emulator's two NICs; every attribute set, as the engine sends it. */
const EXPECTED = {
  gpu_model: null,
  gpu_count: 0,
  dpu_count: null,
  min_memory_gib: null,
  cpu_count: null,
  nic_count: 2,
  macs: [...SYS.macs],
  firmware: null,
};
const config = (set: Record<string, Value>) =>
  configOf(schema, {
    endpoint: info.url,
    system_id: SYS.uuid,
    ...set,
    expected: { ...EXPECTED, ...((set.expected as object) ?? {}) },
  });
/** The system's boot override as the emulator reports it, read by a client of its own. */
async function bootTarget(): Promise<string | undefined> {
  const { client } = emulatorClient(info);
  try {
    return (await client.getSystem(SYS.uuid)).boot.target;
  } finally {
    await client.close();
  }
}

beforeAll(async () => {
  info = await emulator();
  server = keepingData(rackformProvider());
  const redfish = { username: info.username, password: info.password, ca_file: info.caFile };
  const r = await server.srv.configureProvider({
    terraformVersion: "1.11.4",
    config: configOf(providerSchema, { redfish: configOf(providerSchema.blocks!.redfish.block, redfish) }),
  });
  expect(lines(r.diagnostics)).toBe("");
}, 120_000);
afterAll(async () => {
  await server?.data()?.core.close();
});

describe("rackform_bmc against sushy-tools' emulator", () => {
  let state: ObjectValue;

  it("GIVEN a node without GPUs WHEN created with a PXE override THEN it records the plain BMC's inventory and sets the override", async () => {
    const a = await bmc.apply(
      server.srv,
      config({ boot_source_override_target: "Pxe", boot_source_override_enabled: "Once" }),
    );
    expect(a.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    // The one warning: the links the emulator names but serves no route for, each by its URL.
    expect(a.diagnostics.map((d) => `${d.severity} ${d.summary}`)).toEqual([
      `warning BMC inventory incomplete: ${info.url}`,
    ]);
    expect(a.diagnostics[0].detail).toContain(`/Systems/${SYS.uuid}/Memory: HTTP 404`);
    expect(a.diagnostics[0].detail).toContain("/UpdateService/FirmwareInventory: HTTP 404");
    state = a.newState as ObjectValue;
    expect(state).toMatchObject({
      id: `${info.url}/redfish/v1/Systems/${SYS.uuid}`,
      system_uuid: SYS.uuid,
      manufacturer: "Sushy Emulator",
      power_state: "On",
      macs: SYS.macs.map((m) => m.toUpperCase()),
      gpu_count: 0,
      gpus: [],
      cpu_count: 0,
      memory_gib: null,
      bmc_firmware_version: "1.00",
      health: [],
      conformant: true,
    });
    expect(await bootTarget()).toBe("Pxe");
  });

  it("refreshes without $expand by reading the node in full and finds nothing changed: no diagnostics, the same state", async () => {
    const r = await bmc.read(server.srv, state);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toEqual(state);
    // Nothing cheap to compare next time either: the private state holds no fingerprint.
    expect(decodePrivate(r.private)[PRIVATE_FINGERPRINT]).toBeUndefined();
  });

  it("updates the override to Hdd continuous in place", async () => {
    const u = await bmc.apply(
      server.srv,
      config({ boot_source_override_target: "Hdd", boot_source_override_enabled: "Continuous" }),
      state,
    );
    expect(u.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(u.plan.requiresReplace).toEqual([]);
    expect(await bootTarget()).toBe("Hdd");
    state = u.newState as ObjectValue;
  });

  it("fails create of a node expected to hold 8 H100s, naming the difference at `expected`, records nothing and sets no override", async () => {
    const a = await bmc.apply(
      server.srv,
      config({ expected: { gpu_count: 8, gpu_model: "H100" }, boot_source_override_target: "Pxe" }),
    );
    const errors = a.diagnostics.filter((d) => d.severity === "error");
    expect(errors.map((d) => formatPath(d.attribute))).toEqual(["expected"]);
    expect(errors[0].detail).toContain("gpu_count: found 0, expected 8");
    expect(a.newState).toBeNull();
    expect(await bootTarget()).toBe("Hdd");
  });

  it("imports by the system's URL and reads the node in full; by the endpoint alone it names the emulator's systems", async () => {
    const url = `${info.url}/redfish/v1/Systems/${SYS.uuid}`;
    const imp = await server.srv.importResourceState({ typeName: T, id: url });
    expect(lines(imp.diagnostics)).toBe("");
    const r = await bmc.read(server.srv, imp.imported[0].state);
    expect(lines(r.diagnostics)).toBe("");
    expect(r.newState).toMatchObject({ id: url, system_id: SYS.uuid, gpu_count: 0, macs: state.macs });
    // The emulator serves several systems: an import by its address cannot guess which one, and says so.
    const byAddress = await server.srv.importResourceState({ typeName: T, id: info.url });
    const read = await bmc.read(server.srv, byAddress.imported[0].state);
    expect(
      read.diagnostics
        .filter((d) => d.severity === "error")
        .map((d) => d.detail)
        .join(),
    ).toContain(SYS.uuid);
  });

  it("destroy forgets the BMC and changes nothing on it", async () => {
    const d = await bmc.destroy(server.srv, state);
    expect(lines(d.diagnostics)).toBe("");
    expect(d.newState).toBeNull();
    expect(await bootTarget()).toBe("Hdd");
  });
});
