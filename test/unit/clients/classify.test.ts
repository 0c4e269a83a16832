/** The one classification of client errors: read from type, code and status, never from the message. */
import { describe, expect, it } from "vitest";
import {
  isAuth,
  isConflict,
  isNotFound,
  isTransient,
  isUnreachable,
  unlessNotFound,
} from "../../../src/clients/classify.js";
import {
  ERROR_CODES,
  type ErrorCode,
  HttpConnectError,
  HttpStatusError,
  HttpTimeoutError,
  RackformClientError,
  TlsError,
} from "../../../src/clients/errors.js";
import { MaasError, powerQueryRefusal } from "../../../src/clients/maas/errors.js";

const err = (code: ErrorCode, status?: number) => new RackformClientError(code, "it failed", { status });
const http = (status: number) => new HttpStatusError(`GET /x failed with HTTP ${status}`, { status });

const NOT_FOUND = Object.keys(ERROR_CODES).filter((c) => c.endsWith("_NOT_FOUND")) as ErrorCode[];
const CONFLICT = ["MAAS", "IRONIC", "KUBERNETES", "WAREWULF"].map((s) => `RACKFORM_ERR_${s}_CONFLICT` as ErrorCode);
const AUTH = Object.keys(ERROR_CODES).filter((c) => /_(AUTH|FORBIDDEN)$/.test(c)) as ErrorCode[];

/** Per class: its codes, the bare HTTP statuses in it, and statuses that are not. */
const BY_CODE = [
  ["isNotFound", isNotFound, NOT_FOUND, [404], [409, 410]],
  ["isConflict", isConflict, CONFLICT, [409], [400, 404]],
  ["isAuth", isAuth, AUTH, [401, 403], [400, 404]],
] as const;

describe.each(BY_CODE)("%s", (_name, classify, codes, statuses, others) => {
  it.each(codes)("%s is in the class", (code) => expect(classify(err(code))).toBe(true));
  it("a bare HTTP status of the class is in it; other statuses are not", () => {
    for (const s of statuses) expect(classify(http(s)), String(s)).toBe(true);
    for (const s of others) expect(classify(http(s)), String(s)).toBe(false);
  });
});

describe("a service's code decides, not the status it came with", () => {
  it("covers every not-found, auth and forbidden code of the catalogue", () => {
    expect(NOT_FOUND.length).toBe(7);
    expect(AUTH.length).toBe(11);
  });
  it("a conflict answered 404, a bad request 400 and a BMC refusing MAAS's own credentials keep their class", () => {
    expect(isNotFound(err("RACKFORM_ERR_MAAS_CONFLICT", 404))).toBe(false);
    expect(isNotFound(err("RACKFORM_ERR_BCM_REJECTED"))).toBe(false);
    expect(isConflict(err("RACKFORM_ERR_WAREWULF_BAD_REQUEST", 400))).toBe(false);
    expect(isAuth(err("RACKFORM_ERR_MAAS_POWER_DENIED", 503))).toBe(false);
  });
});

describe("isTransient", () => {
  it("no connection, no answer in time and an unavailable scheduler pass", () => {
    expect(isTransient(new HttpConnectError("refused", {}))).toBe(true);
    expect(isTransient(new HttpTimeoutError("slow", "headers", {}))).toBe(true);
    expect(isTransient(err("RACKFORM_ERR_SLURM_UNAVAILABLE"))).toBe(true);
  });
  it("a 5xx or 429 passes whatever the service's code; 4xx, TLS and refused credentials do not", () => {
    for (const s of [500, 502, 503, 504, 429]) expect(isTransient(http(s)), String(s)).toBe(true);
    expect(isTransient(err("RACKFORM_ERR_IRONIC_CONFLICT", 503))).toBe(true);
    for (const s of [400, 401, 403, 404, 409]) expect(isTransient(http(s)), String(s)).toBe(false);
    expect(isTransient(new TlsError("untrusted", {}))).toBe(false);
    expect(isTransient(err("RACKFORM_ERR_MAAS_AUTH", 401))).toBe(false);
  });
});

describe("isUnreachable", () => {
  it("is true only when nothing answered: connect, timeout, TLS", () => {
    expect(isUnreachable(new HttpConnectError("refused", {}))).toBe(true);
    expect(isUnreachable(new HttpTimeoutError("slow", "connect", {}))).toBe(true);
    expect(isUnreachable(new TlsError("untrusted", {}))).toBe(true);
    expect(isUnreachable(http(503))).toBe(false);
    expect(isUnreachable(err("RACKFORM_ERR_REDFISH_AUTH", 401))).toBe(false);
  });
});

describe("never from message text", () => {
  const plain = [
    new Error("HTTP 404: not found"),
    new Error("node 'n1' already exists (409)"),
    new Error("401 Unauthorized"),
    new Error("connect ECONNRESET: 503 Service Unavailable"),
    "404",
    undefined,
    { code: "RACKFORM_ERR_MAAS_NOT_FOUND", status: 404 },
  ];
  it.each(plain)("%s is in no class", (e) => {
    for (const f of [isNotFound, isConflict, isAuth, isTransient, isUnreachable]) expect(f(e)).toBe(false);
  });
  it("a client error's message does not move it between classes", () => {
    const e = new RackformClientError("RACKFORM_ERR_BCM_REJECTED", "not found; already exists; 401; 503", {});
    for (const f of [isNotFound, isConflict, isAuth, isTransient, isUnreachable]) expect(f(e)).toBe(false);
  });
});

describe("MAAS power query refusal", () => {
  const relayed = (said: string) =>
    new HttpStatusError(`GET /MAAS/api/2.0/machines/x/ failed with HTTP 503: ${said}`, {
      status: 503,
      serverMessage: said,
    });
  it("a 503 relaying the BMC's 401 becomes RACKFORM_ERR_MAAS_POWER_DENIED, message and status kept", () => {
    const e = powerQueryRefusal(relayed("Redfish BMC rejected the power credentials (HTTP 401)"));
    expect(e).toBeInstanceOf(MaasError);
    expect((e as MaasError).code).toBe("RACKFORM_ERR_MAAS_POWER_DENIED");
    expect((e as MaasError).status).toBe(503);
    expect((e as MaasError).message).toMatch(/HTTP 401/);
  });
  it("any other failure is returned as it was", () => {
    const unanswered = relayed("Failed to reach the BMC: timed out");
    expect(powerQueryRefusal(unanswered)).toBe(unanswered);
    const gone = err("RACKFORM_ERR_MAAS_NOT_FOUND", 404);
    expect(powerQueryRefusal(gone)).toBe(gone);
    const plain = new Error("HTTP 503: 401");
    expect(powerQueryRefusal(plain)).toBe(plain);
  });
});

describe("unlessNotFound", () => {
  it("reads absent as undefined and lets every other failure through", async () => {
    const gone = new MaasError("RACKFORM_ERR_MAAS_NOT_FOUND", "no machine x");
    const refused = new MaasError("RACKFORM_ERR_MAAS_AUTH", "bad key");
    expect(await unlessNotFound(Promise.resolve(3))).toBe(3);
    expect(await unlessNotFound(Promise.reject(gone))).toBeUndefined();
    await expect(unlessNotFound(Promise.reject(refused))).rejects.toBe(refused);
  });
});
