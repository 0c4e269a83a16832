/**
 * The lab's `$expand` and ETags (DSP0266 "Query parameters" and "ETags"), read with the test's own HTTP client: what
 * each expand option expands and how deep, the service root's ExpandQuery, If-None-Match → 304, dead links left as
 * links, and the per-BMC switches (quirks no-expand-query, no-etags) that make a BMC behave as one without them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Quirk } from "../../../src/lab/world/quirks.js";
import { call, type Json, powerOutlet, startTestLab, systemPath, type TestLab } from "./lab-client.js";

let t: TestLab;
let bmc: string;
let sys: string;
const setQuirks = (q: Quirk[]) => {
  (t.lab.world.node(t.lab.info.nodes[0].name)!.spec as { quirks?: Quirk[] }).quirks = q;
};
const get = async (p: string, headers?: Record<string, string>) => call(t, bmc, "GET", p, { headers });
/** True when `v` is an expanded resource rather than a bare link. */
const expanded = (v: Json) => typeof v === "object" && v !== null && Object.keys(v).length > 1;

beforeAll(async () => {
  t = await startTestLab({ nodes: 1 });
  await powerOutlet(t, t.lab.info.nodes[0].name);
  bmc = t.lab.info.nodes[0].bmc.url;
  sys = await systemPath(t, bmc);
});
afterEach(() => setQuirks([]));
afterAll(async () => t?.stop());

describe("$expand", () => {
  it("the service root advertises every option and MaxLevels; a BMC without $expand advertises none", async () => {
    expect((await get("/redfish/v1")).body.ProtocolFeaturesSupported.ExpandQuery).toEqual({
      ExpandAll: true,
      Levels: true,
      Links: true,
      NoLinks: true,
      MaxLevels: 6,
    });
    setQuirks(["no-expand-query"]);
    expect((await get("/redfish/v1")).body.ProtocolFeaturesSupported.ExpandQuery).toBeUndefined();
  });

  it("'.' expands subordinate links and collection members, not Links; $levels bounds the depth", async () => {
    const one = (await get(`${sys}?$expand=.`)).body;
    expect(expanded(one.EthernetInterfaces)).toBe(true);
    expect(one.EthernetInterfaces.Members.every((m: Json) => !expanded(m))).toBe(true);
    expect(one.Links.Chassis.every((c: Json) => !expanded(c))).toBe(true);
    const two = (await get(`${sys}?$expand=.($levels=2)`)).body;
    expect(two.EthernetInterfaces.Members.every(expanded)).toBe(true);
    expect(two.EthernetInterfaces.Members.map((m: Json) => String(m.MACAddress).toLowerCase()).sort()).toEqual(
      t.lab.world
        .node(t.lab.info.nodes[0].name)!
        .ports.map((p) => p.mac.toLowerCase())
        .sort(),
    );
  });

  it("'~' expands only Links, '*' both", async () => {
    const links = (await get(`${sys}?$expand=~`)).body;
    expect(links.Links.Chassis.every(expanded)).toBe(true);
    expect(expanded(links.EthernetInterfaces)).toBe(false);
    const all = (await get(`${sys}?$expand=*`)).body;
    expect(all.Links.Chassis.every(expanded)).toBe(true);
    expect(expanded(all.EthernetInterfaces)).toBe(true);
  });

  it("a dead member link stays a link in the expansion (it answers 404 when followed)", async () => {
    setQuirks(["dead-member-links"]);
    const body = (await get(`${sys}?$expand=.($levels=2)`)).body;
    const dead = body.PCIeDevices.filter((d: Json) => !expanded(d));
    expect(dead.length).toBe(1);
    expect((await get(dead[0]["@odata.id"])).status).toBe(404);
  });

  it("fails a malformed $expand or $levels beyond MaxLevels with 400", async () => {
    expect((await get(`${sys}?$expand=Members`)).status).toBe(400);
    const r = await get(`${sys}?$expand=.($levels=7)`);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.body)).toContain("QueryParameterOutOfRange");
  });

  it("a BMC without $expand ignores the query and serves the plain resource", async () => {
    setQuirks(["no-expand-query"]);
    const r = await get(`${sys}?$expand=.($levels=3)`);
    expect(r.status).toBe(200);
    expect(expanded(r.body.EthernetInterfaces)).toBe(false);
  });
});

describe("ETags", () => {
  it("every resource has an ETag header equal to its @odata.etag, and If-None-Match with it answers 304 without a body", async () => {
    for (const p of ["/redfish/v1/Systems", sys, `${sys}/EthernetInterfaces`, `${sys}?$expand=.($levels=3)`]) {
      const r = await get(p);
      expect(r.headers.etag, p).toMatch(/^"[^"]+"$/);
      expect(r.body["@odata.etag"], p).toBe(r.headers.etag);
      const again = await get(p, { "if-none-match": r.headers.etag });
      expect(again.status, p).toBe(304);
      expect(again.body, p).toBeUndefined();
    }
  });

  it("the expanded System's ETag changes when only a child changes; the plain System's does not", async () => {
    const name = t.lab.info.nodes[0].name;
    const plain = (await get(sys)).headers.etag;
    const wide = (await get(`${sys}?$expand=.($levels=3)`)).headers.etag;
    const f = t.lab.world.faults.add({ kind: "missing-gpu", node: name, gpus: 1 });
    try {
      expect((await get(`${sys}?$expand=.($levels=3)`, { "if-none-match": wide })).status).toBe(200);
      expect((await get(sys)).headers.etag).toBe(plain);
    } finally {
      t.lab.world.faults.remove(f.id);
    }
  });

  it("a BMC without ETags sends none and ignores If-None-Match", async () => {
    const tag = (await get(sys)).headers.etag;
    setQuirks(["no-etags"]);
    const r = await get(sys, { "if-none-match": tag });
    expect(r.status).toBe(200);
    expect(r.headers.etag).toBeUndefined();
    expect(r.body["@odata.etag"]).toBeUndefined();
  });
});
