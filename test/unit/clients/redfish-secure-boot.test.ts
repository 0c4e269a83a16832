/**
 * Secure Boot through the Redfish client: the parsers against DMTF's public-tower mockup, DSP2046's examples and sushy's
 * samples, and the client's reads and writes against the mockup on a loopback server (PATCH with If-Match, enrolment
 * of a certificate and of a hash, deletion).
 */
import { X509Certificate } from "node:crypto";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { isClientError } from "../../../src/clients/errors.js";
import { RedfishClient } from "../../../src/clients/redfish/client.js";
import {
  parseDbCertificate,
  parseDbSignature,
  parseSecureBoot,
  parseSecureBootDatabase,
} from "../../../src/clients/redfish/index.js";
import { fixture, type MockupServer, requireFixtures, startMockup } from "../../support/clients/mockup-server.js";

const servers: MockupServer[] = [];
const clients: RedfishClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function tower() {
  const server = await startMockup(join(requireFixtures(), "dmtf", "mockups", "public-tower"));
  servers.push(server);
  const client = new RedfishClient({ baseUrl: server.url, username: "admin", password: "secret" });
  clients.push(client);
  return { server, client };
}

const SYSTEM = "/redfish/v1/Systems/437XR1238R2";
const SB = `${SYSTEM}/SecureBoot`;
const DBS = `${SB}/SecureBootDatabases`;
const TOWER = "dmtf/mockups/public-tower/Systems/437XR1238R2/SecureBoot";

/** SHA-256 of a fixture certificate's DER, computed by node:crypto (independently of the client's @peculiar/x509). */
function fingerprint(rel: string): string {
  const pem = (fixture(rel) as { CertificateString: string }).CertificateString;
  return new X509Certificate(pem).fingerprint256.replace(/:/g, "").toLowerCase();
}

describe("Secure Boot parsers", () => {
  it("reads SecureBoot from the mockup, DSP2046's example and sushy's sample", () => {
    expect(parseSecureBoot(fixture(`${TOWER}/index.json`), '"e1"')).toEqual({
      uri: SB,
      enable: false,
      currentBoot: "Disabled",
      mode: "UserMode",
      databasesUri: DBS,
      resetKeysTarget: `${SB}/Actions/SecureBoot.ResetKeys`,
      etag: '"e1"',
    });
    expect(parseSecureBoot(fixture("dmtf/mockups/DSP2046-examples/SecureBoot-v1-example.json"))).toMatchObject({
      uri: "/redfish/v1/Systems/1/SecureBoot",
      databasesUri: "/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases",
    });
    expect(parseSecureBoot(fixture("sushy/json_samples/secure_boot.json"))).toMatchObject({
      enable: false,
      mode: "DeployedMode",
      databasesUri: "/redfish/v1/Systems/437XR1138R2/SecureBoot/SecureBootDatabases",
    });
  });

  it("reads key databases (DSP2046, sushy), certificates and signatures", () => {
    expect(
      parseSecureBootDatabase(fixture("dmtf/mockups/DSP2046-examples/SecureBootDatabase-v1-example.json")),
    ).toEqual({
      id: "PK",
      uri: "/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/PK",
      certificatesUri: "/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/PK/Certificates",
      certificates: [],
      signatures: [],
    });
    expect(parseSecureBootDatabase(fixture("sushy/json_samples/secure_boot_database.json"))).toMatchObject({
      id: "db",
      signaturesUri: "/redfish/v1/Systems/437XR1138R2/SecureBoot/SecureBootDatabases/db/Signatures",
    });
    const cert = `${TOWER}/SecureBootDatabases/db/Certificates/1/index.json`;
    expect(parseDbCertificate(fixture(cert))).toEqual({
      uri: `${DBS}/db/Certificates/1`,
      sha256: fingerprint(cert),
      subject: "C=US, ST=NC, L=Raleigh, O=Lenovo, CN=Lenovo UEFI DB",
    });
    // DSP2046's certificate is truncated ("[*truncated*]"): no fingerprint, the subject the resource states.
    expect(parseDbCertificate(fixture("dmtf/mockups/DSP2046-examples/Certificate-v1-example.json"))).toEqual({
      uri: "/redfish/v1/Managers/BMC/NetworkProtocol/HTTPS/Certificates/1",
      subject: "CN=manager.contoso.org",
    });
    expect(parseDbSignature(fixture("dmtf/mockups/DSP2046-examples/Signature-v1-example.json"))).toEqual({
      uri: "/redfish/v1/Systems/1/SecureBoot/SecureBootDatabases/db/Signatures/1",
      hashHex: "80b4d96931bf0d02fd91a61e19d14f1da452e66db2408ca8604d411f92659f0a",
      type: "EFI_CERT_SHA256_GUID",
    });
  });
});

describe("Secure Boot through the client", () => {
  it("reads only the databases asked for (by the id their URI ends in), else every one", async () => {
    const { client } = await tower();
    const uri = (await client.secureBoot(SYSTEM)).databasesUri ?? "";
    expect((await client.secureBootDatabases(uri, ["db", "KEK"])).map((d) => d.id)).toEqual(["KEK", "db"]);
    expect((await client.secureBootDatabases(uri, ["db", "nosuch"])).map((d) => d.id)).toHaveLength(8);
  });

  it("reads a system's SecureBoot and every database with its certificates and signatures", async () => {
    const { client } = await tower();
    const sb = await client.secureBoot(SYSTEM);
    expect(sb).toMatchObject({ uri: SB, enable: false, mode: "UserMode", databasesUri: DBS });
    expect(sb.etag).toMatch(/^"/);
    const dbs = await client.secureBootDatabases(sb.databasesUri ?? "");
    expect(dbs.map((d) => d.id)).toEqual([
      "PK",
      "KEK",
      "db",
      "dbx",
      "PKDefault",
      "KEKDefault",
      "dbDefault",
      "dbxDefault",
    ]);
    const db = dbs.find((d) => d.id === "db");
    expect(db?.certificates.map((c) => c.sha256)).toEqual(
      [1, 2, 3].map((n) => fingerprint(`${TOWER}/SecureBootDatabases/db/Certificates/${n}/index.json`)),
    );
    expect(db?.certificates[2].subject).toContain("CN=Microsoft Windows Production PCA 2011");
    expect(db?.signatures).toEqual([
      {
        uri: `${DBS}/db/Signatures/1`,
        hashHex: "80b4d96931bf0d02fd91a61e19d14f1da452e66db2408ca8604d411f92659f0a",
        type: "EFI_CERT_SHA256_GUID",
      },
    ]);
    expect(dbs.find((d) => d.id === "dbx")?.signatures).toHaveLength(3);
    expect(dbs.find((d) => d.id === "PK")?.signatures).toEqual([]);
  });

  it("sets SecureBootEnable with If-Match on the ETag; re-reads once after a 412", async () => {
    const { server, client } = await tower();
    let patches = 0;
    server.route("PATCH", SB, ({ body, headers }) => {
      patches++;
      if (patches === 1) return { status: 412, body: { error: { message: "The ETag supplied did not match." } } };
      server.override(SB, (j) => ({ ...j, ...JSON.parse(body) }));
      expect(headers["if-match"]).toMatch(/^"/);
      return { status: 204 };
    });
    const after = await client.setSecureBootEnable(SB, true);
    expect(after.enable).toBe(true);
    const sent = server.seen.filter((s) => s.method === "PATCH");
    expect(sent).toHaveLength(2);
    expect(JSON.parse(sent[1].body)).toEqual({ SecureBootEnable: true });
    expect(sent.every((s) => typeof s.headers["if-match"] === "string")).toBe(true);
  });

  it("enrols a PEM certificate, adds a SHA-256 signature and deletes a member", async () => {
    const { server, client } = await tower();
    const certPem = fixture(`${TOWER}/SecureBootDatabases/db/Certificates/1/index.json`).CertificateString as string;
    server.route("POST", `${DBS}/db/Certificates`, () => ({
      status: 201,
      headers: { location: `${DBS}/db/Certificates/4` },
    }));
    server.route("POST", `${DBS}/dbx/Signatures`, () => ({
      status: 201,
      body: { "@odata.id": `${DBS}/dbx/Signatures/4` },
    }));
    server.route("DELETE", `${DBS}/dbx/Signatures/2`, () => ({ status: 204 }));
    expect(await client.enrolCertificate(`${DBS}/db`, certPem)).toBe(`${DBS}/db/Certificates/4`);
    const hash = "ab".repeat(32);
    expect(await client.addSignature(`${DBS}/dbx`, hash)).toBe(`${DBS}/dbx/Signatures/4`);
    await client.deleteMember(`${DBS}/dbx/Signatures/2`);
    const posts = server.seen.filter((s) => s.method === "POST" && s.path.startsWith(DBS));
    expect(JSON.parse(posts[0].body)).toEqual({ CertificateString: certPem, CertificateType: "PEM" });
    expect(JSON.parse(posts[1].body)).toEqual({
      SignatureString: hash.toUpperCase(),
      SignatureTypeRegistry: "UEFI",
      SignatureType: "EFI_CERT_SHA256_GUID",
    });
    expect(server.seen.some((s) => s.method === "DELETE" && s.path === `${DBS}/dbx/Signatures/2`)).toBe(true);
    const e = await client.addSignature(`${DBS}/PK`, hash).catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_NOT_FOUND")).toBe(true);
  });
});
