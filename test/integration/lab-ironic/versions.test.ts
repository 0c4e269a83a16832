// Microversion negotiation and version discovery, as Ironic 21.4 does them (captured error-406.json, node-create.headers).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createFakeNode, type Lab, startLab } from "./support.js";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(() => lab.close());

describe("version discovery", () => {
  it("GET / lists v1 with min 1.1 and max 1.82 and links on the request's host", async () => {
    const r = await call(lab.url, "GET", "/", { version: null });
    expect(r.status).toBe(200);
    expect(r.json.default_version).toEqual({
      id: "v1",
      links: [{ href: `${lab.url}/v1/`, rel: "self" }],
      status: "CURRENT",
      min_version: "1.1",
      version: "1.82",
    });
  });

  it("GET /v1 answers with the version headers and the resource links", async () => {
    const r = await call(lab.url, "GET", "/v1", { version: null });
    expect(r.status).toBe(200);
    expect(r.headers.get("x-openstack-ironic-api-minimum-version")).toBe("1.1");
    expect(r.headers.get("x-openstack-ironic-api-maximum-version")).toBe("1.82");
    expect(r.json.nodes[0].href).toBe(`${lab.url}/v1/nodes/`);
  });
});

describe("negotiation", () => {
  it("serves 1.1 without a header, hiding fields newer than 1.1 (name came in 1.5)", async () => {
    const n = await createFakeNode(lab.url, { name: "old-client" });
    const r = await call(lab.url, "GET", `/v1/nodes/${n.uuid}`, { version: null });
    expect(r.headers.get("x-openstack-ironic-api-version")).toBe("1.1");
    expect(r.json).not.toHaveProperty("name");
    expect(r.json).not.toHaveProperty("resource_class");
    expect(r.json.uuid).toBe(n.uuid);
  });

  it("serves the maximum for 'latest' and the asked version otherwise", async () => {
    const latest = await call(lab.url, "GET", "/v1/nodes", { version: "latest" });
    expect(latest.headers.get("x-openstack-ironic-api-version")).toBe("1.82");
    const mid = await call(lab.url, "GET", "/v1/nodes?detail=true", { version: "1.50" });
    expect(mid.headers.get("x-openstack-ironic-api-version")).toBe("1.50");
    expect(mid.json.nodes[0]).toHaveProperty("owner");
    expect(mid.json.nodes[0]).not.toHaveProperty("lessee");
  });

  it.each([
    [
      "99.99",
      "Mutually exclusive versions requested. Version 99.99 requested but not supported by this service. The supported version range is: [1.1, 1.82].",
    ],
    [
      "1.83",
      "Version 1.83 was requested but the minor version is not supported by this service. The supported version range is: [1.1, 1.82].",
    ],
    [
      "1.0",
      "Version 1.0 was requested but the minor version is not supported by this service. The supported version range is: [1.1, 1.82].",
    ],
  ])("fails %s with 406 and Ironic's body, min/max headers but no version header", async (v, description) => {
    const r = await call(lab.url, "GET", "/v1/nodes", { version: v });
    expect(r.status).toBe(406);
    expect(JSON.parse(r.json.error_message)).toEqual({ code: 406, title: "Not Acceptable", description });
    expect(r.headers.get("x-openstack-ironic-api-maximum-version")).toBe("1.82");
    expect(r.headers.get("x-openstack-ironic-api-version")).toBeNull();
  });

  it("fails a malformed header with 406 and no version headers at all", async () => {
    const r = await call(lab.url, "GET", "/v1/nodes", { version: "abc" });
    expect(r.status).toBe(406);
    expect(JSON.parse(r.json.error_message).description).toBe(
      "Invalid value for X-OpenStack-Ironic-API-Version header",
    );
    expect(r.headers.get("x-openstack-ironic-api-maximum-version")).toBeNull();
  });

  it("serves a higher maximum when configured (1.87 adds service_step)", async () => {
    const newer = await startLab({ maxVersion: "1.87" });
    try {
      const n = await createFakeNode(newer.url);
      const r = await call(newer.url, "GET", `/v1/nodes/${n.uuid}`, { version: "latest" });
      expect(r.headers.get("x-openstack-ironic-api-version")).toBe("1.87");
      expect(r.json.service_step).toEqual({});
    } finally {
      await newer.close();
    }
  });

  it("answers unknown paths and wrong methods with webob's 404/405 bodies, as Ironic does", async () => {
    const r = await call(lab.url, "GET", "/v1/nope");
    expect(r.status).toBe(404);
    expect(JSON.parse(r.json.error_message)).toEqual({ code: 404, title: "Not Found", description: "" });
    const m = await call(lab.url, "PUT", "/v1/nodes");
    expect(m.status).toBe(405);
    expect(JSON.parse(m.json.error_message)).toEqual({ code: 405, title: "Method Not Allowed", description: "" });
  });
});
