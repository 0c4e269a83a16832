/**
 * Integration: a CA bundle is checked once, when the client is configured, and its secure context is built once and
 * shared by every connection to every BMC that trusts it (building one per connection was the largest CPU cost of a
 * fleet's TLS).
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientConfigError } from "../../../src/clients/errors.js";
import { HttpCore } from "../../../src/clients/http/core.js";
import { resolveTls } from "../../../src/clients/http/tls.js";
import { powerOutlet, startTestLab, type TestLab } from "../lab/lab-client.js";

describe("TLS settings of the HTTP core", () => {
  let t: TestLab;
  beforeAll(async () => {
    t = await startTestLab({ nodes: 2 });
    for (const n of t.lab.info.nodes) await powerOutlet(t, n.name);
  });
  afterAll(async () => t?.stop());

  it("shares one secure context per CA bundle, and it verifies every BMC of the lab", async () => {
    const a = resolveTls({ ca: t.lab.info.ca });
    const b = resolveTls({ ca: readFileSync(t.lab.info.ca, "utf8") });
    expect(a.secureContext).toBe(b.secureContext);
    expect(a.rejectUnauthorized).toBe(true);
    const core = new HttpCore({ tls: { ca: t.lab.info.ca } });
    try {
      for (const n of t.lab.info.nodes) {
        const res = await core.request({ method: "GET", url: `${n.bmc.url}/redfish/v1/` });
        expect(res.status).toBe(200);
      }
    } finally {
      await core.close();
    }
  });

  it("trusts NODE_EXTRA_CA_CERTS as the launcher passes it on (RACKFORM_EXTRA_CA_CERTS) when no bundle is given", async () => {
    // The default trust is built once per process, on first use: nothing else in this file uses it.
    process.env.RACKFORM_EXTRA_CA_CERTS = t.lab.info.ca;
    const core = new HttpCore({});
    try {
      const res = await core.request({ method: "GET", url: `${t.lab.info.nodes[0].bmc.url}/redfish/v1/` });
      expect(res.status).toBe(200);
    } finally {
      delete process.env.RACKFORM_EXTRA_CA_CERTS;
      await core.close();
    }
  });

  it("refuses a damaged bundle when configured, naming the setting, before any connection", () => {
    const pem = readFileSync(t.lab.info.ca, "utf8");
    const damaged = pem.replace(/\n[A-Za-z0-9+/]{20}/, "\n!!!!");
    expect(() => resolveTls({ ca: damaged })).toThrow(ClientConfigError);
    expect(() => resolveTls({ ca: damaged })).toThrow(/^ca: the CA bundle is not valid PEM/);
  });
});
