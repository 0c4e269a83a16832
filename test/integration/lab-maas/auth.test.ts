// OAuth 1.0 PLAINTEXT as MAAS checks it: good keys pass, anything else is a 401 that never echoes a secret.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oauthHeader } from "../../support/maas-oauth.js";
import { API_KEY, call, type Lab, startLab } from "./support.js";

let lab: Lab;
beforeAll(async () => {
  lab = await startLab();
});
afterAll(async () => lab.close());

describe("MAAS lab OAuth", () => {
  it("accepts the API key and reports the admin user", async () => {
    const r = await call(lab, "users/", { op: "whoami" });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ username: "admin", is_superuser: true });
  });

  it("accepts the signature both percent-encoded (as oauthlib sends it) and raw (as the MAAS docs show it)", async () => {
    const encoded = oauthHeader(API_KEY);
    expect(encoded).toContain('oauth_signature="%26labsecret"');
    expect((await call(lab, "machines/", { authorization: encoded })).status).toBe(200);
    const raw = oauthHeader(API_KEY).replace("%26labsecret", "&labsecret");
    expect((await call(lab, "machines/", { authorization: raw })).status).toBe(200);
  });

  it("fails with 401 and MAAS's text when the secret is wrong, without revealing the right one", async () => {
    const r = await call(lab, "machines/", { key: "labconsumer:labtoken:wrong" });
    expect(r.status).toBe(401);
    expect(r.text).toBe("Authorization Error: 'Invalid signature.'");
    expect(r.text).not.toContain("labsecret");
  });

  it("fails with 401 when the Authorization header is missing", async () => {
    const r = await call(lab, "machines/", { key: null });
    expect(r.status).toBe(401);
    expect(r.contentType).toContain("text/plain");
  });

  it("fails with 401 'Invalid access token' when the token key is unknown", async () => {
    const r = await call(lab, "machines/", { key: "labconsumer:othertoken:labsecret" });
    expect(r.status).toBe(401);
    expect(r.text).toContain("Invalid access token:");
    expect(r.text).not.toContain("othertoken");
  });

  it("fails with 401 'Invalid API key.' when the consumer key is unknown", async () => {
    const r = await call(lab, "machines/", { key: "nobody:labtoken:labsecret" });
    expect(r.status).toBe(401);
    expect(r.text).toBe("Authorization Error: Invalid API key.");
  });

  it("fails with 401 when a required OAuth parameter is missing", async () => {
    const header = oauthHeader(API_KEY).replace(/, oauth_nonce="[^"]*"/, "");
    expect((await call(lab, "machines/", { authorization: header })).status).toBe(401);
  });

  it("fails with 400 when oauth_timestamp is not an integer", async () => {
    const header = oauthHeader(API_KEY).replace(/oauth_timestamp="\d+"/, 'oauth_timestamp="soon"');
    const r = await call(lab, "machines/", { authorization: header });
    expect(r.status).toBe(400);
    expect(r.text).toContain("oauth_timestamp has an unexpected type");
  });

  it("fails with 401 when a signed request is replayed with the same nonce", async () => {
    const header = oauthHeader(API_KEY);
    expect((await call(lab, "machines/", { authorization: header })).status).toBe(200);
    const replay = await call(lab, "machines/", { authorization: header });
    expect(replay.status).toBe(401);
    expect(replay.text).toBe("Authorization Error: 'Nonce already used.'");
  });

  it("fails with 401 when the timestamp is far from the region's clock", async () => {
    const stale = Math.floor(Date.now() / 1000) - 3600;
    const header = oauthHeader(API_KEY).replace(/oauth_timestamp="\d+"/, `oauth_timestamp="${stale}"`);
    const r = await call(lab, "machines/", { authorization: header });
    expect(r.status).toBe(401);
    expect(r.text).toContain("Expired timestamp");
  });

  it("serves version/ and describe/ anonymously, like MAAS", async () => {
    const v = await call(lab, "version/", { key: null });
    expect(v.status).toBe(200);
    expect(v.json.capabilities).toContain("authenticate-api");
    const d = await call(lab, "describe/", { key: null });
    expect(d.status).toBe(200);
    const machine = d.json.resources.find((r: { name: string }) => r.name === "MachineHandler");
    expect(machine.auth.uri).toBe(`${new URL(lab.url).origin}/MAAS/api/2.0/machines/{system_id}/`);
    expect(machine.auth.params).toEqual(["system_id"]);
  });

  it("rejects a bad signature even on the anonymous version/ endpoint", async () => {
    expect((await call(lab, "version/", { key: "labconsumer:labtoken:wrong" })).status).toBe(401);
  });

  it("logs every request with method, path, op, query, status and arrival time", async () => {
    const before = Date.now();
    await call(lab, "users/", { op: "whoami" });
    expect(lab.maas.requests.at(-1)).toEqual({
      method: "GET",
      path: "/MAAS/api/2.0/users/",
      op: "whoami",
      query: "op=whoami",
      status: 200,
      at: expect.any(Number),
    });
    expect(lab.maas.requests.at(-1)!.at).toBeGreaterThanOrEqual(before);
    expect(lab.maas.requests.some((r) => r.status === 401)).toBe(true);
  });
});
