/** IronicClient parsers against recorded real bodies: api-ref samples (21.4.4 and master) and captures from Debian's Ironic. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { ironicMessage, ironicParse, negotiate } from "../../../src/clients/ironic/index.js";
import { FIXTURES } from "../../support/fixtures.js";

const DIR = `${FIXTURES}/ironic`;

function fixture(rel: string): unknown {
  const p = join(DIR, rel);
  if (!existsSync(p)) throw new Error(`Ironic fixture ${p} is missing: these tests need ${DIR} (see its SOURCES.md)`);
  return JSON.parse(readFileSync(p, "utf8"));
}

describe.each(["api-ref-21.4.4", "api-ref-master"])("Ironic %s samples", (ref) => {
  const s = (name: string) => fixture(`${ref}/samples/${name}`);

  it("reads a node's identity, states and resource class from node-show", () => {
    const n = ironicParse.parseNode(s("node-show-response.json"));
    expect(n.uuid).toBe("6d85703a-565d-469a-96ce-30b6de53079d");
    expect(n.name).toBe("test_node_classic");
    expect(n.provisionState).toBe("available");
    expect(n.targetProvisionState).toBeNull();
    expect(n.powerState).toBe("power off");
    expect(n.maintenance).toBe(false);
    expect(n.lastError).toBeNull();
    expect(n.resourceClass).toBe("bm-large");
    expect(n.driverInfo).toBeDefined();
  });

  it("reads every node of a detailed list and of a short list (unknown power is null)", () => {
    const detail = ironicParse.parseNodeList(s("nodes-list-details-response.json")).nodes;
    expect(detail.map((n) => [n.name, n.provisionState, n.powerState])).toEqual([
      ["test_node_classic", "available", "power off"],
      ["test_node_dynamic", "enroll", null],
    ]);
    const short = ironicParse.parseNodeList(s("nodes-list-response.json")).nodes;
    expect(short.map((n) => n.uuid)).toEqual(detail.map((n) => n.uuid));
    // A short list has no driver_info: absent, not an empty object.
    expect(short[0].driverInfo).toBeUndefined();
  });

  it("reads ports: MAC, node and PXE flag", () => {
    const p = ironicParse.parsePort(s("port-create-response.json"));
    expect(p).toMatchObject({
      address: "11:11:11:11:11:11",
      nodeUuid: "6d85703a-565d-469a-96ce-30b6de53079d",
      pxeEnabled: true,
    });
    const list = ironicParse.parsePortList(s("port-list-detail-response.json")).ports;
    expect(list.map((x) => x.address)).toEqual(["11:11:11:11:11:11"]);
  });

  it("reads allocations, including a failed one with its last_error", () => {
    const a = ironicParse.parseAllocation(s("allocation-show-response.json"));
    expect(a).toMatchObject({
      name: "allocation-1",
      state: "active",
      nodeUuid: "6d85703a-565d-469a-96ce-30b6de53079d",
    });
    const list = ironicParse.parseAllocationList(s("allocations-list-response.json"));
    const failed = list.find((x) => x.state === "error");
    expect(failed?.nodeUuid).toBeNull();
    expect(failed?.lastError).toMatch(/no available nodes match the resource class bm-large/);
  });

  it("reads validation per interface; unsupported interfaces have a null result and a reason", () => {
    const v = ironicParse.parseValidation(s("node-validate-response.json"));
    expect(v.power).toEqual({ result: true });
    expect(v.rescue).toEqual({ result: null, reason: "not supported" });
  });

  it("reads the API root's range; a server stuck at 1.37 is refused because rackform needs allocations (1.52)", () => {
    const range = ironicParse.parseVersions(s("api-root-response.json"));
    expect(range).toEqual({ min: "1.1", max: "1.37" });
    const e = (() => {
      try {
        return negotiate(range);
      } catch (x) {
        return x;
      }
    })();
    expect(isClientError(e, "RACKFORM_ERR_IRONIC_MICROVERSION")).toBe(true);
    expect((e as Error).message).toContain("[1.1, 1.37]");
  });
});

describe("Debian Ironic 21.4.4 captures (fake-hardware)", () => {
  const c = (name: string) => fixture(`captured-debian-21.4.4/fake-hardware/${name}`);

  it("a new node is in enroll with no target; after provide it is available and powered off", () => {
    const created = ironicParse.parseNode(c("node-create.json"));
    expect(created).toMatchObject({ name: "gpu-rack1-u07", provisionState: "enroll", resourceClass: "baremetal-gpu" });
    expect(created.extra).toEqual({ rack: "r1", pdu_outlet: "A1" });
    const avail = ironicParse.parseNode(c("node-available.json"));
    expect(avail.provisionState).toBe("available");
    expect(avail.targetProvisionState).toBeNull();
  });

  it("an active node carries its allocation and instance info", () => {
    const n = ironicParse.parseNode(c("node-active.json"));
    expect(n.provisionState).toBe("active");
    expect(n.allocationUuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(n.instanceInfo).toMatchObject({ image_source: "http://127.0.0.1/fake.qcow2" });
  });

  it("negotiates 1.82 with the real server's range and explains its 406 body", () => {
    expect(negotiate({ min: "1.1", max: "1.82" })).toBe("1.82");
    expect(negotiate({ min: "1.1", max: "1.95" })).toBe("1.87");
    const body = readFileSync(join(DIR, "captured-debian-21.4.4/fake-hardware/error-406.json"), "utf8");
    expect(ironicMessage(body)).toBe(
      "Mutually exclusive versions requested. Version 99.99 requested but not supported by this service. The supported version range is: [1.1, 1.82].",
    );
  });

  it("explains a WSME fault body (faultstring inside error_message)", () => {
    const body = JSON.stringify({
      error_message: JSON.stringify({
        faultcode: "Client",
        faultstring: "Node abc is locked by host localhost",
        debuginfo: null,
      }),
    });
    expect(ironicMessage(body)).toBe("Node abc is locked by host localhost");
  });

  it("reads every node of the captured detailed list and the allocation that picked the node", () => {
    const nodes = ironicParse.parseNodeList(c("nodes-detail.json")).nodes;
    expect(nodes.length).toBeGreaterThan(0);
    for (const n of nodes) expect(n.provisionState).toBeTruthy();
    const a = ironicParse.parseAllocation(c("allocation-done.json"));
    expect(a.state).toBe("active");
    expect(a.nodeUuid).toBe(ironicParse.parseNode(c("node-create.json")).uuid);
  });
});
