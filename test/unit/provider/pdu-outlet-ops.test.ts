import { describe, expect, it } from "vitest";
import { HttpConnectError, RackformClientError } from "../../../src/clients/errors.js";
import type { OutletState } from "../../../src/clients/redfish/index.js";
import { backgroundContext, Diagnostics, UNKNOWN } from "../../../src/framework/index.js";
import {
  createOutlet,
  deleteOutlet,
  importOutlet,
  type OutletClient,
  type PduOutletDeps,
  planOutlet,
  readOutlet,
  updateOutlet,
} from "../../../src/provider/resources/pdu-outlet-ops.js";
import type { PduOutletPlan, PduOutletState } from "../../../src/provider/resources/pdu-outlet-schema.js";

const URL_7 = "https://10.0.0.9/redfish/v1/PowerEquipment/RackPDUs/p1/Outlets/7";

/** A PDU service with PDUs `pdus`, each with outlets "7" and "8"; records what it was asked. */
function fakeDeps(pdus = ["p1"], allowHttp = false) {
  const power = new Map<string, string>();
  const calls: string[] = [];
  const outlet = (pdu: string, id: string): OutletState => {
    if (!pdus.includes(pdu) || !["7", "8"].includes(id))
      throw new RackformClientError("RACKFORM_ERR_REDFISH_NOT_FOUND", `no outlet ${id} of ${pdu}`);
    return {
      id,
      odataId: `/redfish/v1/PowerEquipment/RackPDUs/${pdu}/Outlets/${id}`,
      name: `Outlet ${id}`,
      powerState: power.get(`${pdu}/${id}`) ?? "Off",
    };
  };
  const client = (origin: string): OutletClient => ({
    origin,
    listPdus: async () => pdus.map((id) => ({ id, odataId: `/redfish/v1/PowerEquipment/RackPDUs/${id}` })),
    getOutlet: async (pdu, id) => outlet(pdu, id),
    getOutletAt: async (p) => {
      calls.push(`GET ${p}`);
      const m = /RackPDUs\/([^/]+)\/Outlets\/([^/]+)/.exec(p)!;
      return outlet(m[1], m[2]);
    },
    setOutletPower: async (pdu, id, s) => {
      calls.push(`${s} ${origin} ${pdu}/${id}`);
      power.set(`${pdu}/${id}`, s);
      return outlet(pdu, id);
    },
  });
  const deps: PduOutletDeps = {
    allowHttp,
    redfishClient: client,
    powerOnTurn: async (origin, pdu) => void calls.push(`turn ${origin} ${pdu}`),
  };
  return { deps, calls, power };
}

const req = () => ({ context: backgroundContext(), diagnostics: new Diagnostics() });

const plan = (o: Partial<PduOutletPlan> = {}): PduOutletPlan => ({
  id: UNKNOWN,
  endpoint: "https://10.0.0.9",
  pdu_id: UNKNOWN,
  outlet_id: "7",
  power_state: "On",
  power_state_on_destroy: "Unchanged",
  name: UNKNOWN,
  timeouts: null,
  ...o,
});

const recorded: PduOutletState = {
  id: URL_7,
  endpoint: "https://10.0.0.9",
  pdu_id: "p1",
  outlet_id: "7",
  power_state: "On",
  power_state_on_destroy: "Off",
  name: "Outlet 7",
  timeouts: null,
};

describe("rackform_pdu_outlet handlers with fake deps", () => {
  it("create switches the outlet on after its power-on turn and records the discovered PDU", async () => {
    const { deps, calls } = fakeDeps();
    const r = req();
    const s = await createOutlet({ ...r, plan: plan() }, deps);
    expect(r.diagnostics.items).toEqual([]);
    expect(s).toEqual({ ...recorded, power_state_on_destroy: "Unchanged" });
    expect(calls).toEqual(["turn https://10.0.0.9 p1", "On https://10.0.0.9 p1/7"]);
  });

  it("create asks for pdu_id when the service has several PDUs, and refuses http without allow_http", async () => {
    const r = req();
    expect(await createOutlet({ ...r, plan: plan() }, fakeDeps(["a", "b"]).deps)).toBeUndefined();
    expect(r.diagnostics.items.map((d) => d.summary)).toEqual(["Cannot choose the rack PDU"]);
    const r2 = req();
    expect(await createOutlet({ ...r2, plan: plan({ endpoint: "http://10.0.0.9" }) }, fakeDeps().deps)).toBeUndefined();
    expect(r2.diagnostics.hasError()).toBe(true);
  });

  it("read is one GET of the recorded URL, and null when the outlet is gone", async () => {
    const { deps, calls, power } = fakeDeps();
    power.set("p1/7", "Off");
    expect(await readOutlet({ ...req(), state: recorded }, deps)).toEqual({ ...recorded, power_state: "Off" });
    expect(calls).toEqual([`GET ${new URL(URL_7).pathname}`]);
    expect(
      await readOutlet({ ...req(), state: { ...recorded, id: URL_7.replace("/7", "/9"), outlet_id: "9" } }, deps),
    ).toBeNull();
  });

  it("read keeps the recorded state: a warning when the PDU does not answer, an error when it refuses", async () => {
    const { deps } = fakeDeps();
    const down = (e: Error): PduOutletDeps => ({
      ...deps,
      redfishClient: (o) => ({ ...deps.redfishClient(o), getOutletAt: () => Promise.reject(e) }),
    });
    const r = req();
    expect(await readOutlet({ ...r, state: recorded }, down(new HttpConnectError("connect ECONNREFUSED", {})))).toBe(
      recorded,
    );
    expect(r.diagnostics.items.map((d) => d.severity)).toEqual(["warning"]);
    const r2 = req();
    const refused = new RackformClientError("RACKFORM_ERR_HTTP_STATUS", "401 Unauthorized", { status: 401 });
    expect(await readOutlet({ ...r2, state: recorded }, down(refused))).toBe(recorded);
    expect(r2.diagnostics.items.map((d) => d.severity)).toEqual(["error"]);
  });

  it("update to an address serving another PDU keeps the recorded state and switches nothing", async () => {
    const { deps, calls } = fakeDeps(["other"]);
    const r = req();
    const p = plan({ ...recorded, endpoint: "https://10.0.0.10", power_state: "Off" });
    expect(await updateOutlet({ ...r, plan: p, state: recorded }, deps)).toBe(recorded);
    expect(r.diagnostics.items.map((d) => d.summary)).toEqual([
      "A different PDU answers at the new address: https://10.0.0.10",
    ]);
    expect(calls).toEqual([]);
  });

  it("delete cuts power only when power_state_on_destroy is Off", async () => {
    const { deps, calls, power } = fakeDeps();
    power.set("p1/7", "On");
    await deleteOutlet({ ...req(), state: { ...recorded, power_state_on_destroy: "Unchanged" } }, deps);
    expect(calls).toEqual([]);
    await deleteOutlet({ ...req(), state: recorded }, deps);
    expect(calls).toEqual(["Off https://10.0.0.9 p1/7"]);
  });

  it("plan warns about another PDU at a new address; import parses the outlet URL", async () => {
    const r = req();
    await planOutlet(
      { ...r, plan: { ...recorded, endpoint: "https://10.0.0.10" }, state: recorded },
      fakeDeps(["x"]).deps,
    );
    expect(r.diagnostics.items.map((d) => d.severity)).toEqual(["warning"]);
    expect(importOutlet({ ...req(), id: ` ${URL_7} ` })).toEqual({
      id: URL_7,
      endpoint: "https://10.0.0.9",
      pdu_id: "p1",
      outlet_id: "7",
      power_state_on_destroy: "Unchanged",
    });
    const bad = req();
    expect(importOutlet({ ...bad, id: "7" })).toBeUndefined();
    expect(bad.diagnostics.hasError()).toBe(true);
  });
});
