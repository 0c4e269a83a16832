/**
 * rackform_bmc's handlers (bmc-ops.ts, bmc-ops-converge.ts) called directly with fake deps: a fake BMC client that
 * records what it was asked, no lab, no server. The lab-backed tests (bmc-resource, bmc-recheck, bmc-readdress) run
 * the same rules through the provider server.
 */
import { describe, expect, it } from "vitest";
import { HttpConnectError, RackformClientError } from "../../../src/clients/errors.js";
import type { Inventory, RefreshFingerprint, SystemState } from "../../../src/clients/redfish/index.js";
import {
  backgroundContext,
  Diagnostics,
  formatPath,
  type PrivateState,
  UNKNOWN,
} from "../../../src/framework/index.js";
import {
  type BmcClient,
  type BmcDeps,
  createBmc,
  importBmc,
  planBmc,
  readBmc,
  updateBmc,
  validateBmc,
} from "../../../src/provider/resources/bmc-ops.js";
import type { BmcConfig, BmcPlan, BmcState } from "../../../src/provider/resources/bmc-schema.js";
import { typedRequest } from "../../support/typed-request.js";

const EP = "https://10.0.0.5";
const SYS = "/redfish/v1/Systems/1?$expand=.($levels=3)";
const FW = "/redfish/v1/UpdateService/FirmwareInventory?$expand=.";

/** One node behind a BMC; tests change it to show drift, a swap or an outage. */
interface FakeNode {
  serial: string;
  uuid: string;
  gpus: string[];
  macs: string[];
  power: string;
  /** The BMC offers $expand (a refresh fingerprint). */
  expand: boolean;
  /** Thrown by every request while set. */
  down?: Error;
  /** Connection failures before the BMC answers (a booting BMC). */
  booting: number;
  /** Bumped when the System changes, so a refresh sees it. */
  generation: number;
}

const newNode = (o: Partial<FakeNode> = {}): FakeNode => ({
  serial: "SN-1",
  uuid: "4c4c4544-0001",
  gpus: ["G0", "G1"],
  macs: ["0C:42:A1:00:00:01"],
  power: "On",
  expand: true,
  booting: 0,
  generation: 1,
  ...o,
});

function inventoryOf(n: FakeNode): Inventory {
  return {
    systemId: "1",
    serial: n.serial,
    model: "XE9680",
    manufacturer: "Dell Inc.",
    macs: [...n.macs],
    cpus: [{ id: "CPU1" }, { id: "CPU2" }],
    memoryGiB: 2048,
    gpus: n.gpus.map((s, i) => ({
      id: `GPU${i}`,
      odataId: `/gpu/${i}`,
      model: "H100",
      serial: s,
      source: "processor",
    })),
    drives: [],
    firmware: [{ id: "BIOS", version: "2.3.5" }],
    biosVersion: "2.3.5",
    bmcFirmwareVersion: "7.00",
    ...(n.expand
      ? {
          refresh: {
            system: { path: SYS, etag: `"e${n.generation}"`, hash: `h${n.generation}` },
            firmware: { path: FW, etag: '"f1"', hash: "fh" },
          },
        }
      : {}),
  };
}

const systemOf = (n: FakeNode): SystemState => ({
  id: "1",
  odataId: "/redfish/v1/Systems/1",
  powerState: n.power,
  boot: {},
  uuid: n.uuid,
  serial: n.serial,
  etag: '"plain"',
});

/** Fake deps over nodes by origin; `calls` lists every request in order. */
function fakeDeps(nodes: Record<string, FakeNode>, allowHttp = false) {
  const calls: string[] = [];
  const seen: string[] = [];
  const client = (origin: string): BmcClient => {
    const at = (what: string): FakeNode => {
      calls.push(`${what} ${origin}`);
      const n = nodes[origin];
      if (!n) throw new HttpConnectError(`connect ECONNREFUSED ${origin}`, {});
      if (n.down) throw n.down;
      if (n.booting > 0) {
        n.booting--;
        throw new HttpConnectError("connect ECONNREFUSED", {});
      }
      return n;
    };
    return {
      origin,
      inventory: async (systemId) => {
        const n = at("inventory");
        if (systemId !== undefined && systemId !== "1")
          throw new RackformClientError("RACKFORM_ERR_REDFISH_NOT_FOUND", `no system ${systemId}`);
        return inventoryOf(n);
      },
      getSystem: async () => systemOf(at("getSystem")),
      // No event log and no service root to record: these tests count the inventory's requests.
      eventLogSince: async () => undefined,
      serviceRoot: async () => {
        throw new Error("this fake has no service root");
      },
      assumeServiceRoot: () => {},
      forgetServiceRoot: () => {},
      setBootOverride: async (target, enabled) => {
        const n = at(`boot ${target}/${enabled}`);
        n.generation++;
        return systemOf(n);
      },
      recheck: async () => {
        const n = at("recheck");
        return { unchanged: false, fingerprint: inventoryOf(n).refresh as RefreshFingerprint };
      },
      refreshSince: async (fp) => {
        const n = at("refreshSince");
        if (!n.expand) return undefined;
        if (fp.system.hash === `h${n.generation}`) return { unchanged: true };
        return { unchanged: false, inventory: inventoryOf(n), system: systemOf(n) };
      },
    };
  };
  const deps: BmcDeps = {
    allowHttp,
    readyPollMs: 1,
    redfishClient: client,
    sightings: {
      saw: (endpoint, system, power) => void seen.push(`saw ${endpoint} ${system} ${power}`),
      lost: (endpoint) => void seen.push(`lost ${endpoint}`),
      // The firmware a read found, for the node's rackform_firmware (firmware-ops.test.ts covers its use).
      sawFirmware: () => undefined,
    },
  };
  return { deps, calls, seen };
}

const req = typedRequest;

const EXPECTED = {
  gpu_model: "H100",
  gpu_count: 2,
  dpu_count: null,
  min_memory_gib: 1024,
  cpu_count: 2,
  nic_count: null,
  macs: null,
  firmware: null,
};

const plan = (o: Partial<BmcPlan> = {}): BmcPlan => ({
  id: UNKNOWN,
  endpoint: EP,
  system_id: UNKNOWN,
  expected: EXPECTED,
  boot_source_override_target: null,
  boot_source_override_enabled: null,
  system_uuid: UNKNOWN,
  serial: UNKNOWN,
  model: UNKNOWN,
  manufacturer: UNKNOWN,
  power_state: UNKNOWN,
  macs: UNKNOWN,
  gpus: UNKNOWN,
  gpu_count: UNKNOWN,
  memory_gib: UNKNOWN,
  cpu_count: UNKNOWN,
  firmware: UNKNOWN,
  bios_version: UNKNOWN,
  bmc_firmware_version: UNKNOWN,
  health: UNKNOWN,
  conformant: UNKNOWN,
  timeouts: null,
  ...o,
});

const recorded: BmcState = {
  id: `${EP}/redfish/v1/Systems/1`,
  endpoint: EP,
  system_id: "1",
  expected: EXPECTED,
  boot_source_override_target: null,
  boot_source_override_enabled: null,
  system_uuid: "4c4c4544-0001",
  serial: "SN-1",
  model: "XE9680",
  manufacturer: "Dell Inc.",
  power_state: "On",
  macs: ["0C:42:A1:00:00:01"],
  gpus: [
    { model: "H100", serial: "G0" },
    { model: "H100", serial: "G1" },
  ],
  gpu_count: 2,
  memory_gib: 2048,
  cpu_count: 2,
  firmware: { BIOS: "2.3.5" },
  bios_version: "2.3.5",
  bmc_firmware_version: "7.00",
  health: [],
  conformant: true,
  timeouts: null,
};

const FP = {
  refresh: {
    system: { path: SYS, etag: '"e1"', hash: "h1" },
    firmware: { path: FW, etag: '"f1"', hash: "fh" },
  },
};

const summaries = (d: Diagnostics) => d.items.map((i) => `${i.severity}: ${i.summary}`);

describe("rackform_bmc create and update with fake deps", () => {
  it("create waits for a booting BMC, records the inventory and its fingerprint, then sets the boot override", async () => {
    const { deps, calls } = fakeDeps({ [EP]: newNode({ booting: 2 }) });
    const r = req();
    const s = await createBmc(
      { ...r, plan: plan({ boot_source_override_target: "Pxe", boot_source_override_enabled: null }) },
      deps,
    );
    expect(r.diagnostics.items).toEqual([]);
    expect(s).toEqual({ ...recorded, boot_source_override_target: "Pxe" });
    expect(calls).toEqual([
      `inventory ${EP}`,
      `inventory ${EP}`,
      `inventory ${EP}`,
      `getSystem ${EP}`,
      `boot Pxe/Once ${EP}`,
      `recheck ${EP}`,
    ]);
    // The re-taken fingerprint: the override changed the System.
    expect(r.private.value).toEqual({
      refresh: { ...FP.refresh, system: { ...FP.refresh.system, etag: '"e2"', hash: "h2" } },
    });
  });

  it("create of a node that does not conform records nothing and changes nothing, with every difference at expected", async () => {
    const { deps, calls } = fakeDeps({ [EP]: newNode({ gpus: ["G0"] }) });
    const r = req();
    const p = plan({ boot_source_override_target: "Pxe", expected: { ...EXPECTED, cpu_count: 4 } });
    expect(await createBmc({ ...r, plan: p }, deps)).toBeUndefined();
    const [e] = r.diagnostics.items;
    expect([e.severity, e.summary, formatPath(e.attribute)]).toEqual([
      "error",
      "Node does not conform to its expected baseline",
      "expected",
    ]);
    expect(e.detail).toContain("2 differences from expected");
    expect(e.detail).toContain("Nothing was recorded; the next apply checks again.");
    expect(calls).toEqual([`inventory ${EP}`, `getSystem ${EP}`]);
    expect(r.private.value).toEqual({});
  });

  it("create refuses plain http without allow_http before any request", async () => {
    const { deps, calls } = fakeDeps({ "http://10.0.0.5": newNode() });
    const r = req();
    expect(await createBmc({ ...r, plan: plan({ endpoint: "http://10.0.0.5" }) }, deps)).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error: Plain HTTP Redfish endpoint refused"]);
    expect(calls).toEqual([]);
  });

  it("the re-check of drift (conformant unknown) records conformant = false with a warning, not an error", async () => {
    const { deps } = fakeDeps({ [EP]: newNode({ gpus: ["G0"] }) });
    const r = req();
    const p = plan({ ...recorded, gpus: UNKNOWN, gpu_count: UNKNOWN, conformant: UNKNOWN, power_state: UNKNOWN });
    const s = await updateBmc({ ...r, plan: p, state: recorded }, deps);
    expect(summaries(r.diagnostics)).toEqual([`warning: Node still does not conform to its expected baseline: ${EP}`]);
    expect(s?.conformant).toBe(false);
    expect(s?.gpu_count).toBe(1);
  });

  it("an edited baseline the node does not meet fails the update and keeps the prior state", async () => {
    const { deps } = fakeDeps({ [EP]: newNode() });
    const r = req();
    const p = plan({ ...recorded, expected: { ...EXPECTED, gpu_count: 4 }, conformant: true, power_state: UNKNOWN });
    expect(await updateBmc({ ...r, plan: p, state: recorded }, deps)).toBeUndefined();
    expect(summaries(r.diagnostics)).toEqual(["error: Node does not conform to its expected baseline"]);
    expect(r.diagnostics.items[0].detail).toContain("The previous state is kept.");
  });

  it("an inventory that moved between plan and apply fails the update at macs", async () => {
    const { deps } = fakeDeps({ [EP]: newNode({ macs: ["0C:42:A1:00:00:09"] }) });
    const r = req();
    const p = plan({ ...recorded, conformant: true, power_state: UNKNOWN });
    expect(await updateBmc({ ...r, plan: p, state: recorded }, deps)).toBeUndefined();
    const [e] = r.diagnostics.items;
    expect([e.summary, formatPath(e.attribute)]).toEqual([
      "The node's inventory changed between plan and apply",
      "macs",
    ]);
    expect(e.detail).toContain('macs was ["0C:42:A1:00:00:01"], now ["0C:42:A1:00:00:09"]');
  });

  it("a re-address where another system answers fails with both identities and records nothing", async () => {
    const moved = "https://10.2.0.5";
    const { deps } = fakeDeps({ [moved]: newNode({ serial: "SN-2", uuid: "4c4c4544-0002" }) });
    const r = req();
    const p = plan({ ...recorded, endpoint: moved, conformant: true, power_state: UNKNOWN });
    expect(await updateBmc({ ...r, plan: p, state: recorded }, deps)).toBeUndefined();
    const [e] = r.diagnostics.items;
    expect([e.severity, e.summary]).toEqual(["error", `A different system answers at the new BMC address: ${moved}`]);
    expect(e.detail).toContain(`recorded at ${EP}`);
    expect(e.detail).toContain("system_uuid was 4c4c4544-0001, now 4c4c4544-0002");
  });

  it("a re-address to the same system keeps the id of the first discovery", async () => {
    const moved = "https://10.2.0.5";
    const { deps } = fakeDeps({ [moved]: newNode() });
    const r = req();
    const p = plan({ ...recorded, endpoint: moved, conformant: true, power_state: UNKNOWN });
    const s = await updateBmc({ ...r, plan: p, state: recorded }, deps);
    expect(r.diagnostics.items).toEqual([]);
    expect(s).toEqual({ ...recorded, endpoint: moved });
  });
});

describe("rackform_bmc read with fake deps", () => {
  it("a recorded service root that no longer holds (a 404 at login): the read forgets it and reads everything, the node not gone", async () => {
    const { deps, calls } = fakeDeps({ [EP]: newNode() });
    const events: string[] = [];
    const base = deps.redfishClient(EP);
    const client: BmcClient = {
      ...base,
      assumeServiceRoot: () => void events.push("assume"),
      forgetServiceRoot: () => void events.push("forget"),
      refreshSince: async () => {
        throw new RackformClientError("RACKFORM_ERR_REDFISH_NOT_FOUND", "no /redfish/v1/SessionService/Sessions");
      },
    };
    const r = req({ ...FP, service_root: { "@odata.id": "/redfish/v1" } });
    const s = await readBmc({ ...r, state: recorded }, { ...deps, redfishClient: () => client });
    expect(events).toEqual(["assume", "forget"]);
    expect(s).not.toBeNull();
    expect(calls).toContain(`inventory ${EP}`);
  });

  it("an unchanged conformant node is one conditional check: the state stands and the host power is sighted", async () => {
    const { deps, calls, seen } = fakeDeps({ [EP]: newNode() });
    const r = req(FP);
    expect(await readBmc({ ...r, state: recorded }, deps)).toBe(recorded);
    expect(calls).toEqual([`refreshSince ${EP}`]);
    expect(seen).toEqual([`saw ${EP} ${recorded.id} On`]);
    expect(r.private.value).toEqual(FP);
  });

  it("without a fingerprint everything is read, and the fingerprint is kept with drift = false", async () => {
    const { deps, calls } = fakeDeps({ [EP]: newNode({ power: "Off" }) });
    const r = req();
    expect(await readBmc({ ...r, state: recorded }, deps)).toEqual({ ...recorded, power_state: "Off" });
    expect(calls).toEqual([`inventory ${EP}`, `getSystem ${EP}`]);
    // The host seen Off: a later read that finds it On has seen it power on (which clears log findings).
    expect(r.private.value).toEqual({ drift: false, host_off_seen: true, ...FP });
  });

  it("a lost GPU is drift: a warning naming it, conformant = false, and the drift flag for the plan", async () => {
    const n = newNode();
    const { deps } = fakeDeps({ [EP]: n });
    n.gpus = ["G0"];
    n.generation++;
    const r = req(FP);
    const s = await readBmc({ ...r, state: recorded }, deps);
    expect(s).toMatchObject({ conformant: false, gpu_count: 1, gpus: [{ model: "H100", serial: "G0" }] });
    expect(summaries(r.diagnostics)).toEqual([`warning: Node no longer conforms to its expected baseline: ${EP}`]);
    expect(r.diagnostics.items[0].detail).toContain("No longer reported since the last read: GPU serial G1 (H100).");
    expect(r.private.value).toMatchObject({ drift: true });
  });

  it("a BMC that does not answer keeps the last known values, non-conformant, with a warning and no fingerprint", async () => {
    const { deps, seen } = fakeDeps({ [EP]: newNode({ down: new HttpConnectError("connect ECONNREFUSED", {}) }) });
    const r = req(FP);
    expect(await readBmc({ ...r, state: recorded }, deps)).toEqual({ ...recorded, conformant: false });
    expect(summaries(r.diagnostics)).toEqual([`warning: BMC not answering; node marked non-conformant: ${EP}`]);
    expect(seen).toEqual([`lost ${EP}`]);
    expect(r.private.value).toEqual({ drift: false });
  });

  it("a system gone (404) is null; a refusal (401) is an error and the state stands", async () => {
    const gone = new RackformClientError("RACKFORM_ERR_REDFISH_NOT_FOUND", "no system 1");
    expect(await readBmc({ ...req(), state: recorded }, fakeDeps({ [EP]: newNode({ down: gone }) }).deps)).toBeNull();
    const refused = new RackformClientError("RACKFORM_ERR_HTTP_STATUS", "401 Unauthorized", { status: 401 });
    const r = req();
    expect(await readBmc({ ...r, state: recorded }, fakeDeps({ [EP]: newNode({ down: refused }) }).deps)).toBe(
      recorded,
    );
    expect(r.diagnostics.items.map((d) => d.severity)).toEqual(["error"]);
  });

  it("an imported BMC (conformant still null) that cannot be read is an error, not a disappearance", async () => {
    const gone = new RackformClientError("RACKFORM_ERR_REDFISH_NOT_FOUND", "no system 7");
    const r = req();
    const imported = { ...recorded, conformant: null };
    expect(await readBmc({ ...r, state: imported }, fakeDeps({ [EP]: newNode({ down: gone }) }).deps)).toBe(imported);
    expect(r.diagnostics.hasError()).toBe(true);
  });
});

describe("rackform_bmc plan rules, validation and import", () => {
  const config = (o: Partial<BmcConfig> = {}): BmcConfig => ({ ...recorded, ...o });
  const planReq = (p: BmcConfig | null, st: BmcState | null, priv: PrivateState = {}) => ({
    context: backgroundContext(),
    diagnostics: new Diagnostics(),
    config: p,
    plan: p,
    state: st,
    private: priv,
  });

  it("drift found by read plans a re-check that leaves conformant and power to the apply", async () => {
    const { deps } = fakeDeps({});
    const st = { ...recorded, conformant: false };
    const change = await planBmc(planReq(config({ conformant: false }), st, { drift: true }), deps);
    expect(change?.plan).toMatchObject({ conformant: UNKNOWN, power_state: UNKNOWN, gpu_count: 2 });
  });

  it("an unreachable BMC plans a re-check that must conform; an edited baseline too", async () => {
    const { deps } = fakeDeps({});
    const st = { ...recorded, conformant: false };
    const unreachable = await planBmc(planReq(config({ conformant: false }), st, { drift: false }), deps);
    expect(unreachable?.plan).toMatchObject({ conformant: true, power_state: UNKNOWN });
    const edited = await planBmc(planReq(config({ conformant: UNKNOWN }), recorded), deps);
    expect(edited?.plan).toMatchObject({ conformant: true, power_state: "On" });
    expect((await planBmc(planReq(config(), recorded), deps))?.plan).toBeUndefined();
  });

  it("a re-address where another system answers is a warning at plan; plain http is refused", async () => {
    const moved = "https://10.2.0.5";
    const { deps, calls } = fakeDeps({ [moved]: newNode({ serial: "SN-2" }) });
    const r = planReq(config({ endpoint: moved }), recorded);
    await planBmc(r, deps);
    expect(summaries(r.diagnostics)).toEqual([`warning: A different system answers at the new BMC address: ${moved}`]);
    expect(calls).toEqual([`getSystem ${moved}`]);
    const http = planReq(config({ endpoint: "http://10.0.0.5" }), recorded);
    expect(await planBmc(http, fakeDeps({}, false).deps)).toBeUndefined();
    expect(summaries(http.diagnostics)).toEqual(["error: Plain HTTP Redfish endpoint refused"]);
    expect(await planBmc(planReq(null, recorded), deps)).toBeUndefined();
  });

  it("validation wants a target with a boot override", () => {
    const r = { context: backgroundContext(), diagnostics: new Diagnostics() };
    validateBmc({ ...r, config: config({ boot_source_override_enabled: "Once", boot_source_override_target: null }) });
    expect(r.diagnostics.items.map((d) => formatPath(d.attribute))).toEqual(["boot_source_override_enabled"]);
    const ok = { context: backgroundContext(), diagnostics: new Diagnostics() };
    validateBmc({
      ...ok,
      config: config({ boot_source_override_enabled: UNKNOWN, boot_source_override_target: UNKNOWN }),
    });
    expect(ok.diagnostics.items).toEqual([]);
  });

  it("import takes the BMC's address or its system's URL", () => {
    const r = () => ({ context: backgroundContext(), diagnostics: new Diagnostics() });
    expect(importBmc({ ...r(), id: ` ${EP} ` })).toEqual({ id: EP, endpoint: EP, system_id: null });
    expect(importBmc({ ...r(), id: `${EP}/redfish/v1/Systems/System.Embedded.1` })).toEqual({
      id: `${EP}/redfish/v1/Systems/System.Embedded.1`,
      endpoint: EP,
      system_id: "System.Embedded.1",
    });
    const bad = r();
    expect(importBmc({ ...bad, id: "10.0.0.5" })).toBeUndefined();
    expect(summaries(bad.diagnostics)).toEqual(["error: Invalid import id for rackform_bmc"]);
  });
});
