/**
 * rackform_machine's own logic against an in-memory backend (test/support/fake-backend.ts), in milliseconds: enroll
 * and commission, adopting what a killed run left behind instead of enrolling twice, refusing ambiguous matches
 * without changing anything, and keeping a machine whose commissioning failed as a tainted, known state.
 * The same behaviours against the lab's MAAS and Ironic: test/integration/provider/machine-*.test.ts.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { type Diagnostic, nullObject, type ObjectValue, type Value } from "../../../src/framework/index.js";
import { providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { machineSchema } from "../../../src/provider/resources/machine-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { FakeBackend } from "../../support/fake-backend.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { withFakeBackend } from "../../support/machine-fake-deps.js";
import { planAndApply } from "../../support/provider-rpc.js";

const T = "rackform_machine";
const BMC = "https://127.0.0.1:8443";
const MAC = "02:00:00:00:00:01";
let srv: ProviderServer;
let fake: FakeBackend;

beforeEach(async () => {
  fake = new FakeBackend("maas");
  srv = createServer(withFakeBackend(rackformProvider(), fake));
  const redfish = {
    ...nullObject(providerSchema.blocks!.redfish.block),
    username: "admin",
    password: "pw",
    insecure: true,
  };
  const r = await srv.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, { redfish }) });
  expect(r.diagnostics).toEqual([]);
});

const config = (name = "n1", macs = [MAC]) =>
  configOf(machineSchema, { name, backend: "maas", bmc_endpoint: BMC, macs });

async function create(c: ObjectValue): Promise<{ state: Value; diagnostics: readonly Diagnostic[] }> {
  const r = await planAndApply(srv, T, machineSchema, c);
  expect(r.plan.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return { state: r.newState, diagnostics: r.diagnostics };
}
const errors = (ds: readonly Diagnostic[]) => ds.filter((d) => d.severity === "error").map((d) => d.summary);

describe("rackform_machine against an in-memory backend", () => {
  it("enrolls and commissions a new node", async () => {
    const r = await create(config());
    expect(errors(r.diagnostics)).toEqual([]);
    const [m] = fake.machines.values();
    expect((r.state as ObjectValue).machine_id).toBe(m.id);
    expect(fake.calls).toEqual(["find n1", "enroll n1", `commission ${m.id}`]);
  });

  it("adopts the machine a killed run enrolled (same name and MAC) instead of enrolling a second one", async () => {
    const left = fake.seed({ name: "n1", macs: [MAC], bmcAddress: BMC });
    const r = await create(config());
    expect(errors(r.diagnostics)).toEqual([]);
    expect((r.state as ObjectValue).machine_id).toBe(left.id);
    expect(fake.machines.size).toBe(1);
    expect(fake.calls.filter((c) => c.startsWith("enroll"))).toEqual([]);
  });

  it("refuses two different machines matching one node, and changes nothing", async () => {
    fake.seed({ name: "n1", macs: ["02:00:00:00:00:99"] });
    fake.seed({ name: "other", macs: [MAC] });
    const r = await create(config());
    expect(errors(r.diagnostics).join()).toMatch(/match|duplicate|several|ambiguous/i);
    expect(r.state).toBeNull();
    expect(fake.machines.size).toBe(2);
    expect(fake.calls.filter((c) => !c.startsWith("find"))).toEqual([]);
  });

  it("refuses a node enrolled under another name (its MAC), naming macs, and changes nothing", async () => {
    fake.seed({ name: "old-name", macs: [MAC] });
    const r = await create(config());
    expect(errors(r.diagnostics)).toEqual(["Node already enrolled under another name"]);
    expect(r.diagnostics.find((d) => d.severity === "error")?.attribute).toEqual([{ attr: "macs" }]);
    expect(fake.machines.size).toBe(1);
  });

  it("refuses a name held by other hardware (none of the MACs)", async () => {
    fake.seed({ name: "n1", macs: ["02:00:00:00:00:77"] });
    const r = await create(config());
    expect(errors(r.diagnostics)).toEqual(["Name already used by other hardware"]);
    expect(fake.calls.filter((c) => c.startsWith("enroll") || c.startsWith("commission"))).toEqual([]);
  });

  it("keeps a machine whose commissioning failed, returning its known state with the backend's words (tainted)", async () => {
    fake.failCommission.set("n1", "lshw failed: bad DIMM");
    const r = await create(config());
    expect(errors(r.diagnostics)).toEqual(["Commissioning failed"]);
    expect(r.diagnostics.map((d) => d.detail).join()).toContain("lshw failed: bad DIMM");
    const s = r.state as ObjectValue;
    expect(s.machine_id).toBe([...fake.machines.keys()][0]);
    expect(fake.machines.size).toBe(1);
  });
});
