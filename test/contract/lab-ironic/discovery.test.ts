/**
 * Start-up and post-inspection reads (issue #14, items F and H), sent unchanged to the lab Ironic and Debian's real
 * Ironic 21.4: GET /v1/conductors (1.49, ironic/api/controllers/v1/conductor.py), GET /v1/drivers
 * (driver.py), GET /v1/nodes/{ident}/inventory (1.81, node.py NodeInventoryController). Run-specific parts (base URL,
 * timestamps, database ids) are replaced by placeholders; everything else must be equal.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createIronicApi } from "../../../src/lab/ironic/index.js";
import { call } from "../../integration/lab-ironic/support.js";
import { sharedRealIronic } from "../../support/shared-counterparts.js";

type Answers = Record<string, { status: number; body: unknown }>;

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+00:00$/;

function normalise(base: string, v: unknown): unknown {
  const text = JSON.stringify(v ?? null)
    .split(base)
    .join("BASE")
    .replace(/for node \d+ could/g, "for node ID could");
  return JSON.parse(text, (_k, x) => (typeof x === "string" && ISO.test(x) ? "TIME" : x));
}

async function ask(base: string): Promise<Answers> {
  const out: Answers = {};
  const get = async (key: string, path: string, version = "1.82") => {
    const r = await call(base, "GET", path, { version });
    out[key] = { status: r.status, body: normalise(base, r.json) };
  };
  await get("conductors", "/v1/conductors");
  await get("conductorsDetail", "/v1/conductors?detail=true");
  await get("conductor", "/v1/conductors/localhost");
  await get("conductorUnknown", "/v1/conductors/nope");
  await get("conductorsTooOld", "/v1/conductors", "1.48");
  await get("drivers", "/v1/drivers");
  await get("driversClassic", "/v1/drivers?type=classic");
  await get("driversDetail", "/v1/drivers?detail=true");
  await get("driver", "/v1/drivers/fake-hardware");
  await get("driverUnknown", "/v1/drivers/nope");
  const created = await call(base, "POST", "/v1/nodes", { body: { driver: "fake-hardware" } });
  const uuid = created.json.uuid as string;
  await get("inventoryNone", `/v1/nodes/${uuid}/inventory`);
  await get("inventoryTooOld", `/v1/nodes/${uuid}/inventory`, "1.80");
  await get("inventoryUnknownNode", "/v1/nodes/nope/inventory");
  await call(base, "DELETE", `/v1/nodes/${uuid}`);
  return out;
}

let real: Answers;
let lab: Answers;

beforeAll(async () => {
  const ironic = await sharedRealIronic();
  const api = createIronicApi();
  const server = await api.listen("127.0.0.1", 0);
  try {
    [real, lab] = await Promise.all([ask(ironic.url), ask(server.url)]);
  } finally {
    ironic.release();
    api.stop();
    await server.close();
  }
}, 300_000);

describe("lab Ironic vs Debian's Ironic 21.4: conductors, drivers, inventory", () => {
  it.each([
    "conductors",
    "conductorsDetail",
    "conductor",
    "conductorUnknown",
    "conductorsTooOld",
    "drivers",
    "driversClassic",
    "driverUnknown",
    "inventoryNone",
    "inventoryTooOld",
    "inventoryUnknownNode",
  ])("answers %s the same", (key) => {
    expect(lab[key]).toEqual(real[key]);
  });

  it("lists the conductor alive with both hardware types, as clients check at start-up", () => {
    expect(lab.conductorsDetail.body).toMatchObject({
      conductors: [{ hostname: "localhost", alive: true, drivers: ["fake-hardware", "redfish"] }],
    });
  });

  // The enabled interface lists depend on ironic.conf (the real test conductor enables extra no-* ones), and 21.4
  // emits the default_*/enabled_* pairs in Python set order (it differs between runs); the keys and the defaults of
  // fake-hardware must agree.
  it("describes a driver in detail with the same keys and fake-hardware's defaults", () => {
    const l = lab.driver.body as Record<string, unknown>;
    const r = real.driver.body as Record<string, unknown>;
    expect(Object.keys(l).sort()).toEqual(Object.keys(r).sort());
    for (const k of Object.keys(r).filter((x) => x.startsWith("default_"))) expect(l[k], k).toEqual(r[k]);
    const names = (a: Answers) => (a.driversDetail.body as { drivers: { name: string }[] }).drivers.map((d) => d.name);
    expect(names(lab)).toEqual(names(real));
  });
});
