/** Integration: each BMC presents its own certificate from the lab CA, valid for its address and no other. */
import { readFileSync } from "node:fs";
import { checkServerIdentity, connect, type PeerCertificate } from "node:tls";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { powerOutlet, startTestLab, type TestLab } from "./lab-client.js";

function peerCert(url: string, ca: Buffer): Promise<PeerCertificate> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = connect({ host: u.hostname, port: Number(u.port), ca }, () => {
      resolve(s.getPeerCertificate());
      s.end();
    });
    s.on("error", reject);
  });
}

describe("lab TLS", () => {
  let t: TestLab;
  beforeAll(async () => {
    t = await startTestLab({ nodes: 2 });
    for (const n of t.lab.info.nodes) await powerOutlet(t, n.name);
  });
  afterAll(async () => t?.stop());

  it("verifies against the lab CA, and a BMC's certificate names only its own address", async () => {
    const ca = readFileSync(t.lab.info.ca);
    const [a, b] = t.lab.info.nodes.map((n) => new URL(n.bmc.url).hostname);
    const cert = await peerCert(t.lab.info.nodes[0].bmc.url, ca);
    expect(checkServerIdentity(a, cert)).toBeUndefined();
    expect(checkServerIdentity(b, cert)).toBeInstanceOf(Error);
  });

  it("refuses a client that does not trust the lab CA", async () => {
    await expect(peerCert(t.lab.info.nodes[0].bmc.url, Buffer.from(""))).rejects.toThrow();
  });
});
