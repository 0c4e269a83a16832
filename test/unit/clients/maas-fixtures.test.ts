/** MaasClient parsers against recorded real MAAS bodies (gomaasclient: MAAS 3.x; gomaasapi: MAAS 2.x; MAAS's own examples). */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  authorizationHeader,
  MAAS_SCRIPT_FAILED_STATUSES,
  MAAS_SCRIPT_STATUS,
  MAAS_STATUS_LABELS,
  maasParse,
  parseApiKey,
  statusId,
} from "../../../src/clients/maas/index.js";
import { FIXTURES } from "../../support/fixtures.js";

const DIR = `${FIXTURES}/maas`;

function fixture(rel: string): unknown {
  const p = join(DIR, rel);
  if (!existsSync(p)) throw new Error(`MAAS fixture ${p} is missing: these tests need ${DIR} (see its SOURCES.md)`);
  return JSON.parse(readFileSync(p, "utf8"));
}

describe("MAAS machine bodies", () => {
  it("MAAS 3.x machine (gomaasclient): status, power, boot MAC, every interface MAC, owner, pool, zone", () => {
    const m = maasParse.parseMachine(fixture("gomaasclient/machine.json"));
    expect(m).toMatchObject({
      systemId: "g8xyqs",
      hostname: "causal-quagga",
      status: 20,
      statusName: "Failed to exit rescue mode",
      powerType: "virsh",
      powerState: "error",
      architecture: "i386/generic",
      bootMacAddress: "3d:fd:40:ef:70:e8",
      owner: "user2",
      pool: "default",
      zone: "zone-north",
    });
    expect(m.macAddresses).toHaveLength(4);
    expect(m.interfaces.map((i) => i.type)).toContain("bond");
  });

  it("MAAS 2.x deployed machine (gomaasapi): OS, series, tags, IPs per interface and legacy macaddress_set", () => {
    const m = maasParse.parseMachine(fixture("gomaasapi/machineResponse.json"));
    expect(m).toMatchObject({
      systemId: "4y3ha3",
      status: 6,
      statusName: "Deployed",
      powerState: "on",
      osystem: "ubuntu",
      distroSeries: "trusty",
      tags: ["virtual", "magic"],
      ipAddresses: ["192.168.100.4"],
    });
    expect(m.macAddresses).toEqual(["52:54:00:55:b6:80", "52:54:00:55:b6:81"]);
    expect(m.interfaces.flatMap((i) => i.ipAddresses)).toEqual(["192.168.100.4", "192.168.100.5"]);
  });

  it("a machine list (gomaasapi) is indexable by system_id, hostname and MAC", () => {
    const list = maasParse.parseMachines(fixture("gomaasapi/machinesResponse.json"));
    expect(list.map((m) => [m.systemId, m.statusName, m.powerState])).toEqual([
      ["4y3ha3", "Deployed", "on"],
      ["4y3ha4", "Ready", "off"],
      ["4y3ha6", "Ready", "off"],
    ]);
    const byMac = new Map(list.flatMap((m) => m.macAddresses.map((mac) => [mac, m.systemId] as const)));
    expect(byMac.get("52:54:00:c9:6a:45")).toBe("4y3ha6");
  });

  it("a controller in a node list (gomaasclient machines.json) has no status and is read as -1, not rejected", () => {
    const [c] = maasParse.parseMachines(fixture("gomaasclient/machines.json"));
    expect(c).toMatchObject({ systemId: "6gsym8", status: -1, nodeTypeName: "Region and rack controller" });
  });

  it("fails with a typed payload error when a machine lacks system_id", () => {
    expect(() => maasParse.parseMachine({ hostname: "x", status: 4 })).toThrow(
      expect.objectContaining({ code: "RACKFORM_ERR_MAAS_BAD_PAYLOAD" }),
    );
  });
});

describe("MAAS interfaces, tags, boot resources, results, events", () => {
  it("interfaces: VLAN, fabric, MAC and linked IPs (gomaasclient + gomaasapi)", () => {
    const list = (fixture("gomaasclient/interfaces.json") as unknown[]).map(maasParse.parseInterface);
    expect(list.filter((i) => i.type === "vlan").map((i) => i.name)).toEqual([
      "eth-lKRYAa.42",
      "eth-3ookc5.42",
      "eth-W8E8f0.42",
    ]);
    expect(list.find((i) => i.name === "eth-3ookc5.42")?.ipAddresses).toEqual(["2001:db8:42:0:6556:13fa:7452:70da"]);
    const one = maasParse.parseInterface(fixture("gomaasapi/interfaceResponse.json"));
    expect(one).toMatchObject({
      name: "eth0",
      macAddress: "52:54:00:c9:6a:45",
      vlanName: "untagged",
      fabric: "fabric-0",
    });
  });

  it("tags (gomaasapi): name, definition and kernel options", () => {
    const tags = (fixture("gomaasapi/tagsResponse.json") as unknown[]).map(maasParse.parseTag);
    expect(tags.map((t) => t.name)).toEqual(["virtual", "physical", "r-pi"]);
    expect(tags[0].kernelOpts).toBe("nvme_core");
  });

  it("boot resources: synced and uploaded images; completeness is known from the detail's sets", () => {
    const list = (fixture("gomaasclient/boot_resources.json") as unknown[]).map(maasParse.parseBootResource);
    expect(list.map((b) => [b.name, b.type, b.architecture])).toEqual([
      ["ubuntu/bionic", "Synced", "amd64/ga-18.04"],
      ["alma9", "Uploaded", "amd64/generic"],
    ]);
    expect(list[0].subarches).toContain("ga-18.04");
    expect(list[0].complete).toBeUndefined();
    expect(maasParse.parseBootResource(fixture("gomaasclient/boot_resource.json")).complete).toBe(true);
    const old = (fixture("gomaasapi/bootResourcesResponse.json") as unknown[]).map(maasParse.parseBootResource);
    expect(new Set(old.map((b) => b.name))).toEqual(new Set(["ubuntu/trusty", "ubuntu/xenial"]));
  });

  it("script results (gomaasclient node_results): each set's type and each script's outcome", () => {
    const sets = maasParse.parseScriptResults(fixture("gomaasclient/node_results.json"));
    expect(sets.map((s) => [s.typeName, s.statusName])).toEqual([
      ["Release", "Passed"],
      ["Release", "Aborted"],
    ]);
    expect(sets[1].results[0]).toEqual({
      name: "wipe-disks",
      status: 5,
      statusName: "Aborted",
      failed: false,
      exitStatus: null,
    });
  });

  it("script results: MAAS's failed statuses, failed applying netconf (11) among them, are judged failed", () => {
    const body = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map((status) => ({ name: `s${status}`, status }));
    const [set] = maasParse.parseScriptResults([{ id: 1, type: 2, results: body }]);
    expect(set.results.filter((r) => r.failed).map((r) => r.status)).toEqual([3, 4, 8, 11]);
    expect([...MAAS_SCRIPT_FAILED_STATUSES].sort((a, b) => a - b)).toEqual([
      MAAS_SCRIPT_STATUS.FAILED,
      MAAS_SCRIPT_STATUS.TIMEDOUT,
      MAAS_SCRIPT_STATUS.FAILED_INSTALLING,
      MAAS_SCRIPT_STATUS.FAILED_APPLYING_NETCONF,
    ]);
  });

  it("events query (MAAS api-examples): newest first, with level, type and description", () => {
    const body = (fixture("maas-server/api-examples/events.json") as Record<string, unknown>)["events-query"];
    const events = maasParse.parseEvents(body);
    expect(events).toHaveLength(5);
    expect(events[0]).toMatchObject({ id: 1667, level: "WARNING", type: "Rack import warning", node: "7xtf67" });
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => b - a));
  });
});

describe("MAAS statuses and auth", () => {
  it("the status table matches MAAS's own enumeration (derived/enums.json)", () => {
    const enums = fixture("derived/enums.json") as {
      node_status: { status: number; enum: string; status_name: string }[];
    };
    for (const s of enums.node_status) {
      expect(MAAS_STATUS_LABELS[s.status], s.enum).toBe(s.status_name);
      expect(statusId(s.enum)).toBe(s.status);
      expect(statusId(s.status_name)).toBe(s.status);
    }
    expect(Object.keys(MAAS_STATUS_LABELS)).toHaveLength(enums.node_status.length);
  });

  it("redfish is a power type MAAS knows (derived/enums.json)", () => {
    expect((fixture("derived/enums.json") as { power_types: string[] }).power_types).toContain("redfish");
  });

  it("the OAuth header has every parameter MAAS requires, with the PLAINTEXT signature '&<token_secret>'", () => {
    const h = authorizationHeader(parseApiKey("ck:tk:ts3cret"), { nowSeconds: () => 1700000000, nonce: () => "n1" });
    expect(h).toBe(
      'OAuth realm="", oauth_version="1.0", oauth_signature_method="PLAINTEXT", oauth_consumer_key="ck", oauth_token="tk", oauth_signature="&ts3cret", oauth_nonce="n1", oauth_timestamp="1700000000"',
    );
    const doc = readFileSync(join(DIR, "maas-server/docs/api-login.md"), "utf8");
    expect(doc).toMatch(/PLAINTEXT/);
  });

  it("fails with a config error naming the expected form, without echoing a malformed key", () => {
    let msg = "";
    try {
      parseApiKey("only:two-parts-secretvalue");
    } catch (e) {
      msg = (e as Error).message;
      expect(e).toMatchObject({ code: "RACKFORM_ERR_CLIENT_CONFIG" });
    }
    expect(msg).toContain("consumer_key:token_key:token_secret");
    expect(msg).not.toContain("secretvalue");
  });
});
