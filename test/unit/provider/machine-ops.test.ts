/**
 * rackform_machine's handlers called directly with fake deps (the in-memory backend of test/support/fake-backend.ts,
 * the provider's credentials, a recording budget and sightings): create, read, update, delete, plan and import, in
 * milliseconds. Through the provider server: machine-fake-backend, machine-credentials and machine-readdress tests.
 */
import { describe, expect, it } from "vitest";
import { RackformClientError } from "../../../src/clients/errors.js";
import { UNKNOWN } from "../../../src/framework/index.js";
import { BackendNotConfiguredError } from "../../../src/provider/backends/index.js";
import type { DeployImages } from "../../../src/provider/config/config.js";
import { createMachine } from "../../../src/provider/resources/machine-create.js";
import type { MachineDeps } from "../../../src/provider/resources/machine-deps.js";
import {
  deleteMachine,
  importMachine,
  planMachine,
  readMachine,
  updateMachine,
  validateMachine,
} from "../../../src/provider/resources/machine-ops.js";
import type { MachineConfig, MachinePlan, MachineState } from "../../../src/provider/resources/machine-schema.js";
import { CredentialFingerprints } from "../../../src/provider/shared/credential-fingerprint.js";
import { FakeBackend } from "../../support/fake-backend.js";
import { diagnosticLines, typedRequest } from "../../support/typed-request.js";

const BMC = "https://10.0.1.7";
const MAC = "02:00:00:00:00:01";
/** One key for the whole file: scrypt runs once per key salt. */
const FINGERPRINTS = new CredentialFingerprints("admin", "Passw0rd-1");

interface Fakes {
  fake: FakeBackend;
  deps: MachineDeps;
  released: string[];
  links: string[];
}

function fakes(o: Partial<MachineDeps> & { fake?: FakeBackend } = {}): Fakes {
  const fake = o.fake ?? new FakeBackend("maas");
  const released: string[] = [];
  const links: string[] = [];
  const deps: MachineDeps = {
    allowHttp: false,
    redfish: { username: "admin", password: "Passw0rd-1", insecure: true },
    backend: () => fake,
    fingerprints: () => FINGERPRINTS,
    deployImages: undefined,
    sightings: { link: (id, endpoint) => void links.push(`${id} ${endpoint}`) },
    budget: {
      release: (names, why) => {
        released.push(`${names.join(",")}: ${why}`);
        return undefined;
      },
    },
    enrollRecheckMs: 0,
    ...o,
  };
  return { fake, deps, released, links };
}

const req = () => typedRequest();
const lines = diagnosticLines;

const plan = (o: Partial<MachinePlan> = {}): MachinePlan => ({
  id: UNKNOWN,
  name: "n1",
  backend: "maas",
  bmc_endpoint: BMC,
  macs: [MAC],
  architecture: "amd64/generic",
  resource_class: null,
  machine_id: UNKNOWN,
  bmc_credentials_fingerprint: UNKNOWN,
  deploy_kernel: UNKNOWN,
  deploy_ramdisk: UNKNOWN,
  status: UNKNOWN,
  state: UNKNOWN,
  timeouts: null,
  ...o,
});

/** A machine created through the handler, and its fakes. */
async function created(o: Parameters<typeof fakes>[0] = {}, p: Partial<MachinePlan> = {}) {
  const f = fakes(o);
  const r = req();
  const state = await createMachine({ ...r, plan: plan(p) }, f.deps);
  expect(lines(r.diagnostics)).toEqual([]);
  if (!state) throw new Error("no state");
  return { ...f, state };
}

describe("rackform_machine create", () => {
  it("enrolls and commissions a new node, recording its facts and a fingerprint of the credentials", async () => {
    const { fake, state } = await created();
    const [m] = fake.machines.values();
    expect(fake.calls).toEqual(["find n1", "enroll n1", `commission ${m.id}`]);
    expect(state).toMatchObject({
      id: `maas:${m.id}`,
      machine_id: m.id,
      name: "n1",
      status: "Ready",
      state: "ready",
      deploy_kernel: null,
      deploy_ramdisk: null,
    });
    expect(state.bmc_credentials_fingerprint).toMatch(/^scrypt2\$/);
    expect(m.bmcPassword).toBe("Passw0rd-1");
  });

  it("adopts the machine a killed run left (same name and MAC) and hands it the current credentials", async () => {
    const fake = new FakeBackend();
    const left = fake.seed({ name: "n1", macs: [MAC], bmcAddress: BMC, bmcPassword: "old" });
    const { state } = await created({ fake });
    expect(state.machine_id).toBe(left.id);
    expect(fake.calls).toEqual(["find n1", `commission ${left.id}`, `setPowerCredentials ${left.id}`]);
    expect(left.bmcPassword).toBe("Passw0rd-1");
  });

  it("looks again before enrolling twice when the enrolment's answer was lost, and adopts what landed", async () => {
    const fake = new FakeBackend();
    const enroll = fake.enroll.bind(fake);
    fake.enroll = async (spec) => {
      await enroll(spec);
      throw new RackformClientError("RACKFORM_ERR_MAAS_OUTCOME_UNKNOWN", "no answer");
    };
    const { state } = await created({ fake });
    expect(fake.machines.size).toBe(1);
    expect(fake.calls.filter((c) => c.startsWith("enroll"))).toEqual(["enroll n1"]);
    expect(state.machine_id).toBe([...fake.machines.keys()][0]);
  });

  it("refuses a node enrolled under another name, pointing at macs, and changes nothing", async () => {
    const f = fakes();
    f.fake.seed({ name: "old-name", macs: [MAC] });
    const r = req();
    expect(await createMachine({ ...r, plan: plan() }, f.deps)).toBeUndefined();
    expect(lines(r.diagnostics)).toEqual(["error Node already enrolled under another name @ macs"]);
    expect(f.fake.calls).toEqual(["find n1"]);
  });

  it("refuses a name held by other hardware (none of the MACs)", async () => {
    const f = fakes();
    f.fake.seed({ name: "n1", macs: ["02:00:00:00:00:77"] });
    const r = req();
    expect(await createMachine({ ...r, plan: plan() }, f.deps)).toBeUndefined();
    expect(lines(r.diagnostics)).toEqual(["error Name already used by other hardware @ macs"]);
  });

  it("returns the known state of a machine whose commissioning failed, with the backend's words (tainted)", async () => {
    const f = fakes();
    f.fake.failCommission.set("n1", "lshw failed: bad DIMM");
    const r = req();
    const state = await createMachine({ ...r, plan: plan() }, f.deps);
    expect(lines(r.diagnostics)).toEqual(["error Commissioning failed @ "]);
    expect(r.diagnostics.items[0].detail).toContain("lshw failed: bad DIMM");
    expect(state).toMatchObject({ state: "failed", status: "Failed commissioning" });
  });

  it("checks again at apply what validation could not know, before any backend call", async () => {
    const cases: [Partial<MachineDeps>, Partial<MachinePlan>, string][] = [
      [{}, { backend: "xcat" }, "error Unknown backend @ backend"],
      [{}, { macs: [] }, "error MAAS needs a MAC address @ macs"],
      [{}, { bmc_endpoint: "http://10.0.1.7" }, "error Plain HTTP Redfish endpoint refused @ bmc_endpoint"],
      [{ redfish: { insecure: false } }, {}, "error BMC credentials missing @ bmc_endpoint"],
    ];
    for (const [deps, p, want] of cases) {
      const f = fakes(deps);
      const r = req();
      expect(await createMachine({ ...r, plan: plan(p) }, f.deps)).toBeUndefined();
      expect(lines(r.diagnostics).filter((l) => l.startsWith("error"))).toEqual([want]);
      expect(f.fake.calls).toEqual([]);
    }
  });

  it("names the backend's missing provider block", async () => {
    const f = fakes({
      backend: (name) => {
        throw new BackendNotConfiguredError(name);
      },
    });
    const r = req();
    expect(await createMachine({ ...r, plan: plan() }, f.deps)).toBeUndefined();
    expect(lines(r.diagnostics)).toEqual(["error MAAS is not configured @ backend"]);
  });

  it("records the provider's Ironic deploy images", async () => {
    const images: DeployImages = { kernel: "http://i/ipa.kernel", ramdisk: "http://i/ipa.initramfs" };
    const f = fakes({ fake: new FakeBackend("ironic"), deployImages: images });
    const r = req();
    const state = await createMachine({ ...r, plan: plan({ backend: "ironic" }) }, f.deps);
    expect(state).toMatchObject({ deploy_kernel: images.kernel, deploy_ramdisk: images.ramdisk });
  });
});

describe("rackform_machine read", () => {
  it("records the backend's facts and name, and links the machine to its BMC", async () => {
    const { fake, deps, links, state } = await created();
    const [m] = fake.machines.values();
    Object.assign(m, { name: "renamed", status: "Deployed", state: "deployed" });
    const got = await readMachine({ ...req(), state }, deps);
    expect(got).toEqual({ ...state, name: "renamed", status: "Deployed", state: "deployed" });
    expect(links).toEqual([`maas:${m.id} ${BMC}`]);
  });

  it("returns null for a machine deleted by hand", async () => {
    const { fake, deps, state } = await created();
    fake.machines.clear();
    expect(await readMachine({ ...req(), state }, deps)).toBeNull();
  });

  it("keeps the recorded state with a warning when the backend does not answer, and with an error otherwise", async () => {
    const { deps, state } = await created();
    const failing = (e: Error): MachineDeps => ({
      ...deps,
      backend: () => ({ ...new FakeBackend(), read: async () => Promise.reject(e) }) as unknown as FakeBackend,
    });
    const busy = req();
    const unavailable = new RackformClientError("RACKFORM_ERR_HTTP_STATUS", "503", { status: 503 });
    expect(await readMachine({ ...busy, state }, failing(unavailable))).toEqual(state);
    expect(lines(busy.diagnostics)).toEqual(["warning Could not read; the recorded state stands: n1 @ "]);
    const denied = req();
    const refused = new RackformClientError("RACKFORM_ERR_HTTP_STATUS", "401", { status: 401 });
    expect(await readMachine({ ...denied, state }, failing(refused))).toEqual(state);
    expect(denied.diagnostics.items.map((d) => d.severity)).toEqual(["error"]);
  });

  it("after an import, records the current credentials' fingerprint and the node's deploy images", async () => {
    const fake = new FakeBackend("ironic");
    const m = fake.seed({ name: "n1", state: "ready", status: "available" });
    const { deps } = fakes({ fake });
    Object.assign(fake, {
      facts: (x: typeof m) => ({
        ...FakeBackend.prototype.facts.call(fake, x),
        deployImages: { kernel: "k", ramdisk: "r" },
      }),
    });
    const imported = { ...plan(), ...importMachine({ ...req(), id: `ironic:${m.id}` }) } as MachineState;
    const st: MachineState = {
      ...imported,
      bmc_endpoint: BMC,
      bmc_credentials_fingerprint: null,
      deploy_kernel: null,
      deploy_ramdisk: null,
      status: null,
      state: null,
    };
    const got = await readMachine({ ...req(), state: st }, deps);
    expect(got?.bmc_credentials_fingerprint).toMatch(/^scrypt2\$/);
    expect(got).toMatchObject({ id: `ironic:${m.id}`, deploy_kernel: "k", deploy_ramdisk: "r", status: "available" });
  });
});

describe("rackform_machine update", () => {
  it("hands the backend rotated credentials (the planned fingerprint differs) and records the new fingerprint", async () => {
    const { fake, deps, state } = await created();
    const [m] = fake.machines.values();
    const r = req();
    const p = { ...state, bmc_credentials_fingerprint: UNKNOWN } as MachinePlan;
    const got = await updateMachine({ ...r, plan: p, state }, deps);
    expect(lines(r.diagnostics)).toEqual([]);
    expect(fake.calls.slice(-2)).toEqual([`setPowerCredentials ${m.id}`, `read ${m.id}`]);
    expect(got?.bmc_credentials_fingerprint).toBe(FINGERPRINTS.against(state.bmc_credentials_fingerprint ?? ""));
  });

  it("hands the backend a re-addressed BMC in place, keeping the machine's id", async () => {
    const { fake, deps, state } = await created();
    const [m] = fake.machines.values();
    const got = await updateMachine({ ...req(), plan: { ...state, bmc_endpoint: "https://10.2.1.7" }, state }, deps);
    expect(m.bmcAddress).toBe("https://10.2.1.7");
    expect(got).toEqual({ ...state, bmc_endpoint: "https://10.2.1.7" });
  });

  it("only reads the machine when neither the credentials nor the address changed", async () => {
    const { fake, deps, state } = await created();
    const before = fake.calls.length;
    const got = await updateMachine({ ...req(), plan: { ...state, timeouts: { create: "2h" } }, state }, deps);
    expect(fake.calls.slice(before)).toEqual([`read ${state.machine_id}`]);
    expect(got?.timeouts).toEqual({ create: "2h" });
  });

  it("writes changed Ironic deploy images into the node's driver_info", async () => {
    const images: DeployImages = { kernel: "http://i/new.kernel", ramdisk: "http://i/new.initramfs" };
    const fake = new FakeBackend("ironic");
    const { deps, state } = await created({ fake, deployImages: images }, { backend: "ironic" });
    Object.assign(fake, { setDeployImages: async (id: string) => void fake.calls.push(`setDeployImages ${id}`) });
    const old = { ...state, deploy_kernel: "http://i/old.kernel", deploy_ramdisk: "http://i/old.initramfs" };
    const p = { ...old, deploy_kernel: images.kernel, deploy_ramdisk: images.ramdisk };
    const got = await updateMachine({ ...req(), plan: p, state: old }, deps);
    expect(fake.calls).toContain(`setDeployImages ${state.machine_id}`);
    expect(got).toMatchObject({ deploy_kernel: images.kernel, deploy_ramdisk: images.ramdisk });
  });

  it("reports a machine gone from the backend and records nothing", async () => {
    const { fake, deps, state } = await created();
    fake.machines.clear();
    const r = req();
    expect(await updateMachine({ ...r, plan: state, state }, deps)).toBeUndefined();
    expect(lines(r.diagnostics)).toEqual(["error Machine not found @ "]);
  });

  it("keeps the prior state when the backend fails, naming the step", async () => {
    const { fake, deps, state } = await created();
    fake.setPowerCredentials = async () => {
      throw new Error("boom");
    };
    const r = req();
    const p = { ...state, bmc_endpoint: "https://10.2.1.7" };
    expect(await updateMachine({ ...r, plan: p, state }, deps)).toEqual(state);
    expect(lines(r.diagnostics)).toEqual(["error Failed to hand the backend the BMC's new address @ "]);
  });

  it("keeps the prior state when a BMC address known only at apply is plain http", async () => {
    const { fake, deps, state } = await created();
    const before = fake.calls.length;
    const r = req();
    expect(await updateMachine({ ...r, plan: { ...state, bmc_endpoint: "http://10.2.1.7" }, state }, deps)).toEqual(
      state,
    );
    expect(lines(r.diagnostics)).toEqual(["error Plain HTTP Redfish endpoint refused @ bmc_endpoint"]);
    expect(fake.calls.length).toBe(before);
  });
});

describe("rackform_machine delete", () => {
  it("removes the machine and frees the drain slot its node held", async () => {
    const { fake, deps, released, state } = await created();
    await deleteMachine({ ...req(), state }, deps);
    expect(fake.machines.size).toBe(0);
    expect(released).toEqual([`${state.id},n1: was removed`]);
  });

  it("reports a failed removal and still frees the slot", async () => {
    const { fake, deps, released, state } = await created();
    fake.remove = async () => {
      throw new Error("busy");
    };
    const r = req();
    await deleteMachine({ ...r, state }, deps);
    expect(lines(r.diagnostics)).toEqual(["error Failed to remove the machine @ "]);
    expect(released).toEqual([`${state.id},n1: could not be removed`]);
  });
});

describe("rackform_machine plan, validation and import", () => {
  const config = (o: Partial<MachineConfig> = {}): MachineConfig => ({ ...plan(), ...o });
  const planned = (r: ReturnType<typeof planMachine>) => r?.plan;

  it("keeps the recorded fingerprint while the credentials are unchanged, unknown while they are not known", async () => {
    const { deps, state } = await created();
    const base = { ...req(), config: state, plan: state, state, private: {} };
    expect(planned(planMachine(base, deps))?.bmc_credentials_fingerprint).toBe(state.bmc_credentials_fingerprint);
    const unknown = planMachine(base, { ...deps, fingerprints: () => "unknown" });
    expect(planned(unknown)?.bmc_credentials_fingerprint).toBe(UNKNOWN);
    const rotated = planMachine(base, { ...deps, fingerprints: () => new CredentialFingerprints("admin", "Other-2") });
    expect(planned(rotated)?.bmc_credentials_fingerprint).not.toBe(state.bmc_credentials_fingerprint);
  });

  it("plans the provider's Ironic deploy images, unknown ones while the backend is unknown, none on MAAS", () => {
    const images: DeployImages = { kernel: "k", ramdisk: "r" };
    const { deps } = fakes({ deployImages: images });
    const at = (backend: MachineConfig["backend"]) => {
      const p = config({ backend });
      return planned(planMachine({ ...req(), config: p, plan: p, state: null, private: {} }, deps));
    };
    expect(at("ironic")).toMatchObject({ deploy_kernel: "k", deploy_ramdisk: "r" });
    expect(at(UNKNOWN)).toMatchObject({ deploy_kernel: UNKNOWN, deploy_ramdisk: UNKNOWN });
    expect(at("maas")).toMatchObject({ deploy_kernel: null, deploy_ramdisk: null });
    expect(at("maas")?.bmc_credentials_fingerprint).toBe(UNKNOWN);
  });

  it("refuses a plain http BMC at plan unless the provider allows it (then warns)", () => {
    const p = config({ bmc_endpoint: "http://10.0.1.7" });
    const refused = req();
    planMachine({ ...refused, config: p, plan: p, state: null, private: {} }, fakes().deps);
    expect(lines(refused.diagnostics)).toEqual(["error Plain HTTP Redfish endpoint refused @ bmc_endpoint"]);
    const allowed = req();
    planMachine({ ...allowed, config: p, plan: p, state: null, private: {} }, fakes({ allowHttp: true }).deps);
    expect(allowed.diagnostics.items.map((d) => d.severity)).toEqual(["warning"]);
  });

  it("plans nothing on destroy", () => {
    expect(planMachine({ ...req(), config: null, plan: null, state: null, private: {} }, fakes().deps)).toBeUndefined();
  });

  it("validates MACs for MAAS and warns on resource_class outside Ironic", () => {
    const r = req();
    validateMachine({ ...r, config: config({ macs: null, resource_class: "gpu" }) });
    expect(lines(r.diagnostics)).toEqual([
      "error MAAS needs a MAC address @ macs",
      "warning resource_class is ignored by MAAS @ resource_class",
    ]);
    const later = req();
    validateMachine({ ...later, config: config({ backend: UNKNOWN, macs: null }) });
    expect(lines(later.diagnostics)).toEqual([]);
  });

  it("imports <backend>:<id> only", () => {
    expect(importMachine({ ...req(), id: " maas:4y3h7n " })).toEqual({
      id: "maas:4y3h7n",
      backend: "maas",
      machine_id: "4y3h7n",
    });
    const r = req();
    expect(importMachine({ ...r, id: "4y3h7n" })).toBeUndefined();
    expect(lines(r.diagnostics)).toEqual(["error Invalid import id for rackform_machine @ "]);
  });
});
