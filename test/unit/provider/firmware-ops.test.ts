/**
 * rackform_firmware's pure parts and its plan: what the inventory says about a baseline, the ref that moves only when
 * the node must be reset, settings typed by the registry, and the plan of a converged, drifted or new node.
 */
import { describe, expect, it } from "vitest";
import type { BiosState } from "../../../src/clients/redfish/index.js";
import { isUnknownValue, UNKNOWN } from "../../../src/framework/index.js";
import type { FirmwareDeps } from "../../../src/provider/resources/firmware-deps.js";
import {
  nextRef,
  refOf,
  settingsToWrite,
  typedSettings,
  updateOrder,
  versionsOf,
} from "../../../src/provider/resources/firmware-model.js";
import { PRIVATE_VERIFIED, planFirmware, readFirmware } from "../../../src/provider/resources/firmware-ops.js";
import type { FirmwareState } from "../../../src/provider/resources/firmware-schema.js";
import type { FirmwareSighting } from "../../../src/provider/shared/host-sightings.js";
import { diagnosticLines, typedRequest } from "../../support/typed-request.js";

const SHA = "a".repeat(64);
const target = (version: string) => ({ version, url: "http://img/x.bin", sha256: SHA });
const inventory = [
  { id: "Installed-159-BIOS", name: "BIOS", version: "2.1" },
  { id: "Installed-25227-iDRAC", name: "iDRAC firmware", version: "7.10" },
];

/** A recorded baseline converged on the node at `endpoint`: BIOS 2.3, SR-IOV on. */
function stateAt(endpoint: string): FirmwareState {
  const base = refOf(endpoint, { BIOS: target("2.3") }, { Sriov: "Enabled" });
  return {
    id: endpoint,
    endpoint,
    components: { BIOS: target("2.3") },
    bios: { Sriov: "Enabled" },
    rolling: true,
    versions: { BIOS: "2.3" },
    bios_settings: { Sriov: "Enabled" },
    bios_pending: {},
    ref: `${base}/1`,
    update_order: ["BIOS"],
    last_update_messages: [],
    secure_boot: null,
    secure_boot_status: null,
    timeouts: null,
  };
}

describe("rackform_firmware's model", () => {
  it("reads the version each baseline component runs, leaving out a component the node lacks", () => {
    const base = { BIOS: target("2.3"), "iDRAC firmware": target("7.10"), Frobnicator: target("1") };
    expect(versionsOf(inventory, base)).toEqual({ BIOS: "2.1", "iDRAC firmware": "7.10" });
  });

  it("orders updates BMC first, then BIOS, then devices", () => {
    const base = { "NIC firmware": target("1"), BIOS: target("2"), "iDRAC firmware": target("3") };
    expect(updateOrder(base)).toEqual(["iDRAC firmware", "BIOS", "NIC firmware"]);
  });

  it("keys the ref on the baseline, not its spelling, and counts the applies that changed the node", () => {
    const a = refOf("https://b", { BIOS: target("2"), NIC: target("1") }, { X: "1", Y: "2" });
    const b = refOf("https://b", { NIC: target("1"), BIOS: target("2") }, { Y: "2", X: "1" });
    expect(a).toBe(b);
    expect(refOf("https://b", { BIOS: target("3") }, {})).not.toBe(a);
    expect(nextRef(null, a)).toBe(`${a}/1`);
    expect(nextRef(`${a}/4`, a)).toBe(`${a}/5`);
  });

  it("types settings as the registry does and writes only those that differ", () => {
    const bios = { attributes: { Numa: 1, Sriov: "Disabled", Turbo: true } } as unknown as BiosState;
    const typed = typedSettings({ Numa: "2", Sriov: "Enabled", Turbo: "true" }, bios, undefined);
    expect(typed).toEqual({ Numa: 2, Sriov: "Enabled", Turbo: true });
    expect(settingsToWrite(typed, bios)).toEqual({ Numa: 2, Sriov: "Enabled" });
  });
});

describe("rackform_firmware's plan", () => {
  const deps = { allowHttp: false } as FirmwareDeps;
  const endpoint = "https://10.0.0.5";
  const base = refOf(endpoint, { BIOS: target("2.3") }, { Sriov: "Enabled" });
  const state = stateAt(endpoint);

  const computedUnknown = { versions: UNKNOWN, bios_settings: UNKNOWN, bios_pending: UNKNOWN, ref: UNKNOWN };
  const planOf = (st: FirmwareState | null, cfg: Partial<FirmwareState> = {}) => {
    const p = { ...state, ...cfg, ...computedUnknown, last_update_messages: UNKNOWN };
    const r = { ...typedRequest(), config: p, plan: p, state: st, private: {} };
    return { out: planFirmware(r, deps), r };
  };

  it("a converged node keeps its ref and values: nothing to reset, no member rolls", () => {
    const { out } = planOf(state);
    expect(out?.plan).toMatchObject({ ref: state.ref, versions: state.versions, bios_settings: state.bios_settings });
  });

  it("a drifted node moves to the baseline with the next ref; a new component is known after apply", () => {
    const { out } = planOf({ ...state, versions: { BIOS: "2.1" }, bios_settings: { Sriov: "Disabled" } });
    expect(out?.plan).toMatchObject({
      ref: `${base}/2`,
      versions: { BIOS: "2.3" },
      bios_settings: { Sriov: "Enabled" },
    });
    const added = planOf(state, { components: { BIOS: target("2.3"), NIC: target("1") } });
    expect(isUnknownValue(added.out?.plan?.versions)).toBe(true);
  });

  it("a new resource plans the first ref; settings staged by someone else are a warning", () => {
    expect(planOf(null).out?.plan?.ref).toBe(`${base}/1`);
    const { r } = planOf({ ...state, bios_pending: { BootMode: "Bios" } });
    expect(diagnosticLines(r.diagnostics)).toEqual(["warning BIOS settings staged outside rackform @ bios_pending"]);
  });

  it("plain http is refused at plan without redfish.allow_http", () => {
    const { r } = planOf(null, { endpoint: "http://10.0.0.5" });
    expect(diagnosticLines(r.diagnostics)[0]).toMatch(/^error .* @ endpoint$/);
  });
});

describe("rackform_firmware's refresh", () => {
  const endpoint = "https://10.0.0.5";
  const st = stateAt(endpoint);
  /** Deps whose BMC logs every read, and a sighting as rackform_bmc's read left it. */
  function depsSeeing(seen: FirmwareSighting | undefined) {
    const calls: string[] = [];
    const logged =
      <T>(what: string, v: T) =>
      async () => {
        calls.push(what);
        return v;
      };
    const bmc = {
      firmwareInventory: logged("inventory", [{ id: "BIOS", name: "BIOS", version: "2.1" }]),
      getSystem: logged("system", { powerState: "On" }),
      bios: () => ({ read: logged("bios", { attributes: { Sriov: "Disabled" }, pending: {} }) }),
    };
    const deps = { bmc: () => bmc, sightings: { firmwareOf: () => seen } } as unknown as FirmwareDeps;
    return { deps, calls };
  }

  it("a node its BMC's read found unchanged keeps what was read from it, with no request", async () => {
    const { deps, calls } = depsSeeing("unchanged");
    const out = await readFirmware({ ...typedRequest({ [PRIVATE_VERIFIED]: true }), state: st }, deps);
    expect([out, calls]).toEqual([st, []]);
  });

  it("values only staged for the member are read from the node even when the BMC looks unchanged", async () => {
    const { deps, calls } = depsSeeing("unchanged");
    const r = { ...typedRequest({ [PRIVATE_VERIFIED]: false }), state: st };
    const out = await readFirmware(r, deps);
    expect([out?.versions, out?.bios_settings, calls]).toEqual([
      { BIOS: "2.1" },
      { Sriov: "Disabled" },
      ["inventory", "system", "bios"],
    ]);
    expect(r.private.value[PRIVATE_VERIFIED]).toBe(true);
  });

  it("a changed node is read from the BMC's own read: inventory and expanded Bios, no request", async () => {
    const seen = { firmware: [{ id: "BIOS", name: "BIOS", version: "2.1" }], bios: { Sriov: "Disabled" } };
    const { deps, calls } = depsSeeing(seen);
    const out = await readFirmware({ ...typedRequest(), state: st }, deps);
    expect([out?.versions, out?.bios_settings, calls]).toEqual([{ BIOS: "2.1" }, { Sriov: "Disabled" }, []]);
  });
});
