/**
 * rackform_machine's BMC credentials fingerprint against an in-memory backend: recorded at create without the
 * password, a rotated password plans an in-place update that hands the backend the new one, an unchanged password plans
 * nothing, a password not known until apply plans an unknown fingerprint, and an import records the current one.
 * Against the lab's MAAS and Ironic: test/integration/provider/machine-credentials.test.ts.
 */
import { describe, expect, it } from "vitest";
import { nullObject, type ObjectValue, UNKNOWN, type Value } from "../../../src/framework/index.js";
import { providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { machineSchema } from "../../../src/provider/resources/machine-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { FakeBackend } from "../../support/fake-backend.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { withFakeBackend } from "../../support/machine-fake-deps.js";
import { planAndApply, planChange } from "../../support/provider-rpc.js";

const T = "rackform_machine";
const FIRST = "First-Passw0rd-1";
const ROTATED = "Rotated-Passw0rd-2";
const config = configOf(machineSchema, {
  name: "n1",
  backend: "maas",
  bmc_endpoint: "https://127.0.0.1:8443",
  macs: ["02:00:00:00:00:01"],
});

/** A provider process whose redfish password is `password` (UNKNOWN: not known until apply). */
async function provider(fake: FakeBackend, password: Value): Promise<ProviderServer> {
  const srv = createServer(withFakeBackend(rackformProvider(), fake));
  const redfish = { ...nullObject(providerSchema.blocks!.redfish.block), username: "admin", password, insecure: true };
  const r = await srv.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, { redfish }) });
  expect(r.diagnostics).toEqual([]);
  return srv;
}

async function created(fake: FakeBackend): Promise<ObjectValue> {
  const r = await planAndApply(await provider(fake, FIRST), T, machineSchema, config);
  expect(r.diagnostics).toEqual([]);
  return r.newState as ObjectValue;
}

describe("rackform_machine's BMC credentials", () => {
  it("records a salted fingerprint at create, never the password", async () => {
    const fake = new FakeBackend();
    const state = await created(fake);
    expect(state.bmc_credentials_fingerprint).toMatch(
      /^scrypt2\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/,
    );
    expect(JSON.stringify(state)).not.toContain(FIRST);
    // Another machine with the same password gets an unrelated fingerprint (its own salt).
    const other = await planAndApply(await provider(fake, FIRST), T, machineSchema, {
      ...config,
      name: "n2",
      bmc_endpoint: "https://127.0.0.2:8443",
      macs: ["02:00:00:00:00:02"],
    });
    expect((other.newState as ObjectValue).bmc_credentials_fingerprint).not.toBe(state.bmc_credentials_fingerprint);
  });

  it("plans nothing while the password is unchanged (a new process recomputes the same fingerprint)", async () => {
    const fake = new FakeBackend();
    const state = await created(fake);
    const again = await planChange(await provider(fake, FIRST), T, machineSchema, config, state);
    expect(again.plannedState).toEqual(state);
  });

  it("GIVEN a rotated password WHEN planned THEN only the fingerprint changes, in place, and apply hands the backend the new password", async () => {
    const fake = new FakeBackend();
    const state = await created(fake);
    const srv = await provider(fake, ROTATED);
    const r = await planAndApply(srv, T, machineSchema, config, state);
    expect(r.plan.requiresReplace).toEqual([]);
    const planned = r.plan.plannedState as ObjectValue;
    expect(planned.bmc_credentials_fingerprint).not.toBe(state.bmc_credentials_fingerprint);
    expect({ ...planned, bmc_credentials_fingerprint: null }).toEqual({ ...state, bmc_credentials_fingerprint: null });
    expect(r.diagnostics).toEqual([]);
    const [m] = fake.machines.values();
    expect(fake.calls).toContain(`setPowerCredentials ${m.id}`);
    expect(m.bmcPassword).toBe(ROTATED);
    expect(r.newState).toEqual(planned);
    expect(JSON.stringify(r.newState)).not.toContain(ROTATED);
    const after = await planChange(srv, T, machineSchema, config, r.newState);
    expect(after.plannedState).toEqual(r.newState);
  });

  it("plans an unknown fingerprint (in place) while the password is not known until apply", async () => {
    const fake = new FakeBackend();
    const state = await created(fake);
    const plan = await planChange(await provider(fake, UNKNOWN), T, machineSchema, config, state);
    expect(plan.diagnostics).toEqual([]);
    expect(plan.requiresReplace).toEqual([]);
    expect((plan.plannedState as ObjectValue).bmc_credentials_fingerprint).toBe(UNKNOWN);
  });

  it("records the current credentials on the first refresh after an import, then plans nothing", async () => {
    const fake = new FakeBackend();
    const state = await created(fake);
    const srv = await provider(fake, FIRST);
    const imported = { ...state, bmc_credentials_fingerprint: null };
    const read = await srv.readResource({ typeName: T, currentState: imported, private: new Uint8Array(0) });
    const refreshed = read.newState as ObjectValue;
    expect(refreshed.bmc_credentials_fingerprint).toMatch(/^scrypt2\$/);
    expect((await planChange(srv, T, machineSchema, config, refreshed)).plannedState).toEqual(refreshed);
  });

  it("gives a machine it adopts (left by a killed run) the current credentials before recording their fingerprint", async () => {
    const fake = new FakeBackend();
    const left = fake.seed({ name: "n1", macs: ["02:00:00:00:00:01"], bmcAddress: "https://127.0.0.1:8443" });
    const state = await created(fake);
    expect(state.machine_id).toBe(left.id);
    expect(left.bmcPassword).toBe(FIRST);
  });
});
