/**
 * The event log as findings (clients/redfish/log-entries.ts, log-findings.ts). Real payloads where the fixtures have
 * them: the DMTF mockups' LogEntry collections (public-rackmount1 Log1's SEL temperature entries, public-tower's
 * Manager log, the DSP2046 LogEntry example), read over HTTP from the mockup server. No vendor's own LogEntry payload
 * is among the fixtures: the vendor rows are checked on entries shaped as their sources give them (the OpenBMC
 * registry's MessageIds and texts, the NVIDIA nsmd XID event's MessageArgs, Dell EEMI ids, IPMI SEL sensor types).
 */
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { HttpStatusError } from "../../../src/clients/errors.js";
import { RedfishClient } from "../../../src/clients/redfish/client.js";
import { compareIds, entriesOf, parseLogEntry, readLogSince } from "../../../src/clients/redfish/log-entries.js";
import { logFinding, logFindingRows } from "../../../src/clients/redfish/log-findings.js";
import type { RedfishTransport } from "../../../src/clients/redfish/transport.js";
import type { LogEntryRecord } from "../../../src/clients/redfish/types.js";
import { fixture, type MockupServer, requireFixtures, startMockup } from "../../support/clients/mockup-server.js";

const servers: MockupServer[] = [];
const clients: RedfishClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

const entry = (e: Partial<LogEntryRecord>): LogEntryRecord => ({ id: "1", args: [], ...e });

describe("log entries of the DMTF mockups", () => {
  it("a SEL temperature entry over its upper critical threshold is a thermal finding on the chassis' Thermal", () => {
    const col = fixture("dmtf/mockups/public-rackmount1/Systems/437XR1138R2/LogServices/Log1/Entries/index.json");
    const found = entriesOf(col).map(logFinding);
    expect(found.map((f) => [f?.kind, f?.health, f?.component, f?.entry.created])).toEqual([
      ["thermal", "Critical", "Thermal", "2012-03-07T14:44:00Z"],
      ["thermal", "Critical", "Thermal", "2012-03-07T14:45:00Z"],
    ]);
  });

  it("a Critical entry no row knows still counts, as a generic finding; its Id and MessageId are kept", () => {
    const mgr = entriesOf(fixture("dmtf/mockups/public-tower/Managers/BMC/LogServices/Log/Entries/index.json"));
    expect(mgr.map((e) => [e.id, e.messageId, logFinding(e)?.kind])).toEqual([
      ["1", "Event.1.0.TempWayTooHot", "critical"],
    ]);
    const example = parseLogEntry(fixture("dmtf/mockups/DSP2046-examples/LogEntry-v1-example.json"));
    expect(logFinding(example as LogEntryRecord)).toMatchObject({ kind: "critical", component: "Thermal" });
  });

  it("reads the System's log over HTTP: a baseline first, then only the entries after the last Id seen", async () => {
    const server = await startMockup(join(requireFixtures(), "dmtf", "mockups", "public-rackmount1"));
    servers.push(server);
    const client = new RedfishClient({ baseUrl: server.url, username: "admin", password: "secret" });
    clients.push(client);
    const first = await client.eventLogSince();
    expect(first?.entries).toEqual([]);
    expect(first?.cursor).toMatchObject({ path: "/redfish/v1/Systems/437XR1138R2/LogServices/Log1/Entries" });
    expect(first?.cursor.lastId).toBe("2");
    // The mockup ignores $skip/$top and sends every entry: the client keeps only those after the last Id it saw.
    const next = await client.eventLogSince({ ...(first?.cursor ?? { path: "", filter: false }), lastId: "1" });
    expect(next?.entries.map((e) => e.id)).toEqual(["2"]);
    expect(next?.cursor.lastId).toBe("2");
  });
});

describe("the vendor rows", () => {
  it("HGX: an XID driver event names the GPU and the XID; hardware XIDs are Critical, NVLink its own kind", () => {
    // As NVIDIA/nsmd's XIDEventSetting logs it: ResourceErrorsDetected, Critical, args "<GPU> Driver Event Message".
    const xid = (n: number, text: string, severity: "Critical" | "Warning" = "Critical") =>
      logFinding(
        entry({
          messageId: "ResourceEvent.1.0.ResourceErrorsDetected",
          severity,
          args: ["GPU_SXM_1 Driver Event Message", `[00:01:02][7][0x1] XID ${n} ${text}`],
          message: `The resource property GPU_SXM_1 Driver Event Message has detected errors of type '[00:01:02][7][0x1] XID ${n} ${text}'.`,
          component: "HGX_GPU_SXM_1",
        }),
      );
    expect(xid(48, "DBE")).toMatchObject({ kind: "gpu-xid", xid: 48, health: "Critical", component: "GPU_SXM_1" });
    expect(xid(74, "NVLink Error")).toMatchObject({ kind: "nvlink", xid: 74, health: "Critical" });
    expect(xid(13, "Graphics Engine Exception", "Warning")).toMatchObject({ kind: "gpu-xid", health: "Warning" });
  });

  it("OpenBMC registry: uncorrectable ECC, fatal AER, a link retrained narrower, thermal trips", () => {
    const f = (key: string, severity: "Critical" | "Warning") =>
      logFinding(entry({ messageId: `OpenBMC.0.1.${key}`, severity, component: "dimm0" }));
    expect(f("MemoryECCUncorrectable", "Critical")).toMatchObject({ kind: "memory-ecc", health: "Critical" });
    expect(f("PCIeFatalSurpriseLinkDown", "Critical")).toMatchObject({ kind: "pcie-aer", health: "Critical" });
    expect(f("PCIeCorrectableLinkBWChanged", "Warning")).toMatchObject({ kind: "pcie-aer", health: "Warning" });
    expect(f("SensorThresholdCriticalHighGoingHigh", "Critical")).toMatchObject({ kind: "thermal" });
    expect(f("MemoryECCCorrectable", "Warning")).toBeUndefined();
  });

  it("Dell EEMI ids with or without their registry prefix; the prefix rows take the entry's own severity", () => {
    expect(logFinding(entry({ messageId: "IDRAC.2.8.MEM0001", severity: "Critical" }))).toMatchObject({
      kind: "memory-ecc",
    });
    expect(logFinding(entry({ messageId: "MEM0001", severity: "Critical" }))?.kind).toBe("memory-ecc");
    expect(logFinding(entry({ messageId: "TMP0120", severity: "Warning" }))).toMatchObject({
      kind: "thermal",
      health: "Warning",
    });
    expect(logFinding(entry({ messageId: "TMP0121", severity: "OK" }))).toBeUndefined();
  });

  it("IPMI SEL: sensor type and event; HPE IML: its message texts", () => {
    const sel = entry({ sensorType: "Memory", message: "Uncorrectable ECC @ DIMM3 - Assertion", severity: "Critical" });
    expect(logFinding(sel)?.kind).toBe("memory-ecc");
    const bus = entry({ sensorType: "Critical Interrupt", message: "Bus Correctable Error", severity: "Warning" });
    expect(logFinding(bus)).toMatchObject({ kind: "pcie-aer", health: "Warning" });
    const iml = entry({ message: "Uncorrectable Memory Error (Processor 1, Memory Module 3)", severity: "Critical" });
    expect(logFinding(iml)?.kind).toBe("memory-ecc");
    expect(logFinding(entry({ message: "Server power restored.", severity: "OK" }))).toBeUndefined();
    expect(logFinding(entry({ message: "Fan redundancy lost", severity: "Warning" }))).toBeUndefined();
  });

  it("every row names the document it rests on", () => {
    for (const row of logFindingRows()) expect(row.source.length, row.match).toBeGreaterThan(20);
  });
});

describe("reading since the last Id", () => {
  it("orders Ids as numbers where they are numbers, with bmcweb's _n suffix", () => {
    expect(compareIds("9", "10")).toBeLessThan(0);
    expect(compareIds("1623251873_2", "1623251873_1")).toBeGreaterThan(0);
    expect(compareIds("99999999999999999999", "100000000000000000000")).toBeLessThan(0);
  });

  it("falls back to paging when the log answers 501 to $filter, and does not ask with $filter again", async () => {
    const asked: string[] = [];
    const members = [1, 2, 3, 4, 5].map((i) => ({ "@odata.id": `/E/${i}`, Id: String(i), Severity: "OK" }));
    const t = {
      getIfNoneMatch: async (ref: string, etag?: string) => {
        asked.push(etag ? `${ref} If-None-Match` : ref);
        if (ref.includes("$filter")) throw new HttpStatusError("501", { status: 501, method: "GET", url: ref });
        if (etag === '"e5"') return "not-modified";
        const skip = Number(/\$skip=(\d+)/.exec(ref)?.[1] ?? 0);
        return { json: { "Members@odata.count": 5, Members: members.slice(skip) }, etag: '"e5"' };
      },
    } as unknown as RedfishTransport;
    const r = await readLogSince(t, { path: "/E", lastId: "3", filter: true, count: 3 });
    expect(r.entries.map((e) => e.id)).toEqual(["4", "5"]);
    expect(r.cursor).toMatchObject({ lastId: "5", filter: false, count: 5 });
    expect(asked).toEqual(["/E?$filter=Id%20gt%20'3'", "/E?$skip=2&$top=50"]);
    // Nothing new since: the page after the last entry, then the same page with If-None-Match (304).
    const again = await readLogSince(t, r.cursor);
    expect(again.entries).toEqual([]);
    expect((await readLogSince(t, again.cursor)).entries).toEqual([]);
    expect(asked.slice(2)).toEqual(["/E?$skip=4&$top=50", "/E?$skip=4&$top=50 If-None-Match"]);
  });
});
