/**
 * Redfish endpoints as the provider compares them (issue 35): spellings of one address are one endpoint, plain HTTP is
 * refused unless the provider opts in, and a BMC's identity (UUID, serial) decides whether a new address is the same
 * node.
 */
import { describe, expect, it } from "vitest";
import { Diagnostics, formatPath, path } from "../../../src/framework/index.js";
import { identityChange, readdressed, reportDifferentSystem } from "../../../src/provider/resources/bmc-identity.js";
import { checkEndpointScheme, normalEndpoint, sameEndpoint } from "../../../src/provider/shared/endpoint.js";

describe("endpoint normalization", () => {
  it.each([
    ["https://10.0.1.7/", "https://10.0.1.7"],
    ["https://10.0.1.7:443", "https://10.0.1.7"],
    ["https://10.0.1.7:443/redfish/v1/", "https://10.0.1.7"],
    ["HTTPS://BMC-R01-N07.Example.NET", "https://bmc-r01-n07.example.net"],
    ["https://10.0.1.7:8443/", "https://10.0.1.7:8443"],
    ["https://[FD00::7]:443/", "https://[fd00::7]"],
    ["http://10.0.1.7:80/", "http://10.0.1.7"],
  ])("%s is %s", (given, want) => {
    expect(normalEndpoint(given)).toBe(want);
  });

  it("tells a cosmetic edit from a re-address", () => {
    expect(sameEndpoint("https://10.0.1.7", "https://10.0.1.7:443/")).toBe(true);
    expect(sameEndpoint("https://10.0.1.7", "https://10.2.1.7")).toBe(false);
    expect(sameEndpoint("https://10.0.1.7", "https://10.0.1.7:8443")).toBe(false);
    // Another scheme is another service (and http is judged at plan on its own).
    expect(sameEndpoint("https://10.0.1.7", "http://10.0.1.7")).toBe(false);
    expect(sameEndpoint("https://10.0.1.7", null)).toBe(false);
  });

  it("leaves a string that is not a URL as it is (the validator reports it)", () => {
    expect(normalEndpoint("10.0.1.7")).toBe("10.0.1.7");
  });
});

describe("plain HTTP endpoints", () => {
  it("fails an http:// endpoint without the opt-in, naming the attribute and the fix", () => {
    const d = new Diagnostics();
    checkEndpointScheme("http://10.0.1.7", false, path("endpoint"), d);
    const [e] = d.items;
    expect([e.severity, e.summary, formatPath(e.attribute)]).toEqual([
      "error",
      "Plain HTTP Redfish endpoint refused",
      "endpoint",
    ]);
    expect(e.detail).toContain('Write "https://10.0.1.7"');
    expect(e.detail).toContain("allow_http = true in the provider's redfish block");
  });

  it("warns instead with redfish.allow_http = true", () => {
    const d = new Diagnostics();
    checkEndpointScheme("HTTP://10.0.1.7/", true, path("bmc_endpoint"), d);
    expect(d.items.map((x) => `${x.severity} ${x.summary} @ ${formatPath(x.attribute)}`)).toEqual([
      "warning Plain HTTP Redfish endpoint: http://10.0.1.7 @ bmc_endpoint",
    ]);
  });

  it("says nothing of https, unknown or null values", () => {
    const d = new Diagnostics();
    for (const v of ["https://10.0.1.7", null]) checkEndpointScheme(v, false, path("endpoint"), d);
    expect(d.items).toEqual([]);
  });
});

describe("a BMC's identity across a re-address", () => {
  const recorded = {
    endpoint: "https://10.0.1.7",
    system_id: "1",
    system_uuid: "4c4c4544-0001",
    serial: "SN-0001",
    model: "XE9680",
    manufacturer: "Dell Inc.",
  };

  it("knows a move from another spelling", () => {
    expect(readdressed(recorded, { ...recorded, endpoint: "https://10.2.1.7" })).toBe(true);
    expect(readdressed(recorded, { ...recorded, endpoint: "https://10.0.1.7:443/" })).toBe(false);
    expect(readdressed(null, recorded)).toBe(false);
  });

  it("finds the same system by UUID (any case) and serial", () => {
    const found = { uuid: "4C4C4544-0001", serial: "SN-0001", model: "XE9680", manufacturer: "Dell Inc." };
    expect(identityChange(recorded, found)).toBeUndefined();
  });

  it("names what differs when another system answers", () => {
    expect(identityChange(recorded, { uuid: "4c4c4544-0002", serial: "SN-0002" })).toBe(
      "system_uuid was 4c4c4544-0001, now 4c4c4544-0002",
    );
    expect(identityChange(recorded, { uuid: "4c4c4544-0001", serial: "SN-0009" })).toBe(
      "serial was SN-0001, now SN-0009",
    );
    // Read, but not reported: a difference too.
    expect(identityChange(recorded, { uuid: undefined })).toBe("system_uuid was 4c4c4544-0001, now not reported");
  });

  it("compares only what both sides hold: a state from before system_uuid is judged by serial", () => {
    const old = { ...recorded, system_uuid: null };
    expect(identityChange(old, { uuid: "anything", serial: "SN-0001" })).toBeUndefined();
    // A plan-time read of the System alone carries no model: not compared.
    expect(identityChange(recorded, { uuid: "4c4c4544-0001", serial: "SN-0001" })).toBeUndefined();
  });

  it("reports a different system at the new address with both identities and the fix, at endpoint", () => {
    const d = new Diagnostics();
    const plan = { ...recorded, endpoint: "https://10.2.1.7/" };
    const found = { systemId: "1", uuid: "4c4c4544-0002", serial: "SN-0002" };
    reportDifferentSystem(d, {
      plan,
      found,
      change: "serial was SN-0001, now SN-0002",
      priorEndpoint: "https://10.0.1.7",
    });
    const [e] = d.items;
    expect([e.severity, e.summary, formatPath(e.attribute)]).toEqual([
      "error",
      "A different system answers at the new BMC address: https://10.2.1.7",
      "endpoint",
    ]);
    expect(e.detail).toContain(
      "This node is system 1, serial SN-0001, UUID 4c4c4544-0001 (recorded at https://10.0.1.7)",
    );
    expect(e.detail).toContain("https://10.2.1.7 answers as system 1, serial SN-0002, UUID 4c4c4544-0002");
    expect(e.detail).toContain("Nothing was changed.");
    expect(e.detail).toContain("-replace");
    expect(e.detail).toContain("import");
  });

  it("warns at plan instead, so the neighbours' changes still apply", () => {
    const d = new Diagnostics();
    const plan = { ...recorded, endpoint: "https://10.2.1.7" };
    reportDifferentSystem(d, {
      plan,
      found: { serial: "SN-0002" },
      change: "serial was SN-0001, now SN-0002",
      priorEndpoint: "https://10.0.1.7",
      atPlan: true,
    });
    const [w] = d.items;
    expect(w.severity).toBe("warning");
    expect(w.detail).toContain("The apply will fail for this node and change nothing.");
  });
});
