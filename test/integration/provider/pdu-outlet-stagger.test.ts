/**
 * redfish.power_on_interval spaces power-ons per PDU (issue 12): a rack on two PDUs powers on both circuits side by
 * side, and on each PDU consecutive power-ons are the interval apart. The stagger's clock is driven by hand, so the
 * test reads from the lab's request log (each PDU's own record of the #Outlet.PowerControl it received) which
 * power-ons were sent at each instant of that clock — deterministic, whatever the machine's load.
 */
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nullObject } from "../../../src/framework/index.js";
import { type Lab, startLab } from "../../../src/lab/index.js";
import { type ProviderData, providerSchema } from "../../../src/provider/config/config.js";
import { rackformProvider } from "../../../src/provider/index.js";
import { pduOutletResource } from "../../../src/provider/resources/pdu-outlet.js";
import type { ProviderServer } from "../../../src/server/rpc.js";
import { configOf } from "../../support/kitchen-sink/engine-sim.js";
import { keepingData, planAndApply } from "../../support/provider-rpc.js";
import { until } from "../../support/until.js";

const INTERVAL_MS = 600;
const outletSchema = pduOutletResource().schema;

/** The stagger's clock: time moves only when the test says so. */
const clock = (() => {
  let t = 0;
  const timers: { at: number; wake: () => void }[] = [];
  return {
    now: () => t,
    sleep: (ms: number) => new Promise<void>((wake) => timers.push({ at: t + ms, wake })),
    pending: () => timers.length,
    /** Moves to the earliest timer and wakes every timer due then. */
    advance(): number {
      t = Math.min(...timers.map((x) => x.at));
      for (const x of timers.filter((y) => y.at <= t)) {
        timers.splice(timers.indexOf(x), 1);
        x.wake();
      }
      return t;
    },
  };
})();

let lab: Lab;
let srv: ProviderServer;
let data: () => ProviderData | undefined = () => undefined;

beforeAll(async () => {
  lab = await startLab({ nodes: 8, profile: "instant", stateDir: await mkdtemp(join(tmpdir(), "rf-stagger-")) });
  const provider = rackformProvider({
    timings: { readyPollMs: 20, backendPollMs: 20, memberPollMs: 20 },
    powerOnClock: { now: clock.now, sleep: clock.sleep },
  });
  const p = keepingData(provider);
  srv = p.srv;
  data = p.data;
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
  await data()?.closeSessions();
  await data()?.core.close();
  await lab?.close();
});

describe("power_on_interval per PDU", () => {
  it("powers on two PDUs' outlets side by side, each PDU's at least the interval apart", async () => {
    // GIVEN a rack of 8 nodes fed by two PDUs, every outlet off
    const pdus = lab.info.pdus.map((p) => p.id);
    expect(pdus).toHaveLength(2);
    const from = lab.requests.last();
    // WHEN every outlet is switched on at once, as the engine does with -parallelism ≥ 8
    const results = lab.info.nodes.map((n) => {
      const pdu = lab.info.pdus.find((p) => p.id === n.pdu)!;
      const config = configOf(outletSchema, {
        endpoint: pdu.url,
        pdu_id: pdu.id,
        outlet_id: String(n.outlet),
        power_state: "On",
      });
      return planAndApply(srv, "rackform_pdu_outlet", outletSchema, config);
    });
    // THEN at each instant of the stagger's clock exactly one outlet of each PDU is switched on
    const powerOns = () =>
      lab.requests.since(from).filter((e) => e.method === "POST" && e.path.endsWith("/Outlet.PowerControl"));
    const sentAt = new Map<number, string[]>();
    for (let k = 0; k < 4; k++) {
      const t = k === 0 ? clock.now() : clock.advance();
      await until(`2 power-ons by ${t} ms of the stagger's clock`, () => powerOns().length >= 2 * (k + 1), {
        everyMs: 10,
      });
      sentAt.set(
        t,
        powerOns()
          .slice(2 * k, 2 * k + 2)
          .map((e) => e.target ?? "?")
          .sort(),
      );
    }
    expect([...sentAt.entries()]).toEqual([0, 1, 2, 3].map((k) => [k * INTERVAL_MS, [...pdus].sort()]));
    // AND every outlet reports On, with no power-on beyond the eight
    const applied = await Promise.all(results);
    expect(powerOns()).toHaveLength(8);
    for (const r of applied) expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(applied.map((r) => (r.newState as { power_state?: string } | null)?.power_state)).toEqual(
      Array(8).fill("On"),
    );
  });
});
