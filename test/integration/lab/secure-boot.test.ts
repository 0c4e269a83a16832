/**
 * Integration: UEFI Secure Boot on the lab's Systems — defaults, SecureBootEnable pending until the host's next reset,
 * certificate enrolment and deletion, dbx signatures, ResetKeys — and a deploy that fails under Secure Boot with an
 * image the host's db does not trust (MAAS) or whose boot loader dbx forbids (Ironic), with the violation in the BMC's
 * event log.
 */
import "reflect-metadata";
import { createHash, webcrypto, X509Certificate } from "node:crypto";
import * as x509 from "@peculiar/x509";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedfishMachine, ironic, ironicState, maas, maasStatus } from "../lab-composed/support.js";
import { call, control, type Json, powerOutlet, startTestLab, type TestLab } from "./lab-client.js";

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** A self-signed certificate (PEM) standing in for a distribution's or a customer's signing CA. */
async function signingCa(cn: string): Promise<string> {
  const alg = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
  const keys = (await webcrypto.subtle.generateKey(alg, true, ["sign", "verify"])) as unknown as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: `CN=${cn}`,
    notBefore: new Date(Date.now() - 86_400_000),
    notAfter: new Date(Date.now() + 365 * 86_400_000),
    keys,
    signingAlgorithm: alg,
    extensions: [new x509.BasicConstraintsExtension(true, undefined, true)],
  });
  return cert.toString("pem");
}

describe("UEFI Secure Boot on the lab's Systems", () => {
  let t: TestLab;
  const bmcOf = (i: number) => t.lab.info.nodes[i].bmc.url;
  const nodeOf = (i: number) => {
    const n = t.lab.world.node(t.lab.info.nodes[i].name);
    if (!n) throw new Error("node");
    return n;
  };
  const sb = (i: number) => `/redfish/v1/Systems/${nodeOf(i).systemId}/SecureBoot`;
  const db = (i: number, id: string) => `${sb(i)}/SecureBootDatabases/${id}`;
  const get = async (i: number, path: string) => (await call(t, bmcOf(i), "GET", path)).body;
  const reset = (i: number, ResetType: string) =>
    call(t, bmcOf(i), "POST", `/redfish/v1/Systems/${nodeOf(i).systemId}/Actions/ComputerSystem.Reset`, {
      body: { ResetType },
    });

  beforeAll(async () => {
    t = await startTestLab({ nodes: 3 });
    for (const n of t.lab.info.nodes) await powerOutlet(t, n.name);
  });
  afterAll(async () => t?.stop());

  it("every System links SecureBoot: off, UserMode, eight databases, the distribution CA in db, a revoked hash in dbx", async () => {
    const system = await get(0, `/redfish/v1/Systems/${nodeOf(0).systemId}`);
    expect(system.SecureBoot["@odata.id"]).toBe(sb(0));
    const s = await get(0, sb(0));
    expect(s).toMatchObject({ SecureBootEnable: false, SecureBootCurrentBoot: "Disabled", SecureBootMode: "UserMode" });
    expect(s.Actions["#SecureBoot.ResetKeys"]["ResetKeysType@Redfish.AllowableValues"]).toEqual([
      "ResetAllKeysToDefault",
      "DeleteAllKeys",
      "DeletePK",
    ]);
    const dbs = await get(0, s.SecureBootDatabases["@odata.id"]);
    expect(dbs.Members.map((m: Json) => m["@odata.id"].split("/").pop())).toEqual([
      "PK",
      "KEK",
      "db",
      "dbx",
      "PKDefault",
      "KEKDefault",
      "dbDefault",
      "dbxDefault",
    ]);
    const dbCerts = await get(0, `${db(0, "db")}/Certificates`);
    expect(dbCerts["@Redfish.SupportedCertificates"]).toEqual(["PEM"]);
    const first = await get(0, dbCerts.Members[0]["@odata.id"]);
    const distribution = (await control(t, "GET", "/secure-boot/distribution-ca")).headers;
    expect(distribution["content-type"]).toBe("application/x-pem-file");
    const caPem = await (await fetch(`${t.lab.info.control.url}/secure-boot/distribution-ca`)).text();
    expect(new X509Certificate(first.CertificateString).fingerprint256).toBe(new X509Certificate(caPem).fingerprint256);
    const dbx = await get(0, `${db(0, "dbx")}/Signatures`);
    expect(dbx["Members@odata.count"]).toBe(1);
    expect(await get(0, dbx.Members[0]["@odata.id"])).toMatchObject({
      SignatureTypeRegistry: "UEFI",
      SignatureType: "EFI_CERT_SHA256_GUID",
    });
    expect((await call(t, bmcOf(0), "GET", `${db(0, "PK")}/Signatures`)).status).toBe(404);
  });

  it("GIVEN SecureBootEnable patched WHEN the host has not reset THEN the current boot stays Disabled; after a reset it is Enabled; back off the same way", async () => {
    const patched = await call(t, bmcOf(0), "PATCH", sb(0), { body: { SecureBootEnable: true } });
    expect(patched.status).toBe(200);
    expect(patched.body["@Message.ExtendedInfo"][0].MessageId).toBe("Base.1.18.ResetRequired");
    expect(await get(0, sb(0))).toMatchObject({ SecureBootEnable: true, SecureBootCurrentBoot: "Disabled" });
    expect((await reset(0, "On")).status).toBe(204);
    expect((await get(0, sb(0))).SecureBootCurrentBoot).toBe("Enabled");
    await call(t, bmcOf(0), "PATCH", sb(0), { body: { SecureBootEnable: false } });
    expect((await get(0, sb(0))).SecureBootCurrentBoot).toBe("Enabled");
    await reset(0, "ForceRestart");
    expect((await get(0, sb(0))).SecureBootCurrentBoot).toBe("Disabled");
    // If-Match: the ETag the GET sent passes, a stale one is 412.
    const read = await call(t, bmcOf(0), "GET", sb(0));
    const stale = await call(t, bmcOf(0), "PATCH", sb(0), {
      body: { SecureBootEnable: false },
      headers: { "if-match": '"stale"' },
    });
    expect(stale.status).toBe(412);
    const fresh = await call(t, bmcOf(0), "PATCH", sb(0), {
      body: { SecureBootEnable: false },
      headers: { "if-match": read.headers.etag },
    });
    expect(fresh.status).toBe(200);
    for (const body of [{ SecureBootEnable: "yes" }, { SecureBootCurrentBoot: "Enabled" }, { Foo: 1 }])
      expect((await call(t, bmcOf(0), "PATCH", sb(0), { body })).status, JSON.stringify(body)).toBe(400);
  });

  it("without a PK (SetupMode) an enabled Secure Boot does not enforce at the next boot; ResetAllKeysToDefault restores it", async () => {
    const action = `${sb(1)}/Actions/SecureBoot.ResetKeys`;
    expect((await call(t, bmcOf(1), "POST", action, { body: { ResetKeysType: "DeletePK" } })).status).toBe(204);
    await call(t, bmcOf(1), "PATCH", sb(1), { body: { SecureBootEnable: true } });
    await reset(1, "On");
    expect(await get(1, sb(1))).toMatchObject({ SecureBootMode: "SetupMode", SecureBootCurrentBoot: "Disabled" });
    expect((await call(t, bmcOf(1), "POST", action, { body: { ResetKeysType: "Nope" } })).status).toBe(400);
    expect((await call(t, bmcOf(1), "POST", action, { body: { ResetKeysType: "ResetAllKeysToDefault" } })).status).toBe(
      204,
    );
    await reset(1, "ForceRestart");
    expect(await get(1, sb(1))).toMatchObject({ SecureBootMode: "UserMode", SecureBootCurrentBoot: "Enabled" });
    await call(t, bmcOf(1), "PATCH", sb(1), { body: { SecureBootEnable: false } });
    await reset(1, "ForceRestart");
  });

  it("a PEM certificate enrols in db (201 + Location) and is deleted; bad PEM is 400; Default databases are read-only", async () => {
    const pem = await signingCa("Customer Secure Boot CA");
    const created = await call(t, bmcOf(2), "POST", `${db(2, "db")}/Certificates`, {
      body: { CertificateString: pem, CertificateType: "PEM" },
    });
    expect(created.status).toBe(201);
    const location = created.headers.location;
    expect(location).toMatch(new RegExp(`^${db(2, "db")}/Certificates/\\d+$`));
    const got = await get(2, location);
    expect(got.Subject.CommonName).toBe("Customer Secure Boot CA");
    expect((await get(2, `${db(2, "db")}/Certificates`))["Members@odata.count"]).toBe(2);
    expect((await call(t, bmcOf(2), "DELETE", location)).status).toBe(204);
    expect((await call(t, bmcOf(2), "GET", location)).status).toBe(404);
    const bad = await call(t, bmcOf(2), "POST", `${db(2, "db")}/Certificates`, {
      body: {
        CertificateString: "-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----",
        CertificateType: "PEM",
      },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error["@Message.ExtendedInfo"][0].MessageId).toBe("Base.1.18.PropertyValueFormatError");
    expect(bad.body.error.message).toMatch(/CertificateString/);
    const def = await call(t, bmcOf(2), "POST", `${db(2, "dbDefault")}/Certificates`, {
      body: { CertificateString: pem, CertificateType: "PEM" },
    });
    expect(def.status).toBe(405);
  });

  it("a dbx signature is added as UEFI EFI_CERT_SHA256_GUID hex and deleted; a malformed one is refused", async () => {
    const hex = createHash("sha256").update("a revoked shim").digest("hex");
    const sigs = `${db(2, "dbx")}/Signatures`;
    const created = await call(t, bmcOf(2), "POST", sigs, {
      body: { SignatureString: hex, SignatureTypeRegistry: "UEFI", SignatureType: "EFI_CERT_SHA256_GUID" },
    });
    expect(created.status).toBe(201);
    expect((await get(2, created.headers.location)).SignatureString).toBe(hex.toUpperCase());
    for (const body of [
      { SignatureString: "xyz", SignatureTypeRegistry: "UEFI", SignatureType: "EFI_CERT_SHA256_GUID" },
      { SignatureString: hex, SignatureTypeRegistry: "UEFI", SignatureType: "EFI_CERT_X509_GUID" },
      { SignatureString: hex, SignatureTypeRegistry: "Other", SignatureType: "EFI_CERT_SHA256_GUID" },
    ])
      expect((await call(t, bmcOf(2), "POST", sigs, { body })).status, JSON.stringify(body)).toBe(400);
    expect((await call(t, bmcOf(2), "DELETE", created.headers.location)).status).toBe(204);
    expect((await get(2, sigs))["Members@odata.count"]).toBe(1);
  });

  /** The node's event log entries, found through its System or Manager's LogServices. */
  async function logEntries(i: number): Promise<Json[]> {
    const n = nodeOf(i);
    const system = await get(i, `/redfish/v1/Systems/${n.systemId}`);
    const parent = system.LogServices ? system : await get(i, `/redfish/v1/Managers/${n.ids.manager}`);
    const services = await get(i, parent.LogServices["@odata.id"]);
    const log = await get(i, services.Members[0]["@odata.id"]);
    return (await get(i, log.Entries["@odata.id"])).Members;
  }

  it("GIVEN Secure Boot on and an image signed by a CA not in db WHEN MAAS deploys it THEN Failed deployment and a Secure Boot violation in the BMC log; enrolled, it deploys", async () => {
    const signer = await signingCa("Unknown Distro Signing CA");
    const reg = await control(t, "POST", "/secure-boot/images", { image: "jammy", signerPem: signer });
    expect(reg.status).toBe(201);
    expect(reg.body.signer).toContain("Unknown Distro Signing CA");
    await call(t, bmcOf(0), "PATCH", sb(0), { body: { SecureBootEnable: true } });
    const created = await createRedfishMachine(t.lab, 0, "sb-a1");
    expect(created.status, created.text).toBe(200);
    const id: string = created.json.system_id;
    await maasStatus(t.lab, id, "Ready");
    await maas(t.lab, "POST", `machines/${id}/`, { op: "deploy", distro_series: "jammy" });
    const failed = await maasStatus(t.lab, id, "Failed deployment");
    expect(failed.status_message).toMatch(/Installation failed/);
    expect((await get(0, sb(0))).SecureBootCurrentBoot).toBe("Enabled");
    const violation = (await logEntries(0)).find((e) => /Secure Boot Violation/.test(e.Message));
    expect(violation).toBeDefined();
    expect(violation.Severity).toBe("Critical");
    expect(violation.Message).toContain("Unknown Distro Signing CA");
    // The signer enrolled in db: the same image deploys.
    await call(t, bmcOf(0), "POST", `${db(0, "db")}/Certificates`, {
      body: { CertificateString: signer, CertificateType: "PEM" },
    });
    await maas(t.lab, "POST", `machines/${id}/`, { op: "release" });
    await maasStatus(t.lab, id, "Ready");
    await maas(t.lab, "POST", `machines/${id}/`, { op: "deploy", distro_series: "jammy" });
    await maasStatus(t.lab, id, "Deployed");
  });

  it("GIVEN Secure Boot on and the image's boot loader hash in dbx WHEN Ironic deploys it THEN deploy failed and the log names dbx; Secure Boot off, the same image deploys", async () => {
    const image = "http://images.lab/ubuntu-gpu-2026.06.2.qcow2";
    const info = (await control(t, "GET", "/secure-boot/images/ubuntu-gpu-2026.06.2")).body;
    expect(info.bootloaderSha256).toMatch(/^[0-9A-F]{64}$/);
    await call(t, bmcOf(1), "POST", `${db(1, "dbx")}/Signatures`, {
      body: {
        SignatureString: info.bootloaderSha256,
        SignatureTypeRegistry: "UEFI",
        SignatureType: "EFI_CERT_SHA256_GUID",
      },
    });
    await call(t, bmcOf(1), "PATCH", sb(1), { body: { SecureBootEnable: true } });
    const node = t.lab.info.nodes[1];
    const created = await ironic(t.lab, "POST", "/v1/nodes", {
      name: "sb-b1",
      driver: "redfish",
      driver_info: {
        redfish_address: node.bmc.url,
        redfish_username: node.bmc.username,
        redfish_password: node.bmc.password,
        deploy_kernel: "http://images.lab/ipa.kernel",
        deploy_ramdisk: "http://images.lab/ipa.initramfs",
      },
    });
    expect(created.status, created.text).toBe(201);
    for (const [target, state] of [
      ["manage", "manageable"],
      ["provide", "available"],
    ] as const) {
      await ironic(t.lab, "PUT", "/v1/nodes/sb-b1/states/provision", { target });
      await ironicState(t.lab, "sb-b1", state);
    }
    await ironic(t.lab, "PATCH", "/v1/nodes/sb-b1", [
      { op: "add", path: "/instance_info/image_source", value: image },
      {
        op: "add",
        path: "/instance_info/image_checksum",
        value: createHash("sha256").update("ubuntu-gpu-2026.06.2").digest("hex"),
      },
    ]);
    await ironic(t.lab, "PUT", "/v1/nodes/sb-b1/states/provision", { target: "active" });
    const failed = await ironicState(t.lab, "sb-b1", "deploy failed");
    expect(failed.last_error).toMatch(/deploy/);
    const violation = (await logEntries(1)).find((e) => /Secure Boot Violation/.test(e.Message));
    expect(violation?.Message).toContain("dbx");
    // Secure Boot turned off: the next deploy's reboot boots without it, and the image deploys.
    await call(t, bmcOf(1), "PATCH", sb(1), { body: { SecureBootEnable: false } });
    await ironic(t.lab, "PUT", "/v1/nodes/sb-b1/states/provision", { target: "active" });
    await ironicState(t.lab, "sb-b1", "active");
    expect((await get(1, sb(1))).SecureBootCurrentBoot).toBe("Disabled");
  });

  it("a registration without an image, or with a signer that is not a certificate, is refused", async () => {
    expect((await control(t, "POST", "/secure-boot/images", { signerPem: "x" })).status).toBe(400);
    expect((await control(t, "POST", "/secure-boot/images", { image: "a", signerPem: "x" })).status).toBe(400);
    expect((await control(t, "POST", "/secure-boot/images", { image: "a", bootloaderSha256: "12" })).status).toBe(400);
  });
});
