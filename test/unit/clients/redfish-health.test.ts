/**
 * Passive health from the inventory read (clients/redfish/health.ts), on the DMTF public-rackmount1 mockup with
 * statuses changed as a BMC changes them when a component fails: a CPU or GPU, a network interface and a memory module
 * reported Warning or Critical are findings; a healthy system has none and reads no module for it.
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { RedfishClient } from "../../../src/clients/redfish/client.js";
import { finding, healthOf, memoryFindings } from "../../../src/clients/redfish/health.js";
import { type MockupServer, requireFixtures, startMockup } from "../../support/clients/mockup-server.js";

const SYS = "/redfish/v1/Systems/437XR1138R2";
const servers: MockupServer[] = [];
const clients: RedfishClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve() {
  const server = await startMockup(join(requireFixtures(), "dmtf", "mockups", "public-rackmount1"));
  servers.push(server);
  const client = new RedfishClient({ baseUrl: server.url, username: "admin", password: "secret" });
  clients.push(client);
  return { server, client };
}

const sick =
  (health: string, rollup = health) =>
  (j: Record<string, unknown>) => ({
    ...j,
    Status: { State: "Enabled", Health: health, HealthRollup: rollup },
  });

describe("component health in the inventory", () => {
  it("a healthy system has no findings, and its memory modules are not read for it", async () => {
    const { server, client } = await serve();
    const inv = await client.inventory();
    expect(inv.health).toEqual([]);
    expect(server.seen.filter((s) => s.path.includes("/Memory/DIMM"))).toEqual([]);
  });

  it("names each component its BMC reports Warning or Critical, by kind", async () => {
    const { server, client } = await serve();
    server.override(`${SYS}/Processors/CPU2`, sick("Critical"));
    server.override(`${SYS}/EthernetInterfaces/12446A3B8890`, sick("Warning"));
    server.override(`${SYS}/Memory/DIMM3`, sick("Critical"));
    server.override(SYS, (j) => ({
      ...j,
      MemorySummary: {
        ...(j.MemorySummary as object),
        Status: { State: "Enabled", Health: "OK", HealthRollup: "Critical" },
      },
    }));
    const inv = await client.inventory();
    expect(inv.health).toEqual([
      { kind: "cpu", id: `${SYS}/Processors/CPU2`, name: expect.any(String), health: "Critical" },
      { kind: "memory", id: `${SYS}/Memory/DIMM3`, name: expect.any(String), health: "Critical" },
      { kind: "nic", id: `${SYS}/EthernetInterfaces/12446A3B8890`, name: expect.any(String), health: "Warning" },
    ]);
  });
});

describe("health parsing", () => {
  it("reads Health, or HealthRollup for a rollup; anything but Warning or Critical is OK", () => {
    expect(healthOf({ Status: { Health: "Critical" } })).toBe("Critical");
    expect(healthOf({ Status: { Health: "OK", HealthRollup: "Warning" } })).toBeUndefined();
    expect(healthOf({ Status: { Health: "OK", HealthRollup: "Warning" } }, true)).toBe("Warning");
    expect(healthOf({ Status: { Health: null } })).toBeUndefined();
    expect(healthOf({})).toBeUndefined();
    expect(finding("gpu", { "@odata.id": "/x/GPU1", Id: "GPU1", Status: { Health: "OK" } })).toEqual([]);
  });

  it("falls back to the memory summary when no module says which one failed", () => {
    const system = { "@odata.id": SYS, MemorySummary: { Status: { Health: "OK", HealthRollup: "Warning" } } };
    expect(memoryFindings(system, [{ "@odata.id": `${SYS}/Memory/DIMM1`, Status: { Health: "OK" } }])).toEqual([
      { kind: "memory", id: `${SYS}#/MemorySummary`, name: "MemorySummary", health: "Warning" },
    ]);
  });
});

describe("the refresh's content hash", () => {
  it("ignores the clock of a LogService or Manager expanded into a System, and every ETag, but not a new entry", async () => {
    const { hashOf } = await import("../../../src/clients/redfish/expand.js");
    const system = (dateTime: string, entries: string[]) => ({
      "@odata.id": SYS,
      "@odata.etag": `"${dateTime}"`,
      LogServices: {
        Members: [
          {
            "@odata.type": "#LogService.v1_9_0.LogService",
            "@odata.etag": `"${dateTime}"`,
            DateTime: dateTime,
            DateTimeLocalOffset: "+00:00",
            Entries: { Members: entries.map((Id) => ({ "@odata.type": "#LogEntry.v1_21_0.LogEntry", Id })) },
          },
        ],
      },
      // A System's own DateTime-like field stays part of the content.
      LastResetTime: "2026-11-27T08:00:00Z",
    });
    const a = hashOf(system("2026-11-27T09:00:00Z", ["1"]));
    expect(hashOf(system("2026-11-27T09:00:07Z", ["1"]))).toBe(a);
    expect(hashOf(system("2026-11-27T09:00:07Z", ["1", "2"]))).not.toBe(a);
    expect(hashOf({ ...system("2026-11-27T09:00:00Z", ["1"]), LastResetTime: "2026-11-27T08:30:00Z" })).not.toBe(a);
  });
});
