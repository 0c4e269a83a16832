/**
 * redfish.power_on_interval spaces power-ons per PDU (issue 12): a rack on two PDUs powers on both circuits side by
 * side, and on each PDU consecutive power-ons reach the PDU at least the interval apart. Read from the lab's request
 * log (the PDU's own record of when each #Outlet.PowerControl arrived), with a long injected interval so that the
 * spacing the provider asks for dwarfs loopback latency.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nullObject } from "../../../src/framework/index.js";
import { type Lab, startLab } from "../../../src/lab/index.js";
import { type ProviderData, providerSchema } from "../../../src/provider/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { pduOutletResource } from "../../../src/provider/resources/pdu-outlet.js";
import { createServer } from "../../../src/server/create-server.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { planAndApply } from "../../support/provider-rpc.js";

const INTERVAL_MS = 600;
/** Loopback latency differences between two requests, and the log's millisecond rounding. */
const LATENCY_SLACK_MS = 60;
const outletSchema = pduOutletResource().schema;

let lab: Lab;
let srv: ProviderServer;
let data: ProviderData | undefined;

beforeAll(async () => {
  lab = await startLab({ nodes: 8, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-stagger-")) });
  const provider = rackformProvider({ timings: { readyPollMs: 20, backendPollMs: 20, memberPollMs: 20 } });
  const configure = provider.configure.bind(provider);
  srv = createServer({
    ...provider,
    async configure(req, resp) {
      await configure(req, resp);
      data = resp.resourceData as ProviderData;
    },
  });
  const { username, password } = lab.info.pdus[0];
  const redfish = {
    ...nullObject(providerSchema.blocks!.redfish.block),
    username,
    password,
    ca_file: lab.info.ca,
    power_on_interval: `${INTERVAL_MS}ms`,
  };
  const r = await srv.configureProvider({ terraformVersion: "1.11.4", config: configOf(providerSchema, { redfish }) });
  expect(r.diagnostics).toEqual([]);
});

afterAll(async () => {
  await data?.closeSessions();
  await data?.core.close();
  await lab?.close();
});

describe("power_on_interval per PDU", () => {
  it("powers on two PDUs' outlets side by side, each PDU's at least the interval apart", async () => {
    // GIVEN a rack of 8 nodes fed by two PDUs, every outlet off
    const pdus = lab.info.pdus.map((p) => p.id);
    expect(pdus).toHaveLength(2);
    const from = lab.requests.last();
    // WHEN every outlet is switched on at once, as the engine does with -parallelism ≥ 8
    const results = await Promise.all(
      lab.info.nodes.map((n) => {
        const pdu = lab.info.pdus.find((p) => p.id === n.pdu)!;
        const config = configOf(outletSchema, {
          endpoint: pdu.url,
          pdu_id: pdu.id,
          outlet_id: String(n.outlet),
          power_state: "On",
        });
        return planAndApply(srv, "rackform_pdu_outlet", outletSchema, config);
      }),
    );
    for (const r of results) expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    // THEN the PDUs' logs hold 4 power-ons each
    const powerOns = lab.requests
      .since(from)
      .filter((e) => e.method === "POST" && e.path.endsWith("/Outlet.PowerControl"));
    const at = (pdu: string) => powerOns.filter((e) => e.target === pdu).map((e) => Date.parse(e.time));
    const [a, b] = pdus.map(at);
    expect([a.length, b.length]).toEqual([4, 4]);
    // AND on each PDU consecutive power-ons are the interval apart
    for (const times of [a, b]) {
      for (let i = 1; i < times.length; i++)
        expect(times[i] - times[i - 1]).toBeGreaterThan(INTERVAL_MS - LATENCY_SLACK_MS);
    }
    // AND the circuits run in parallel: the k-th power-on of one PDU comes within an interval of the other's k-th
    // (a stagger across the whole run would put them an interval apart and need 7 intervals for 8 outlets)
    for (let k = 0; k < 4; k++) expect(Math.abs(a[k] - b[k])).toBeLessThan(INTERVAL_MS - LATENCY_SLACK_MS);
  });
});
