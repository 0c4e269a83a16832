// Lab bodies against responses captured from Debian's real Ironic 21.4.4 (../shared/fixtures/ironic/captured-debian-21.4.4).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createIronicApi, type IronicApi } from "../../../src/lab/ironic/index.js";
import { call } from "../../integration/lab-ironic/support.js";
import { FIXTURES } from "../../support/fixtures.js";

const DIR = `${FIXTURES}/ironic/captured-debian-21.4.4`;
// biome-ignore lint/suspicious/noExplicitAny: captured JSON
const fixture = (f: string): any => {
  if (!existsSync(join(DIR, f)))
    throw new Error(`fixture ${join(DIR, f)} is missing (the shared Ironic fixtures are required)`);
  return JSON.parse(readFileSync(join(DIR, f), "utf8"));
};

let api: IronicApi;
let url: string;
let close: () => Promise<void>;
beforeAll(async () => {
  api = createIronicApi({ delays: { cleanMs: 0, deployMs: 0, inspectMs: 0, powerMs: 0 } });
  ({ url, close } = await api.listen("127.0.0.1", 0));
});
afterAll(() => close());

describe("lab Ironic bodies match captured Ironic 21.4.4 bodies", () => {
  it("node create: same keys in the same order, same values for the same input", async () => {
    const real = fixture("fake-hardware/node-create.json");
    const r = await call(url, "POST", "/v1/nodes", {
      body: {
        name: "gpu-rack1-u07",
        driver: "fake-hardware",
        resource_class: "baremetal-gpu",
        properties: { cpu_arch: "x86_64", memory_mb: 2097152, local_gb: 3840, cpus: 128 },
        driver_info: { fake_note: "no BMC" },
        extra: { rack: "r1", pdu_outlet: "A1" },
      },
    });
    expect(Object.keys(r.json)).toEqual(Object.keys(real));
    const volatile = new Set(["uuid", "created_at", "links", "ports", "states", "portgroups", "volume"]);
    for (const k of Object.keys(real)) if (!volatile.has(k)) expect(r.json[k], k).toEqual(real[k]);
  });

  it("port create and allocation bodies have the captured keys in order", async () => {
    const n = (await call(url, "GET", "/v1/nodes/gpu-rack1-u07")).json;
    const port = await call(url, "POST", "/v1/ports", {
      body: {
        node_uuid: n.uuid,
        address: "52:54:00:aa:bb:01",
        pxe_enabled: true,
      },
    });
    expect(Object.keys(port.json)).toEqual(Object.keys(fixture("fake-hardware/port-create.json")));
    const alloc = await call(url, "POST", "/v1/allocations", {
      body: { resource_class: "baremetal-gpu", name: "alloc-1" },
    });
    expect(Object.keys(alloc.json)).toEqual(Object.keys(fixture("fake-hardware/allocation-create.json")));
    expect(alloc.json.state).toBe("allocating");
  });

  it("GET …/states and validate of fake-hardware match", async () => {
    const states = (await call(url, "GET", "/v1/nodes/gpu-rack1-u07/states")).json;
    expect(Object.keys(states)).toEqual(Object.keys(fixture("fake-hardware/node-states.json")));
    expect((await call(url, "GET", "/v1/nodes/gpu-rack1-u07/validate")).json).toEqual(
      fixture("fake-hardware/node-validate.json"),
    );
  });

  it("redfish node: masked password and validate reasons as captured against the DMTF mockup", async () => {
    const real = fixture("redfish-vs-dmtf-mockup/redfish-node-create.json");
    const r = await call(url, "POST", "/v1/nodes", {
      body: {
        name: "dmtf-rackmount1",
        driver: "redfish",
        driver_info: { ...real.driver_info, redfish_password: "password" },
      },
    });
    expect(r.json.driver_info).toEqual(real.driver_info);
    for (const k of Object.keys(real).filter((k) => k.endsWith("_interface"))) expect(r.json[k], k).toBe(real[k]);
    const v = (await call(url, "GET", "/v1/nodes/dmtf-rackmount1/validate")).json;
    expect(v).toEqual(fixture("redfish-vs-dmtf-mockup/redfish-node-validate.json"));
  });

  it("406 body and headers as captured", async () => {
    const r = await call(url, "GET", "/v1/nodes", { version: "99.99" });
    expect(r.status).toBe(406);
    expect(r.json).toEqual(fixture("fake-hardware/error-406.json"));
  });

  it("version headers as captured on node create", async () => {
    const head = readFileSync(join(DIR, "fake-hardware/node-create.headers"), "utf8");
    const captured = Object.fromEntries(
      [...head.matchAll(/^(X-Openstack-Ironic-Api-[\w-]+): (.*)$/gim)].map((m) => [m[1].toLowerCase(), m[2].trim()]),
    );
    const r = await call(url, "POST", "/v1/nodes", { body: { driver: "fake-hardware" } });
    expect(r.status).toBe(201);
    expect(Object.keys(captured)).toHaveLength(3);
    for (const [k, v] of Object.entries(captured)) expect(r.headers.get(k), k).toBe(v);
    expect(r.headers.get("location")).toBe(`${url}/v1/nodes/${r.json.uuid}`);
  });
});
