/**
 * Power is state (issue 11): rackform_deployment against an in-memory backend. A deployed host found off, or whose
 * BMC did not answer, reads back as a known "off"/"unknown" (never an unknown value) and plans an in-place power-on
 * of that deployment only — no replacement — which apply carries out through the backend.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { nullObject, type ObjectValue, type Value } from "../../../src/framework/index.js";
import { type ProviderData, providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { deploymentResource } from "../../../src/provider/resources/deployment.js";
import { deploymentDeps } from "../../../src/provider/resources/deployment-deps.js";
import { deploymentSchema } from "../../../src/provider/resources/deployment-schema.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { FakeBackend, type FakeMachine } from "../../support/fake-backend.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { planAndApply, planChange } from "../../support/provider-rpc.js";

const T = "rackform_deployment";
const SHA = "a".repeat(64);
let srv: ProviderServer;
let fake: FakeBackend;
let machine: FakeMachine;
let data: ProviderData;

beforeEach(async () => {
  fake = new FakeBackend("maas");
  machine = fake.seed({ name: "n1", state: "ready", status: "Ready" });
  const provider = rackformProvider();
  const configure = provider.configure.bind(provider);
  // The configured provider's deps, with the in-memory backend in place of MAAS.
  const deployment = deploymentResource((pd) => ({ ...deploymentDeps(pd), backend: () => fake }));
  srv = createServer({
    ...provider,
    resources: () => provider.resources().map((r) => (r.typeName === T ? deployment : r)),
    async configure(req, resp) {
      await configure(req, resp);
      data = resp.resourceData as ProviderData;
    },
  });
  const redfish = { ...nullObject(providerSchema.blocks!.redfish.block), username: "u", password: "p", insecure: true };
  const r = await srv.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, { redfish }) });
  expect(r.diagnostics).toEqual([]);
});

const config = () =>
  configOf(deploymentSchema, {
    machine_id: `maas:${machine.id}`,
    image: { name: "ubuntu-gpu", version: "2026.06.2", url: null, check_url: null, sha256: SHA, signature: null },
  });
const read = async (state: Value) => srv.readResource({ typeName: T, currentState: state, private: new Uint8Array(0) });

async function deployed(): Promise<ObjectValue> {
  const r = await planAndApply(srv, T, deploymentSchema, config());
  expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  return r.newState as ObjectValue;
}

describe("rackform_deployment: power is state", () => {
  it("records a fresh deployment as powered on, and a no-op plan powers nothing", async () => {
    const s = await deployed();
    expect(s.power_state).toBe("on");
    const r = await read(s);
    expect((r.newState as ObjectValue).power_state).toBe("on");
    const p = await planChange(srv, T, deploymentSchema, config(), r.newState);
    expect(p.plannedState).toEqual(r.newState);
    expect(fake.calls.filter((c) => c.startsWith("powerOn"))).toEqual([]);
  });

  it("a create that finds its own deployment (its apply was killed) with the host off powers it on and records it on", async () => {
    // The killed apply's deploy finished in the backend; the host lost power before the state was written.
    Object.assign(machine, {
      state: "deployed",
      status: "Deployed",
      image: "custom/ubuntu-gpu-2026.06.2",
      power: "off",
    });
    const s = await deployed();
    expect(s.power_state).toBe("on");
    expect(machine.power).toBe("on");
    expect(fake.calls.filter((c) => /^(deploy|powerState|powerOn) /.test(c))).toEqual([
      `deploy ${machine.id}`,
      `powerState ${machine.id}`,
      `powerOn ${machine.id}`,
    ]);
  });

  it("a fresh deploy asks nothing more of the host's power", async () => {
    await deployed();
    expect(fake.calls.filter((c) => /^power/.test(c))).toEqual([]);
  });

  it("a host switched off by hand plans an in-place power-on (no replacement) that apply carries out", async () => {
    const s = await deployed();
    machine.power = "off";
    const r = await read(s);
    const off = r.newState as ObjectValue;
    expect(off).toMatchObject({ power_state: "off", id: s.id, deployed_image: s.deployed_image });
    const p = await planChange(srv, T, deploymentSchema, config(), off);
    expect((p.plannedState as ObjectValue).power_state).toBe("on");
    expect(p.requiresReplace).toEqual([]);
    const a = await srv.applyResourceChange({
      typeName: T,
      priorState: off,
      plannedState: p.plannedState,
      config: config(),
      plannedPrivate: p.plannedPrivate,
    });
    expect(a.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(fake.calls).toContain(`powerOn ${machine.id}`);
    expect(machine.power).toBe("on");
    expect((a.newState as ObjectValue).power_state).toBe("on");
  });

  it("a BMC that does not answer reads as a known 'unknown' with a warning, and plans a power-on re-check only", async () => {
    const s = await deployed();
    machine.power = "unknown";
    const r = await read(s);
    const st = r.newState as ObjectValue;
    expect(st.power_state).toBe("unknown");
    expect(r.diagnostics.map((d) => `${d.severity} ${d.summary}`)).toEqual(["warning Host power unknown: n1"]);
    // Every other attribute keeps its known value.
    expect({ ...st, power_state: "on" }).toEqual(s);
    const p = await planChange(srv, T, deploymentSchema, config(), st);
    expect(p.requiresReplace).toEqual([]);
    expect(p.plannedState).toEqual({ ...st, power_state: "on", status: expect.anything() });
  });

  describe("a host this plan just read through its BMC (host-sightings.ts)", () => {
    const BMC = "https://10.0.0.11";
    const queries = () => fake.calls.filter((c) => c.startsWith("powerState"));

    it("seen on: the backend is not asked again", async () => {
      const s = await deployed();
      data.sightings.link(`maas:${machine.id}`, BMC);
      data.sightings.saw(`${BMC}:443`, "/redfish/v1/Systems/1", "On");
      fake.calls.length = 0;
      const r = await read(s);
      expect((r.newState as ObjectValue).power_state).toBe("on");
      expect(queries()).toEqual([]);
    });

    it("seen off, gone unanswered, or on another machine's BMC: the backend is asked, and a host off plans a power-on", async () => {
      const s = await deployed();
      machine.power = "off";
      data.sightings.link(`maas:${machine.id}`, BMC);
      data.sightings.saw(BMC, "/redfish/v1/Systems/1", "Off");
      fake.calls.length = 0;
      expect((await read(s)).newState).toMatchObject({ power_state: "off" });
      expect(queries()).toEqual([`powerState ${machine.id}`]);

      data.sightings.saw(BMC, "/redfish/v1/Systems/1", "On");
      data.sightings.lost(BMC);
      expect((await read(s)).newState).toMatchObject({ power_state: "off" });
      data.sightings.saw("https://10.0.0.12", "/redfish/v1/Systems/1", "On");
      expect((await read(s)).newState).toMatchObject({ power_state: "off" });
      expect(queries()).toHaveLength(3);
    });
  });
});
