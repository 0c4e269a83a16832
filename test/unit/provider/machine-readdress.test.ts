/**
 * rackform_machine when its BMC is re-addressed (issue 35), against an in-memory backend: a new bmc_endpoint is an
 * in-place update that hands the backend the new address (with the credentials) in the same apply; another spelling
 * of the same address plans nothing; plain http is refused at plan unless the provider opts in.
 */
import { describe, expect, it } from "vitest";
import { formatPath, nullObject, type ObjectValue } from "../../../src/framework/index.js";
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
const config = (bmc_endpoint: string) =>
  configOf(machineSchema, { name: "n1", backend: "maas", bmc_endpoint, macs: ["02:00:00:00:00:01"] });

async function provider(fake: FakeBackend, allowHttp: boolean | null = null): Promise<ProviderServer> {
  const srv = createServer(withFakeBackend(rackformProvider(), fake));
  const redfish = {
    ...nullObject(providerSchema.blocks!.redfish.block),
    username: "admin",
    password: "Passw0rd-1",
    insecure: true,
    allow_http: allowHttp,
  };
  const r = await srv.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, { redfish }) });
  expect(r.diagnostics).toEqual([]);
  return srv;
}

describe("rackform_machine with a re-addressed BMC", () => {
  it("GIVEN a new BMC address THEN an in-place update hands it to the backend; the machine keeps its id", async () => {
    const fake = new FakeBackend();
    const srv = await provider(fake);
    const made = await planAndApply(srv, T, machineSchema, config("https://10.0.1.7"));
    const state = made.newState as ObjectValue;
    const r = await planAndApply(srv, T, machineSchema, config("https://10.2.1.7"), state);
    expect(r.plan.requiresReplace).toEqual([]);
    expect(r.diagnostics).toEqual([]);
    const [m] = fake.machines.values();
    expect(fake.calls).toContain(`setPowerCredentials ${m.id}`);
    expect(m.bmcAddress).toBe("https://10.2.1.7");
    const after = r.newState as ObjectValue;
    expect([after.id, after.bmc_endpoint]).toEqual([state.id, "https://10.2.1.7"]);
    expect(after.bmc_credentials_fingerprint).toBe(state.bmc_credentials_fingerprint);
  });

  it("GIVEN the same address spelled otherwise THEN nothing is planned and the backend is not called", async () => {
    const fake = new FakeBackend();
    const srv = await provider(fake);
    const state = (await planAndApply(srv, T, machineSchema, config("https://10.0.1.7"))).newState as ObjectValue;
    const calls = fake.calls.length;
    for (const spelling of ["https://10.0.1.7/", "https://10.0.1.7:443", "HTTPS://10.0.1.7/redfish/v1"]) {
      expect((await planChange(srv, T, machineSchema, config(spelling), state)).plannedState, spelling).toEqual(state);
    }
    expect(fake.calls.slice(calls).filter((c) => c.startsWith("setPowerCredentials"))).toEqual([]);
  });

  it("fails plan on an http:// BMC without redfish.allow_http, and warns with it", async () => {
    const refused = await planChange(await provider(new FakeBackend()), T, machineSchema, config("http://10.0.1.7"));
    expect(refused.diagnostics.map((d) => `${d.severity} ${formatPath(d.attribute)}`)).toEqual(["error bmc_endpoint"]);
    const allowed = await planChange(
      await provider(new FakeBackend(), true),
      T,
      machineSchema,
      config("http://10.0.1.7"),
    );
    expect(allowed.diagnostics.map((d) => `${d.severity} ${d.summary}`)).toEqual([
      "warning Plain HTTP Redfish endpoint: http://10.0.1.7",
    ]);
  });
});
