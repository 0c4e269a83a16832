/**
 * rackform_dpu's handlers (dpu-ops.ts) called directly with fake deps: a fake BlueField BMC and a fake host BMC that
 * record what they were asked, no lab, no server. The engines run the same scenarios in test/e2e/dpu.test.ts.
 */
import { describe, expect, it } from "vitest";
import { RackformClientError } from "../../../src/clients/errors.js";
import { StepDurations } from "../../../src/clients/http/poll.js";
import type { DpuState as DpuReport } from "../../../src/clients/redfish/index.js";
import { backgroundContext, Diagnostics, formatPath, UNKNOWN } from "../../../src/framework/index.js";
import {
  createDpu,
  type DpuDeps,
  type DpuOps,
  type HostPowerClient,
  importDpu,
  planDpu,
  readDpu,
  updateDpu,
} from "../../../src/provider/resources/dpu-ops.js";
import type { DpuConfig, DpuPlan, DpuState } from "../../../src/provider/resources/dpu-schema.js";

const EP = "https://10.0.1.21";
const HOST = "https://10.0.1.5";
const V1 = "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod";
const V2 = "DOCA_2.10.0_BSP_4.10.0_Ubuntu_22.04-5.1-1.prod";
const SHA = "a".repeat(64);

/** A BlueField DPU and its host; tests set what the next install does. */
interface FakeDpu {
  mode: string;
  pending?: string;
  bfb: string;
  hostRshim: string;
  bmcRshim: boolean;
  hostPower: string;
  /** What DPU_OS reports after the next install (the url's version by default). */
  installsAs?: string;
  /** The next install's task fails with these messages. */
  installFails?: string[];
  /** Every request fails with this while set. */
  down?: Error;
}

function fakeDeps(dpu: FakeDpu) {
  const calls: string[] = [];
  const report = (): DpuReport => ({
    mode: dpu.mode,
    hostRshim: dpu.hostRshim,
    bmcRshim: dpu.bmcRshim,
    bfbVersion: dpu.bfb,
    serial: "MT2333X00001",
  });
  const step = (what: string) => {
    calls.push(what);
    if (dpu.down) throw dpu.down;
  };
  const ops: DpuOps = {
    state: async () => {
      step("state");
      return report();
    },
    waitBooted: async () => {
      step("waitBooted");
      return report();
    },
    setMode: async (m) => {
      step(`setMode ${m}`);
      dpu.pending = m;
    },
    rebootArm: async () => step("rebootArm"),
    expectMode: async (m) => {
      step(`expectMode ${m}`);
      if (dpu.mode !== m) throw new Error(`mode is ${dpu.mode}`);
      return report();
    },
    setHostRshim: async (on) => {
      step(`hostRshim ${on}`);
      dpu.hostRshim = on ? "Enabled" : "Disabled";
    },
    setBmcRshim: async (on) => {
      step(`bmcRshim ${on}`);
      dpu.bmcRshim = on;
    },
    waitBmcRshim: async (o) => {
      step(`waitBmcRshim ${o?.timeoutMs}`);
      return report();
    },
    installBfb: async (url) => {
      step(`install ${url}`);
      if (dpu.installFails) {
        const e = new RackformClientError("RACKFORM_ERR_REDFISH_TASK_FAILED", "task ended in Exception");
        throw Object.assign(e, { details: { task: { messages: dpu.installFails } } });
      }
      dpu.bfb = dpu.installsAs ?? /([^/]+)\.bfb$/.exec(url)?.[1] ?? "?";
      return { uri: "/redfish/v1/TaskService/Tasks/1" } as Awaited<ReturnType<DpuOps["installBfb"]>>;
    },
  };
  const host: HostPowerClient = {
    getSystem: async () => {
      calls.push(`host getSystem ${dpu.hostPower}`);
      return { id: "1", odataId: "/redfish/v1/Systems/1", boot: {}, powerState: dpu.hostPower };
    },
    power: async (type) => {
      calls.push(`host ${type}`);
      dpu.hostPower = type === "On" ? "On" : "Off";
      // The new mode takes effect at the host's power cycle.
      if (type === "On" && dpu.pending) [dpu.mode, dpu.pending] = [dpu.pending, undefined];
      return { requested: type, sent: type };
    },
  };
  const asked: string[] = [];
  const deps: DpuDeps = {
    allowHttp: false,
    pollMs: 1,
    hostPace: { pace: 1, steps: new StepDurations() },
    dpu: (endpoint, user, password) => {
      asked.push(`dpu ${endpoint} ${user} ${password}`);
      return ops;
    },
    host: (endpoint) => {
      asked.push(`host ${endpoint}`);
      return host;
    },
  };
  return { deps, calls, asked };
}

const fresh = (o: Partial<FakeDpu> = {}): FakeDpu => ({
  mode: "DpuMode",
  bfb: V1,
  hostRshim: "Enabled",
  bmcRshim: false,
  hostPower: "Off",
  ...o,
});

const req = () => ({ context: backgroundContext(), diagnostics: new Diagnostics() });

const bfb = (version: string) => ({ version, url: `http://10.0.0.2/bfb/${version}.bfb`, sha256: SHA });

const plan = (o: Partial<DpuPlan> = {}): DpuPlan => ({
  id: UNKNOWN,
  endpoint: EP,
  username: null,
  password: null,
  host_endpoint: HOST,
  mode: "DpuMode",
  bfb: bfb(V1),
  rshim: "bmc",
  serial: UNKNOWN,
  last_install_messages: UNKNOWN,
  timeouts: null,
  ...o,
});

const recorded: DpuState = {
  id: EP,
  endpoint: EP,
  username: null,
  password: null,
  host_endpoint: HOST,
  mode: "DpuMode",
  bfb: bfb(V1),
  rshim: "bmc",
  serial: "MT2333X00001",
  last_install_messages: [],
  timeouts: null,
};

const summaries = (d: Diagnostics) => d.items.map((i) => `${i.severity}: ${i.summary} @ ${formatPath(i.attribute)}`);

describe("rackform_dpu create and update with fake deps", () => {
  it("a mode change: Mode.Set, two Arm reboots, a host power cycle leaving the host off, then the BFB over the BMC's rshim", async () => {
    const dpu = fresh();
    const { deps, calls, asked } = fakeDeps(dpu);
    const r = req();
    const s = await createDpu({ ...r, plan: plan({ mode: "NicMode", bfb: bfb(V2), username: "admin" }) }, deps);
    expect(r.diagnostics.items).toEqual([]);
    expect(s).toEqual({ ...recorded, mode: "NicMode", bfb: bfb(V2), username: "admin" });
    expect(asked).toEqual([`dpu ${EP} admin undefined`, `host ${HOST}`]);
    expect(calls).toEqual([
      "waitBooted",
      "setMode NicMode",
      "rebootArm",
      "waitBooted",
      "rebootArm",
      "waitBooted",
      "host getSystem Off",
      "host On",
      "host getSystem On",
      "host ForceOff",
      "host getSystem Off",
      "waitBooted",
      "expectMode NicMode",
      "hostRshim false",
      "bmcRshim true",
      "waitBmcRshim 120000",
      `install http://10.0.0.2/bfb/${V2}.bfb`,
      "waitBooted",
      "state",
    ]);
    expect(dpu.hostPower).toBe("Off");
  });

  it("a host that was on is cycled and left on", async () => {
    const dpu = fresh({ hostPower: "On", bmcRshim: true, hostRshim: "Disabled" });
    const { deps, calls } = fakeDeps(dpu);
    const r = req();
    await updateDpu({ ...r, plan: plan({ ...recorded, mode: "NicMode" }) }, deps);
    expect(r.diagnostics.items).toEqual([]);
    expect(calls.filter((c) => c.startsWith("host "))).toEqual([
      "host getSystem On",
      "host getSystem On",
      "host ForceOff",
      "host getSystem Off",
      "host On",
      "host getSystem On",
    ]);
    expect(dpu.hostPower).toBe("On");
  });

  it("a mode change without host_endpoint fails at host_endpoint before Mode.Set", async () => {
    const { deps, calls } = fakeDeps(fresh());
    const r = req();
    expect(await createDpu({ ...r, plan: plan({ mode: "NicMode", host_endpoint: null }) }, deps)).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error: Cannot change the DPU's mode without its host @ host_endpoint"]);
    expect(calls).toEqual(["waitBooted"]);
  });

  it("a failed install task records the DPU as it is, with the task's messages, and an error", async () => {
    const { deps } = fakeDeps(fresh({ installFails: ["Image download failed", "Aborted"] }));
    const r = req();
    const s = await createDpu({ ...r, plan: plan({ bfb: bfb(V2) }) }, deps);
    expect(s).toEqual({
      ...recorded,
      bfb: { ...bfb(V2), version: V1 },
      last_install_messages: ["Image download failed", "Aborted"],
    });
    expect(r.diagnostics.items.map((d) => d.severity)).toEqual(["error"]);
    expect(r.diagnostics.items[0].summary).toContain(`install BFB ${V2}`);
  });

  it("an install that leaves another version is an error at bfb.version, with the version read recorded", async () => {
    const { deps } = fakeDeps(fresh({ installsAs: "DOCA_other" }));
    const r = req();
    const s = await createDpu({ ...r, plan: plan({ bfb: bfb(V2) }) }, deps);
    expect(s?.bfb).toEqual({ ...bfb(V2), version: "DOCA_other" });
    expect(summaries(r.diagnostics)).toEqual([`error: Failed to install BFB ${V2} @ bfb.version`]);
  });

  it('rshim = "host" hands the rshim back after an install; a converged DPU only re-checks the policy', async () => {
    const dpu = fresh();
    const { deps, calls } = fakeDeps(dpu);
    const s = await createDpu({ ...req(), plan: plan({ bfb: bfb(V2), rshim: "host" }) }, deps);
    expect(s?.rshim).toBe("host");
    expect(calls.slice(-3)).toEqual(["bmcRshim false", "hostRshim true", "state"]);
    expect([dpu.bmcRshim, dpu.hostRshim]).toEqual([false, "Enabled"]);
    calls.length = 0;
    await updateDpu({ ...req(), plan: plan({ bfb: bfb(V2), rshim: "host" }) }, deps);
    expect(calls).toEqual(["waitBooted", "bmcRshim false", "hostRshim true", "state"]);
  });

  it("a DPU that does not answer fails the apply with the step it was at", async () => {
    const { deps } = fakeDeps(
      fresh({ down: new RackformClientError("RACKFORM_ERR_HTTP_STATUS", "401", { status: 401 }) }),
    );
    const r = req();
    expect(await createDpu({ ...r, plan: plan() }, deps)).toBeUndefined();
    expect(r.diagnostics.items.map((d) => d.severity)).toEqual(["error"]);
    expect(r.diagnostics.items[0].summary).toContain("read the DPU");
  });
});

describe("rackform_dpu read, plan and import with fake deps", () => {
  it("read records the mode and version the DPU reports, keeping url, sha256 and the last messages", async () => {
    const { deps, calls } = fakeDeps(fresh({ mode: "NicMode", bfb: V2 }));
    const st = { ...recorded, last_install_messages: ["old"] };
    expect(await readDpu({ ...req(), state: st }, deps)).toEqual({
      ...st,
      mode: "NicMode",
      bfb: { ...bfb(V1), version: V2 },
    });
    expect(calls).toEqual(["state"]);
  });

  it("read of an imported DPU (no bfb yet) records what it runs, with no url or sha256", async () => {
    const { deps } = fakeDeps(fresh());
    const imported = {
      ...recorded,
      bfb: null,
      mode: null,
      serial: null,
      last_install_messages: null,
    } as unknown as DpuState;
    const s = await readDpu({ ...req(), state: imported }, deps);
    expect(s).toMatchObject({
      mode: "DpuMode",
      bfb: { version: V1, url: null, sha256: null },
      last_install_messages: [],
    });
  });

  it("read: null when the DPU is gone (404), else an error with the state kept", async () => {
    const gone = new RackformClientError("RACKFORM_ERR_REDFISH_NOT_FOUND", "no Bluefield system");
    expect(await readDpu({ ...req(), state: recorded }, fakeDeps(fresh({ down: gone })).deps)).toBeNull();
    const r = req();
    const refused = new RackformClientError("RACKFORM_ERR_HTTP_STATUS", "401", { status: 401 });
    expect(await readDpu({ ...r, state: recorded }, fakeDeps(fresh({ down: refused })).deps)).toBe(recorded);
    expect(r.diagnostics.hasError()).toBe(true);
  });

  const planReq = (p: DpuConfig | null, st: DpuState | null) => ({
    ...req(),
    config: p,
    plan: p,
    state: st,
    private: {},
  });

  it("plan: a mode change without host_endpoint fails; plain http is refused for both BMCs", () => {
    const { deps } = fakeDeps(fresh());
    const r = planReq({ ...recorded, mode: "NicMode", host_endpoint: null }, recorded);
    planDpu(r, deps);
    expect(summaries(r.diagnostics)).toEqual(["error: Cannot change the DPU's mode without its host @ host_endpoint"]);
    const ok = planReq({ ...recorded, mode: "NicMode" }, recorded);
    planDpu(ok, deps);
    expect(ok.diagnostics.items).toEqual([]);
    const created = planReq({ ...recorded, mode: "NicMode", host_endpoint: null }, null);
    planDpu(created, deps);
    expect(created.diagnostics.items).toEqual([]);
    const http = planReq({ ...recorded, endpoint: "http://10.0.1.21", host_endpoint: "http://10.0.1.5" }, recorded);
    planDpu(http, deps);
    expect(summaries(http.diagnostics)).toEqual([
      "error: Plain HTTP Redfish endpoint refused @ endpoint",
      "error: Plain HTTP Redfish endpoint refused @ host_endpoint",
    ]);
  });

  it("import takes the DPU BMC's address", () => {
    expect(importDpu({ ...req(), id: ` ${EP}/redfish/v1 ` })).toEqual({
      id: EP,
      endpoint: EP,
      rshim: "bmc",
      bfb: null,
    });
    const bad = req();
    expect(importDpu({ ...bad, id: "10.0.1.21" })).toBeUndefined();
    expect(summaries(bad.diagnostics)).toEqual(["error: Invalid import id for rackform_dpu @ "]);
  });
});
