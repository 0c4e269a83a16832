// Contract: bodies the lab serves have the keys and JSON types of real MAAS bodies recorded by gomaasclient (MAAS 3.x),
// gomaasapi (MAAS 2.x) and MAAS's own API examples (../shared/fixtures/maas, see SOURCES.md there).
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createMachine, DELAYS, type Lab, startLab } from "../../integration/lab-maas/support.js";

const FIXTURES = process.env.RACKFORM_MAAS_FIXTURES ?? resolve(import.meta.dirname, "../../../../shared/fixtures/maas");

// biome-ignore lint/suspicious/noExplicitAny: recorded JSON of arbitrary shape
function fixture(path: string): any {
  const file = join(FIXTURES, path);
  if (!existsSync(file))
    throw new Error(
      `MAAS fixture ${file} is missing: these tests need ../shared/fixtures/maas (or RACKFORM_MAAS_FIXTURES)`,
    );
  return JSON.parse(readFileSync(file, "utf8"));
}

// Keys a recorded body has that the lab deliberately leaves out, with the reason.
const ABSENT_BY_DESIGN: Record<string, string> = {
  macaddress_set: "MAAS 2.0 only; MAAS 3.x (gomaasclient) no longer returns it — MACs are in interface_set",
  constraints_by_type:
    "only in allocate responses carrying storage/interface constraints, which the lab does not match",
  kflavor: "MAAS 2.x boot-resource field; MAAS 3.x dropped it",
};

// Fields whose recorded value is null or an object depending on the machine (the lab has no block devices or pod).
const NULLABLE = new Set([
  "boot_disk",
  "pod",
  "hwe_kernel",
  "min_hwe_kernel",
  "owner",
  "swap_size",
  "address_ttl",
  "current_installation_result_id",
  "current_commissioning_result_id",
  "current_testing_result_id",
  "last_deployed",
  "exit_status",
  "starttime",
  "endtime",
]);

// Fields recorded with different JSON types in different real bodies.
const VARYING_TYPE: Record<string, string> = {
  params: 'interface params: "" when never set, an object once set (gomaasclient interfaces.json has both)',
};

function jsonType(v: unknown): string {
  return v === null ? "null" : Array.isArray(v) ? "array" : typeof v;
}

/** Asserts `lab` has every key of `recorded` (bar documented absences) with the same JSON type; returns the lab's extras. */
function expectSameShape(lab: Record<string, unknown>, recorded: Record<string, unknown>, where: string): string[] {
  const missing = Object.keys(recorded).filter((k) => !(k in lab) && !(k in ABSENT_BY_DESIGN));
  expect(missing, `${where}: keys the lab does not return`).toEqual([]);
  const mismatched = Object.keys(recorded)
    .filter((k) => k in lab && !NULLABLE.has(k) && !(k in VARYING_TYPE))
    .filter((k) => jsonType(lab[k]) !== jsonType(recorded[k]) && recorded[k] !== null)
    .map((k) => `${k}: lab ${jsonType(lab[k])}, recorded ${jsonType(recorded[k])}`);
  expect(mismatched.join("; "), `${where}: keys whose JSON type differs`).toBe("");
  return Object.keys(lab).filter((k) => !(k in recorded));
}

let lab: Lab;
let systemId: string;
beforeAll(async () => {
  lab = await startLab();
  const m = await createMachine(lab, "shape-1", "52:54:00:50:00:01");
  systemId = m.system_id;
  await lab.clock.advance(DELAYS.commissionMs + DELAYS.testMs);
  await call(lab, "tags/", { method: "POST", form: { name: "gpu", comment: "c" } });
  await call(lab, "tags/gpu/", { method: "POST", op: "update_nodes", form: { add: systemId } });
});
afterAll(async () => lab.close());

describe("lab bodies match recorded MAAS bodies", () => {
  it("machine: same keys as gomaasclient machine.json and a superset of gomaasapi machineResponse", async () => {
    const body = (await call(lab, `machines/${systemId}/`)).json;
    expect(expectSameShape(body, fixture("gomaasclient/machine.json"), "gomaasclient machine")).toEqual([]);
    expectSameShape(body, fixture("gomaasapi/machineResponse.json"), "gomaasapi machine");
    // gomaasclient's machines.json holds a region+rack controller (version, service_set), so only machine.json is compared.
    const list = (await call(lab, "machines/")).json;
    expect(list[0]).toEqual(body);
  });

  it("interface: same keys as gomaasclient interface.json and gomaasapi interfaceResponse", async () => {
    const list = (await call(lab, `nodes/${systemId}/interfaces/`)).json;
    const one = (await call(lab, `nodes/${systemId}/interfaces/${list[0].id}/`)).json;
    expect(one).toEqual(list[0]);
    expect(expectSameShape(one, fixture("gomaasclient/interface.json"), "gomaasclient interface")).toEqual([]);
    expectSameShape(one, fixture("gomaasapi/interfaceResponse.json"), "gomaasapi interface");
    expectSameShape(
      one.vlan,
      fixture("gomaasclient/machine.json").interface_set[0].vlan,
      "gomaasclient interface.vlan",
    );
  });

  it("tag: same keys as gomaasapi tagsResponse", async () => {
    const tags = (await call(lab, "tags/")).json;
    expect(expectSameShape(tags[0], fixture("gomaasapi/tagsResponse.json")[0], "gomaasapi tag")).toEqual([]);
  });

  it("boot resource: list rows and the uploaded detail match gomaasclient and gomaasapi", async () => {
    const form = new FormData();
    form.set("name", "custom/shape");
    form.set("architecture", "amd64/generic");
    form.set("title", "Shape");
    form.set("base_image", "ubuntu/jammy");
    form.set("content", new Blob(["bytes"]), "root.tgz");
    const { API_KEY } = await import("../../integration/lab-maas/support.js");
    const { oauthHeader } = await import("../../support/maas-oauth.js");
    const up = await fetch(new URL("api/2.0/boot-resources/", lab.url), {
      method: "POST",
      body: form,
      headers: { Authorization: oauthHeader(API_KEY) },
    });
    const detail = await up.json();
    const recorded = fixture("gomaasclient/boot_resource.json");
    expect(expectSameShape(detail, recorded, "gomaasclient boot_resource")).toEqual([]);
    const set = Object.values(detail.sets)[0] as Record<string, unknown>;
    const recordedSet = Object.values(recorded.sets)[0] as Record<string, unknown>;
    expectSameShape(set, recordedSet, "boot_resource set");
    expectSameShape(
      Object.values(set.files as object)[0],
      Object.values(recordedSet.files as object)[0],
      "boot_resource file",
    );

    const rows = (await call(lab, "boot-resources/")).json as Array<Record<string, unknown>>;
    const recordedRows = fixture("gomaasclient/boot_resources.json") as Array<Record<string, unknown>>;
    const synced = rows.find((r) => r.type === "Synced")!;
    const uploaded = rows.find((r) => r.type === "Uploaded")!;
    expect(expectSameShape(synced, recordedRows.find((r) => r.type === "Synced")!, "synced row")).toEqual([]);
    expect(expectSameShape(uploaded, recordedRows.find((r) => r.type === "Uploaded")!, "uploaded row")).toEqual([]);
    expectSameShape(synced, fixture("gomaasapi/bootResourcesResponse.json")[0], "gomaasapi boot resource");
  });

  it("event query: same envelope and row keys as MAAS's events example", async () => {
    const body = (await call(lab, "events/", { op: "query" })).json;
    const recorded = fixture("maas-server/api-examples/events.json")["events-query"];
    expect(expectSameShape(body, recorded, "events envelope")).toEqual([]);
    expect(expectSameShape(body.events[0], recorded.events[0], "event")).toEqual([]);
  });

  it("script results: same keys as gomaasclient node_results.json", async () => {
    const sets = (await call(lab, `nodes/${systemId}/results/`, { form: { include_output: "1" } })).json;
    const recorded = fixture("gomaasclient/node_results.json");
    expect(expectSameShape(sets[0], recorded[0], "result set")).toEqual([]);
    expect(expectSameShape(sets[0].results[0], recorded[0].results[0], "script result")).toEqual([]);
  });

  it("version and whoami: same keys as MAAS's API examples", async () => {
    const version = (await call(lab, "version/")).json;
    expect(expectSameShape(version, fixture("maas-server/api-examples/version.json").version, "version")).toEqual([]);
    const me = (await call(lab, "users/", { op: "whoami" })).json;
    expect(expectSameShape(me, fixture("maas-server/api-examples/users.json").whoami, "whoami")).toEqual([]);
  });

  it("status ids and names agree with derived/enums.json", async () => {
    const { NodeStatus, statusName } = await import("../../../src/lab/maas/index.js");
    const enums = fixture("derived/enums.json").node_status as Array<{
      status: number;
      enum: string;
      status_name: string;
    }>;
    for (const e of enums) {
      expect(NodeStatus[e.enum as keyof typeof NodeStatus], e.enum).toBe(e.status);
      expect(statusName(e.status)).toBe(e.status_name);
    }
  });
});
