/**
 * Re-addressing (issue 35) through the provider server in process against the lab: a BMC or PDU moved to another
 * address is an in-place update that keeps its id once the same system (or PDU and outlet) answers there; another
 * spelling of the address plans nothing; another system at the new address is named at plan and fails the apply with
 * nothing changed; plain http is refused at plan. The real engines and backends run the same in
 * test/e2e/day2-readdress.test.ts.
 */
import { mkdtemp } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Diagnostic, formatPath, nullObject, type ObjectValue } from "../../../src/framework/index.js";
import { type Lab, startLab } from "../../../src/lab/index.js";
import { type ProviderData, providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { planAndApply, planChange } from "../../support/provider-rpc.js";

let lab: Lab;
let srv: ProviderServer;
let data: ProviderData | undefined;
const schemaOf = (t: string) =>
  rackformProvider()
    .resources()
    .find((r) => r.typeName === t)!.schema;
const node = (name: string) => lab.info.nodes.find((n) => n.name === name)!;
const lines = (ds: readonly Diagnostic[]) =>
  ds.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}: ${d.detail}`).join("\n");

/** Moves a BMC (`/nodes/<name>/bmc/move`) or PDU (`/pdus/<id>/move`) through the control API; its new URL. */
async function move(path: string): Promise<string> {
  const r = await fetch(`${lab.info.control.url}${path}`, { method: "POST", body: "{}" });
  expect(r.status).toBe(200);
  return ((await r.json()) as { url: string }).url;
}

/** Whether a TCP connection to the URL's host and port is accepted. */
function accepts(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = connect({ host: u.hostname, port: Number(u.port) }, () => {
      s.destroy();
      resolve(true);
    });
    s.on("error", () => resolve(false));
  });
}

beforeAll(async () => {
  lab = await startLab({
    nodes: 3,
    profile: "instant",
    backends: false,
    stateDir: await mkdtemp(join(tmpdir(), "rf-lab-")),
  });
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  const provider = rackformProvider();
  const configure = provider.configure.bind(provider);
  srv = createServer({
    ...provider,
    async configure(req, resp) {
      await configure(req, resp);
      data = resp.resourceData as ProviderData;
    },
  });
  const { username, password } = lab.info.pdus[0];
  const redfish = { ...nullObject(providerSchema.blocks!.redfish.block), username, password, ca_file: lab.info.ca };
  const r = await srv.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, { redfish }) });
  expect(r.diagnostics).toEqual([]);
});
afterAll(async () => {
  await data?.core.close();
  await lab?.close();
});

describe("rackform_bmc re-addressed", () => {
  const T = "rackform_bmc";
  const bmc = (endpoint: string) => configOf(schemaOf(T), { endpoint });

  it("GIVEN a recorded BMC WHEN the address gains a trailing slash or the default port THEN nothing is planned", async () => {
    const url = node("r01-n01").bmc.url;
    const made = await planAndApply(srv, T, schemaOf(T), bmc(url));
    expect(lines(made.diagnostics)).toBe("");
    const state = made.newState as ObjectValue;
    expect(state.system_uuid).toBe(lab.world.node("r01-n01")!.uuid.toLowerCase());
    for (const spelling of [`${url}/`, `${url.toUpperCase().replace("HTTPS", "https")}/redfish/v1/`]) {
      const p = await planChange(srv, T, schemaOf(T), bmc(spelling), state);
      expect(p.plannedState, spelling).toEqual(state);
    }
  });

  it("GIVEN a BMC moved to a new port WHEN planned THEN an in-place update that keeps the id; the apply records the new address", async () => {
    const old = node("r01-n02").bmc.url;
    const made = await planAndApply(srv, T, schemaOf(T), bmc(old));
    const state = made.newState as ObjectValue;
    const moved = await move("/nodes/r01-n02/bmc/move");
    expect(moved).not.toBe(old);
    // The lab moved it: the old address refuses connections, the new one accepts them.
    expect([await accepts(old), await accepts(moved)]).toEqual([false, true]);
    const r = await planAndApply(srv, T, schemaOf(T), bmc(moved), state);
    expect(lines(r.plan.diagnostics)).toBe("");
    expect(r.plan.requiresReplace).toEqual([]);
    expect(lines(r.diagnostics)).toBe("");
    const after = r.newState as ObjectValue;
    expect(after.endpoint).toBe(moved);
    expect(after.id).toBe(state.id);
    expect([after.serial, after.system_uuid, after.macs]).toEqual([state.serial, state.system_uuid, state.macs]);
    // The refresh reads the node at its new address.
    const read = await srv.readResource({ typeName: T, currentState: after, private: new Uint8Array(0) });
    expect(lines(read.diagnostics)).toBe("");
    expect((read.newState as ObjectValue).conformant).toBe(true);
  });

  it("GIVEN another node's BMC at the new address THEN the plan warns naming both, and the apply fails changing nothing", async () => {
    const made = await planAndApply(srv, T, schemaOf(T), bmc(node("r01-n03").bmc.url));
    const state = made.newState as ObjectValue;
    const other = lab.world.node("r01-n01")!;
    const r = await planAndApply(srv, T, schemaOf(T), bmc(node("r01-n01").bmc.url), state);
    const planned = lines(r.plan.diagnostics);
    expect(planned).toContain("warning A different system answers at the new BMC address");
    expect(planned).toContain(`serial ${state.serial}`);
    expect(planned).toContain(`serial ${other.serial}`);
    expect(r.newState).toEqual(state);
    expect(r.diagnostics.map((d) => `${d.severity} ${d.summary} @ ${formatPath(d.attribute)}`)).toEqual([
      `error A different system answers at the new BMC address: ${node("r01-n01").bmc.url} @ endpoint`,
    ]);
    expect(r.diagnostics[0].detail).toContain("Nothing was changed.");
  });

  it("refuses plain http at plan, naming the attribute and the fix, before any request", async () => {
    const before = lab.requests.last();
    const p = await planChange(srv, T, schemaOf(T), bmc("http://127.10.1.1:8080"));
    expect(p.diagnostics.map((d) => `${d.severity} ${formatPath(d.attribute)}`)).toEqual(["error endpoint"]);
    expect(p.diagnostics[0].detail).toContain("allow_http");
    expect(lab.requests.last()).toBe(before);
  });
});

describe("rackform_pdu_outlet re-addressed", () => {
  const T = "rackform_pdu_outlet";
  const outlet = (endpoint: string, outlet_id = "1") =>
    configOf(schemaOf(T), { endpoint, outlet_id, power_state: "On" });

  /** Where the PDU answers now (a case moves it). */
  let pduUrl = "";

  it("GIVEN a PDU moved to a new port THEN an in-place update keeps the id; a trailing slash plans nothing", async () => {
    const pdu = lab.info.pdus[0];
    const made = await planAndApply(srv, T, schemaOf(T), outlet(pdu.url));
    expect(lines(made.diagnostics)).toBe("");
    const state = made.newState as ObjectValue;
    expect((await planChange(srv, T, schemaOf(T), outlet(`${pdu.url}/`), state)).plannedState).toEqual(state);
    const moved = await move(`/pdus/${pdu.id}/move`);
    pduUrl = moved;
    const r = await planAndApply(srv, T, schemaOf(T), outlet(moved), state);
    expect(lines(r.plan.diagnostics)).toBe("");
    expect(r.plan.requiresReplace).toEqual([]);
    expect(lines(r.diagnostics)).toBe("");
    expect((r.newState as ObjectValue).id).toBe(state.id);
    expect((r.newState as ObjectValue).endpoint).toBe(moved);
    const read = await srv.readResource({ typeName: T, currentState: r.newState, private: new Uint8Array(0) });
    expect(lines(read.diagnostics)).toBe("");
    expect((read.newState as ObjectValue).power_state).toBe("On");
  });

  it("GIVEN a BMC's address given as the PDU's new one THEN the apply fails naming both, and switches nothing", async () => {
    const pdu = lab.info.pdus[0];
    const current = (await planAndApply(srv, T, schemaOf(T), outlet(pduUrl || pdu.url, "2"))).newState;
    expect(current).not.toBeNull();
    const wrong = node("r01-n03").bmc.url;
    const r = await planAndApply(srv, T, schemaOf(T), outlet(wrong, "2"), current);
    expect(lines(r.plan.diagnostics)).toContain("warning A different PDU answers at the new address");
    expect(r.newState).toEqual(current);
    expect(lines(r.diagnostics)).toContain(`error A different PDU answers at the new address: ${wrong}`);
    expect(lines(r.diagnostics)).toContain(`outlet is 2 of rack PDU ${pdu.id}`);
  });
});

describe("rackform_inventory with a plain http:// row", () => {
  it("refuses that row (no request sent) and reads the others", async () => {
    const ds = rackformProvider().dataSources()[0];
    const https = node("r01-n01").bmc.url;
    const plain = node("r01-n03").bmc.url.replace("https://", "http://");
    const csv = `name,endpoint\r\nr01-n01,${https}\r\nr01-n03,${plain}\r\n`;
    const before = lab.requests.since(0).filter((e) => e.target === "r01-n03").length;
    const r = await srv.readDataSource({ typeName: "rackform_inventory", config: configOf(ds.schema, { csv }) });
    expect(lines(r.diagnostics)).toBe("");
    const rows = (r.state as ObjectValue).nodes as ObjectValue[];
    expect(rows.map((x) => [x.name, x.reachable])).toEqual([
      ["r01-n01", true],
      ["r01-n03", false],
    ]);
    expect(rows[1].error).toContain("allow_http");
    expect(lab.requests.since(0).filter((e) => e.target === "r01-n03").length).toBe(before);
  });
});
