/**
 * ComponentIntegrity through the Redfish client, against the DMTF public-rackmount1 mockup (its ComponentIntegrity
 * members and AC-RoT0 certificate) on a loopback server: the members (read with $expand where the root offers it), the
 * SPDMGetSignedMeasurements action (answers built per DSP0274 by test/support/attest/spdm-builder.ts), the responder's
 * chain, and the whole path from a BMC origin to verified measurements.
 */
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { compareReference, parseReferenceValues, verifyAnswer } from "../../../src/clients/attest/index.js";
import { isClientError } from "../../../src/clients/errors.js";
import { RedfishClient } from "../../../src/clients/redfish/client.js";
import { parseComponentIntegrity, parseSpdmAnswer } from "../../../src/clients/redfish/index.js";
import { buildTranscript, labBlocks, makePki } from "../../support/attest/spdm-builder.js";
import { fixture, type MockupServer, requireFixtures, startMockup } from "../../support/clients/mockup-server.js";

const servers: MockupServer[] = [];
const clients: RedfishClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function mockup(name = "public-rackmount1") {
  const server = await startMockup(join(requireFixtures(), "dmtf", "mockups", name));
  servers.push(server);
  const client = new RedfishClient({ baseUrl: server.url, username: "admin", password: "secret" });
  clients.push(client);
  return { server, client };
}

const SPDM0 = "/redfish/v1/ComponentIntegrity/SS-SPDM-0";
const ACTION = `${SPDM0}/Actions/ComponentIntegrity.SPDMGetSignedMeasurements`;
const CERT = "/redfish/v1/Chassis/1U/TrustedComponents/AC-RoT0/Certificates/DeviceCert";
let pki: Awaited<ReturnType<typeof makePki>>;
beforeAll(async () => {
  pki = await makePki();
});

/** The mockup's SS-SPDM-0 with the action and a PEMchain certificate of the test's PKI. */
function withResponder(server: MockupServer, answer: (nonceHex: string) => string) {
  server.override(SPDM0, (j) => ({
    ...j,
    Actions: { "#ComponentIntegrity.SPDMGetSignedMeasurements": { target: ACTION } },
  }));
  server.override(CERT, (j) => ({ ...j, CertificateType: "PEMchain", CertificateString: pki.chainPem }));
  server.route("POST", ACTION, ({ body }) => {
    const req = JSON.parse(body);
    return {
      status: 200,
      body: {
        "@odata.type": "#ComponentIntegrity.v1_0_0.SPDMGetSignedMeasurementsResponse",
        Version: "1.2",
        HashingAlgorithm: "TPM_ALG_SHA_384",
        SigningAlgorithm: "TPM_ALG_ECDSA_ECC_NIST_P384",
        SignedMeasurements: answer(req.Nonce),
        Certificate: { "@odata.id": CERT },
      },
    };
  });
}

describe("Redfish ComponentIntegrity", () => {
  it("lists the mockup's members: type, version, target, protected components, certificate", async () => {
    const { server, client } = await mockup();
    const all = await client.componentIntegrity();
    expect(all.map((c) => c.id)).toEqual(["SS-SPDM-0", "SS-SPDM-1", "TPM-0", "USB-Integrity"]);
    expect(all[0]).toEqual({
      id: "SS-SPDM-0",
      uri: SPDM0,
      type: "SPDM",
      typeVersion: "1.1.0",
      enabled: true,
      targetUri: "/redfish/v1/Chassis/1U/TrustedComponents/AC-RoT0",
      protects: [],
      certificateUri: CERT,
    });
    expect(all[2]).toMatchObject({
      type: "TPM",
      targetUri: "/redfish/v1/Chassis/1U/TrustedComponents/TPM",
      certificateUri: "/redfish/v1/Chassis/1U/TrustedComponents/TPM/Certificates/EKCert",
    });
    expect(all[3]).toMatchObject({ type: "SPDM", typeVersion: "", enabled: false });
    // The root advertises $expand: the collection was asked for expanded.
    expect(server.seen.find((s) => s.path === "/redfish/v1/ComponentIntegrity")?.query).toBe("$expand=.");
  });

  it("reads Links.ComponentsProtected and a TPM's certificate (DSP2046's example)", () => {
    const tpm = parseComponentIntegrity(fixture("dmtf/mockups/DSP2046-examples/ComponentIntegrity-v1-example.json"));
    expect(tpm).toEqual({
      id: "TPM-0",
      uri: "/redfish/v1/ComponentIntegrity/TPM-0",
      type: "TPM",
      typeVersion: "1.2.0",
      enabled: true,
      targetUri: "/redfish/v1/Systems/437XR1138R2#/TrustedModules/0",
      protects: ["/redfish/v1/Systems/437XR1138R2/GraphicsControllers/GPU1"],
      certificateUri: "/redfish/v1/Systems/437XR1138R2/Certificates/TPMcert",
    });
  });

  it("reads an expanded collection in one request", async () => {
    const { server, client } = await mockup();
    const inline = ["SS-SPDM-0", "SS-SPDM-1", "TPM-0", "USB-Integrity"].map((id) =>
      fixture(`dmtf/mockups/public-rackmount1/ComponentIntegrity/${id}/index.json`),
    );
    server.route("GET", "/redfish/v1/ComponentIntegrity", ({ query }) =>
      query === "$expand=."
        ? { status: 200, body: { "@odata.id": "/redfish/v1/ComponentIntegrity", Members: inline } }
        : undefined,
    );
    expect(await client.componentIntegrity()).toHaveLength(4);
    expect(server.seen.filter((s) => s.path.startsWith("/redfish/v1/ComponentIntegrity"))).toHaveLength(1);
  });

  it("returns no components from a BMC whose root links no ComponentIntegrity", async () => {
    const { server, client } = await mockup("public-tower");
    expect(await client.componentIntegrity()).toEqual([]);
    expect(server.seen.filter((s) => s.path !== "/redfish/v1")).toEqual([]);
  });

  it("parses DSP2046's SPDMGetSignedMeasurements answer and sends the request's shape", async () => {
    const example = fixture(
      "dmtf/mockups/DSP2046-examples/ComponentIntegrity-v1-SPDMGetSignedMeasurements-response-example.json",
    );
    expect(parseSpdmAnswer(example, "x")).toEqual({
      version: "1.1",
      hashingAlgorithm: "SHA256",
      signingAlgorithm: "TPM_ALG_RSAPSS_3072",
      signedMeasurementsB64: example.SignedMeasurements,
      certificateUri: "/redfish/v1/Systems/437XR1138R2/Certificates/SScert",
    });
    const { server, client } = await mockup();
    withResponder(
      server,
      (n) => buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks: labBlocks("1.0") }).b64,
    );
    const nonceHex = randomBytes(32).toString("hex");
    await client.spdmSignedMeasurements(ACTION, { nonceHex, indices: [1, 2] });
    const sent = JSON.parse(server.seen.find((s) => s.method === "POST" && s.path === ACTION)?.body ?? "{}");
    const request = fixture(
      "dmtf/mockups/DSP2046-examples/ComponentIntegrity-v1-SPDMGetSignedMeasurements-request-example.json",
    );
    expect(Object.keys(sent).sort()).toEqual(Object.keys(request).sort());
    expect(sent).toEqual({ Nonce: nonceHex, SlotId: 0, MeasurementIndices: [1, 2] });
  });

  it("goes from a BMC origin to verified measurements compared with reference values", async () => {
    const { server, client } = await mockup();
    const blocks = labBlocks("96.00.5E.00.01");
    withResponder(server, (n) => buildTranscript({ signer: pki.leaf.privateKey, nonceHex: n, blocks }).b64);
    const gpu = (await client.componentIntegrity()).find((c) => c.id === "SS-SPDM-0");
    expect(gpu?.measureUri).toBe(ACTION);
    const nonceHex = randomBytes(32).toString("hex");
    const answer = await client.spdmSignedMeasurements(gpu?.measureUri ?? "", { nonceHex });
    expect(answer).toMatchObject({ version: "1.2", hashingAlgorithm: "TPM_ALG_SHA_384", certificateUri: CERT });
    const chain = await client.certificateChain(answer.certificateUri ?? gpu?.certificateUri ?? "");
    expect(chain).toHaveLength(3);
    const verified = await verifyAnswer({
      transcriptB64: answer.signedMeasurementsB64,
      nonceHex,
      chainPem: chain.join(""),
      trustAnchorsPem: pki.root.pem,
      component: gpu?.id,
      now: new Date("2026-11-27T00:00:00Z"),
    });
    expect(verified.problems).toEqual([]);
    const refs = parseReferenceValues({
      rackform_reference_values: 1,
      references: [
        {
          version: "96.00.5E.00.01",
          measurements: [1, 2, 3, 4].map((index) => ({
            index,
            alg: "sha-384",
            digest: blocks[index - 1].value.toString("hex"),
          })),
        },
      ],
    });
    expect(compareReference(verified.measurements, refs, { component: gpu?.id })).toEqual([]);
  });

  it("tells a component that does not answer (503, timeout) apart from other failures", async () => {
    const { server, client } = await mockup();
    withResponder(server, () => "");
    const nonceHex = randomBytes(32).toString("hex");
    server.route("POST", ACTION, () => ({
      status: 503,
      body: { error: { code: "Base.1.8.ServiceTemporarilyUnavailable", message: "GPU0 does not respond" } },
    }));
    const silent = await client.spdmSignedMeasurements(ACTION, { nonceHex }).catch((e: unknown) => e);
    expect(isClientError(silent, "RACKFORM_ERR_REDFISH_COMPONENT_SILENT")).toBe(true);
    expect((silent as Error).message).toMatch(/did not answer SPDMGetSignedMeasurements \(the BMC answered 503\)/);
    server.route("POST", ACTION, () => "hang");
    const hung = await client.spdmSignedMeasurements(ACTION, { nonceHex, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(isClientError(hung, "RACKFORM_ERR_REDFISH_COMPONENT_SILENT")).toBe(true);
    expect((hung as Error).message).toMatch(/timed out/);
    server.route("POST", ACTION, () => ({
      status: 400,
      body: { error: { code: "Base.1.8.PropertyValueFormatError", message: "bad nonce" } },
    }));
    const refused = await client.spdmSignedMeasurements(ACTION, { nonceHex }).catch((e: unknown) => e);
    expect(isClientError(refused, "RACKFORM_ERR_HTTP_STATUS")).toBe(true);
    await expect(client.spdmSignedMeasurements(ACTION, { nonceHex: "abcd" })).rejects.toThrow(/64 hex digits/);
  });

  it("splits a certificate's CertificateString into PEM blocks; refuses other certificate types", async () => {
    const { server, client } = await mockup();
    expect(await client.certificateChain(CERT)).toHaveLength(1);
    server.override(CERT, (j) => ({ ...j, CertificateType: "PKCS7" }));
    const e = await client.certificateChain(CERT).catch((x: unknown) => x);
    expect(isClientError(e, "RACKFORM_ERR_REDFISH_BAD_PAYLOAD")).toBe(true);
  });
});
