/**
 * One table maps client error codes to diagnostics (src/provider/errors/client-errors.ts): for the backends' and schedulers'
 * auth, forbidden and not-found errors the diagnostic says what to check — naming the provider setting — and
 * highlights the resource attribute that names the object; a PDU's credentials failure says "PDU".
 */
import { describe, expect, it } from "vitest";
import { powerFailed, powerTimeout } from "../../../src/clients/bcm/index.js";
import { type ErrorCode, RackformClientError } from "../../../src/clients/errors.js";
import { Diagnostics, path } from "../../../src/framework/index.js";
import { reportBackendError } from "../../../src/provider/errors/backend-errors.js";
import { addClientError, ERROR_HINTS, hintFor } from "../../../src/provider/errors/client-errors.js";

const err = (code: ErrorCode) => new RackformClientError(code, "refused");
const SITE = { what: "node r01-n01", endpointPath: path("endpoint"), notFoundPath: path("node") };

describe("client error hints", () => {
  it.each([
    ["RACKFORM_ERR_MAAS_AUTH", /`api_key`.*RACKFORM_MAAS_API_KEY/],
    ["RACKFORM_ERR_MAAS_FORBIDDEN", /administrator's key/],
    ["RACKFORM_ERR_IRONIC_AUTH", /`username` and `password`, or `token`/],
    ["RACKFORM_ERR_SLURM_AUTH", /`user` and `token`.*RACKFORM_SLURM_TOKEN/],
    ["RACKFORM_ERR_SLURM_FORBIDDEN", /operator/],
    ["RACKFORM_ERR_KUBERNETES_AUTH", /`token`.*RACKFORM_KUBERNETES_TOKEN/],
    ["RACKFORM_ERR_KUBERNETES_FORBIDDEN", /RBAC/],
  ] as const)("%s says what to check", (code, re) => {
    expect(hintFor(err(code), SITE).hint).toMatch(re);
  });

  it.each([
    "RACKFORM_ERR_MAAS_NOT_FOUND",
    "RACKFORM_ERR_IRONIC_NOT_FOUND",
    "RACKFORM_ERR_SLURM_NOT_FOUND",
    "RACKFORM_ERR_KUBERNETES_NOT_FOUND",
    "RACKFORM_ERR_REDFISH_NOT_FOUND",
  ] as const)("%s highlights the attribute naming the object, with a hint", (code) => {
    const d = new Diagnostics();
    addClientError(d, err(code), "read it", SITE);
    expect(d.items[0].attribute).toEqual(path("node"));
    if (code !== "RACKFORM_ERR_REDFISH_NOT_FOUND") expect(hintFor(err(code), SITE).hint.length).toBeGreaterThan(20);
  });

  it("says PDU, not BMC, when a PDU refuses the credentials", () => {
    expect(hintFor(err("RACKFORM_ERR_REDFISH_AUTH"), { ...SITE, device: "PDU" }).hint).toMatch(/^The PDU refused/);
    expect(hintFor(err("RACKFORM_ERR_REDFISH_AUTH"), SITE).hint).toMatch(/^The BMC refused/);
  });

  it("names the backend's URL setting when the backend cannot be reached, highlighting the attribute choosing it", () => {
    const d = new Diagnostics();
    const e = new RackformClientError("RACKFORM_ERR_HTTP_CONNECT", "connection refused");
    reportBackendError(d, e, "enroll the machine", { backend: "ironic", what: "machine x", selector: path("backend") });
    expect(d.items[0].detail).toContain("Check the provider's `ironic.url`.");
    expect(d.items[0].attribute).toEqual(path("backend"));
  });

  it("has a non-empty hint or a highlight for every entry", () => {
    for (const [code, h] of Object.entries(ERROR_HINTS)) expect(h.hint !== "" || h.highlight, code).toBeTruthy();
  });
});

describe("BCM power failures", () => {
  it.each([
    [powerFailed("ON", "dev-1", "BMC 10.0.0.5 did not answer"), "RACKFORM_ERR_BCM_POWER_FAILED", /BMC's address/],
    [powerTimeout("dev-1"), "RACKFORM_ERR_BCM_POWER_TIMEOUT", /device status/],
  ] as const)("%s ends its diagnostic with a hint and its code", (e, code, hint) => {
    expect(e.code).toBe(code);
    const d = new Diagnostics();
    reportBackendError(d, e, "deploy the machine", { backend: "bcm", what: "machine dev-1", selector: path("name") });
    expect(d.items[0].detail).toMatch(hint);
    expect(d.items[0].detail).toContain(`(${code})`);
    expect(d.items[0].detail).toContain(e.message);
  });
});
