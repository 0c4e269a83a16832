/**
 * Integration: component attestation through the lab's BMCs (ComponentIntegrity, SPDMGetSignedMeasurements). The
 * transcript is parsed byte by byte from DSP0274 1.2's message layouts (spdm-parse.ts) — independently of the lab's generator —
 * and its signature verified with node:crypto against the leaf certificate's key; the chain is checked up to the lab's
 * root CA (from the control API) with @peculiar/x509, the digests against the reference values the control API
 * publishes. Then each attest-* fault's observable effect.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { defaultSpec } from "../../../src/lab/index.js";
import { call, control, type Json, powerOutlet, startTestLab, type TestLab } from "./lab-client.js";
import { chainsTo, leafOf, parseTranscript, pemBlocks, signatureValid } from "./spdm-parse.js";

describe("component attestation over Redfish (SPDM 1.2 through ComponentIntegrity)", () => {
  let t: TestLab;
  let rootPem: string;
  const nodeOf = (vendor: string) => {
    const n = [...t.lab.world.nodes.values()].find((x) => x.spec.vendor === vendor);
    const info = t.lab.info.nodes.find((x) => x.name === n?.spec.name);
    if (!n || !info) throw new Error(vendor);
    return { n, name: n.spec.name, bmc: info.bmc.url };
  };
  const measure = (bmc: string, id: string, body: unknown) =>
    call(t, bmc, "POST", `/redfish/v1/ComponentIntegrity/${id}/Actions/ComponentIntegrity.SPDMGetSignedMeasurements`, {
      body,
    });
  const fault = async (spec: Record<string, unknown>) => {
    const r = await control(t, "POST", "/faults", spec);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    return r.body.id as string;
  };
  const references = async (query = "") => (await control(t, "GET", `/attestation/reference-values${query}`)).body;
  const referenceFor = (doc: Json, vendor: string, model: string, version: string) =>
    doc.references.find((x: Json) => x.vendor === vendor && x.model === model && x.version === version);

  beforeAll(async () => {
    t = await startTestLab({ spec: defaultSpec({ nodes: 6, dpus: 1 }), backends: false });
    for (const n of t.lab.info.nodes) await powerOutlet(t, n.name);
    const r = await fetch(`${t.lab.info.control.url}/attestation/root-ca`);
    expect(r.headers.get("content-type")).toBe("application/x-pem-file");
    rootPem = await r.text();
  });
  afterAll(async () => t?.stop());

  it("every vendor's BMC lists its BMC, eight GPUs and its DPU, linked from the service root", async () => {
    for (const vendor of ["nvidia-dgx", "dell", "supermicro", "hpe", "lenovo", "contoso"]) {
      const { n, bmc } = nodeOf(vendor);
      const root = (await call(t, bmc, "GET", "/redfish/v1")).body;
      const coll = (await call(t, bmc, "GET", root.ComponentIntegrity["@odata.id"])).body;
      const ids = coll.Members.map((m: Json) => m["@odata.id"].split("/").pop());
      expect(ids).toEqual(["BMC", ...n.gpus.map((_, i) => `GPU_${i + 1}`), "DPU_1"]);
      const gpu = (await call(t, bmc, "GET", "/redfish/v1/ComponentIntegrity/GPU_1")).body;
      expect(gpu).toMatchObject({ ComponentIntegrityType: "SPDM", ComponentIntegrityTypeVersion: "1.2.0" });
      expect(gpu.TargetComponentURI).toBe(`/redfish/v1/Systems/${n.systemId}/Processors/${n.gpus[0].id}`);
      expect(gpu.Links.ComponentsProtected).toEqual([{ "@odata.id": gpu.TargetComponentURI }]);
      expect((await call(t, bmc, "GET", gpu.TargetComponentURI)).status).toBe(200);
      const bmcMember = (await call(t, bmc, "GET", "/redfish/v1/ComponentIntegrity/BMC")).body;
      expect(bmcMember.TargetComponentURI).toBe(`/redfish/v1/Managers/${n.ids.manager}`);
    }
  });

  it("GIVEN a fresh nonce WHEN a GPU measures THEN the DSP0274 transcript carries it, verifies with the leaf key, chains to the lab root and matches the published references", async () => {
    const { n, bmc } = nodeOf("nvidia-dgx");
    const nonce = randomBytes(32).toString("hex");
    const r = await measure(bmc, "GPU_1", { Nonce: nonce, SlotId: 0 });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      Version: "1.2",
      HashingAlgorithm: "TPM_ALG_SHA_384",
      SigningAlgorithm: "TPM_ALG_ECDSA_ECC_NIST_P384",
    });
    const tr = parseTranscript(Buffer.from(r.body.SignedMeasurements, "base64"));
    expect(tr.versions).toContain(0x1200);
    expect((tr.responderFlags >> 3) & 0b11).toBe(0b10); // MEAS_CAP: with signature
    expect(tr.algorithms).toEqual({ measSpec: 0x01, measHash: 0x04, asym: 0x80, hash: 0x02 });
    expect(tr.requests).toHaveLength(1);
    expect(tr.requests[0]).toMatchObject({ param1: 1, param2: 0xff, slot: 0 });
    expect(tr.requests[0].nonce?.toString("hex")).toBe(nonce);
    expect(tr.responses[0].nonce.toString("hex")).not.toBe(nonce);
    const blocks = tr.responses[0].blocks;
    expect(blocks.map((b) => [b.index, b.spec, b.valueType])).toEqual([
      [1, 1, 0x00],
      [2, 1, 0x01],
      [3, 1, 0x02],
      [4, 1, 0x03],
      [5, 1, 0x86],
    ]);
    const cert = (await call(t, bmc, "GET", r.body.Certificate["@odata.id"])).body;
    expect(cert.CertificateType).toBe("PEMchain");
    const chain = pemBlocks(cert.CertificateString);
    expect(chain).toHaveLength(3);
    expect(signatureValid(tr, leafOf(cert.CertificateString))).toBe(true);
    // The check has teeth: one changed measurement byte, or another device's key, fails it.
    const forged = Buffer.from(tr.l2);
    forged[forged.length - 40] ^= 1;
    expect(signatureValid({ ...tr, l2: forged }, leafOf(cert.CertificateString))).toBe(false);
    const otherCert = (await call(t, bmc, "GET", r.body.Certificate["@odata.id"].replace("GPU_1", "GPU_2"))).body;
    expect(signatureValid(tr, leafOf(otherCert.CertificateString))).toBe(false);
    expect(await chainsTo(cert.CertificateString, rootPem)).toBe(true);
    const version = blocks[4].value.toString("ascii");
    expect(version).toBe(n.firmware.gpu);
    const ref = referenceFor(await references(), "NVIDIA", n.spec.hardware.gpus?.model ?? "", version);
    expect(ref.measurements.map((m: Json) => [m.index, m.alg])).toEqual([
      [1, "sha-384"],
      [2, "sha-384"],
      [3, "sha-384"],
      [4, "sha-384"],
    ]);
    for (const m of ref.measurements) expect(blocks[m.index - 1].value.toString("hex")).toBe(m.digest);
    // A second request gets a fresh responder nonce.
    const again = parseTranscript(
      Buffer.from((await measure(bmc, "GPU_1", { Nonce: nonce })).body.SignedMeasurements, "base64"),
    );
    expect(again.responses[0].nonce.equals(tr.responses[0].nonce)).toBe(false);
  });

  it("the BMC and a DPU attest too, each with its manufacturer's intermediate; no endpoint shows a private key", async () => {
    const { bmc } = nodeOf("dell");
    for (const id of ["BMC", "DPU_1"]) {
      const r = await measure(bmc, id, { Nonce: randomBytes(32).toString("hex") });
      const cert = (await call(t, bmc, "GET", r.body.Certificate["@odata.id"])).body;
      const tr = parseTranscript(Buffer.from(r.body.SignedMeasurements, "base64"));
      expect(signatureValid(tr, leafOf(cert.CertificateString))).toBe(true);
      expect(await chainsTo(cert.CertificateString, rootPem)).toBe(true);
      expect(cert.CertificateString).not.toMatch(/PRIVATE KEY/);
    }
    const issuers = await Promise.all(
      ["BMC", "GPU_1"].map(async (id) => {
        const c = (
          await call(
            t,
            bmc,
            "GET",
            (
              await call(t, bmc, "GET", `/redfish/v1/ComponentIntegrity/${id}`)
            ).body.SPDM.IdentityAuthentication.ResponderAuthentication.ComponentCertificate["@odata.id"],
          )
        ).body;
        return c.Issuer.Organization as string;
      }),
    );
    expect(issuers[0]).toContain("Dell");
    expect(issuers[1]).toContain("NVIDIA");
    for (const p of ["/attestation/root-ca", "/attestation/reference-values", "/world"]) {
      const text = await (await fetch(`${t.lab.info.control.url}${p}`)).text();
      expect(text).not.toMatch(/PRIVATE KEY/);
    }
  });

  it("one index: the request names it, the answer has that block only; several: one exchange each, only the last signed", async () => {
    const { bmc } = nodeOf("hpe");
    const one = parseTranscript(
      Buffer.from(
        (await measure(bmc, "GPU_2", { Nonce: "ab".repeat(32), MeasurementIndices: [2] })).body.SignedMeasurements,
        "base64",
      ),
    );
    expect(one.requests[0].param2).toBe(2);
    expect(one.responses[0].blocks.map((b) => b.index)).toEqual([2]);
    const r = await measure(bmc, "GPU_2", { Nonce: "cd".repeat(32), MeasurementIndices: [1, 5] });
    const several = parseTranscript(Buffer.from(r.body.SignedMeasurements, "base64"));
    expect(several.requests.map((q) => [q.param1, q.param2])).toEqual([
      [0, 1],
      [1, 5],
    ]);
    expect(several.requests[1].nonce?.toString("hex")).toBe("cd".repeat(32));
    const cert = (await call(t, bmc, "GET", r.body.Certificate["@odata.id"])).body;
    expect(signatureValid(several, leafOf(cert.CertificateString))).toBe(true);
  });

  it("bad requests answer 400 with a Redfish message; an unknown component 404", async () => {
    const { bmc } = nodeOf("lenovo");
    for (const body of [
      { Nonce: "abc" },
      { Nonce: "zz".repeat(32) },
      { Nonce: "ab".repeat(33) },
      { Nonce: "ab".repeat(32), SlotId: 8 },
      { Nonce: "ab".repeat(32), SlotId: "0" },
      { Nonce: "ab".repeat(32), MeasurementIndices: [6] },
      { Nonce: "ab".repeat(32), MeasurementIndices: [254] },
    ]) {
      const r = await measure(bmc, "GPU_1", body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error["@Message.ExtendedInfo"][0].MessageId).toMatch(/^Base\.1\.18\.ActionParameterValue/);
    }
    expect((await measure(bmc, "GPU_99", { Nonce: "ab".repeat(32) })).status).toBe(404);
  });

  it("GIVEN a GPU firmware update WHEN the GPU measures THEN index 2 and 5 change and match the new version's published references", async () => {
    const { n, bmc } = nodeOf("supermicro");
    const before = parseTranscript(
      Buffer.from((await measure(bmc, "GPU_3", { Nonce: "11".repeat(32) })).body.SignedMeasurements, "base64"),
    );
    const upd = await call(t, bmc, "POST", "/redfish/v1/UpdateService/Actions/UpdateService.SimpleUpdate", {
      body: { ImageURI: "http://127.0.0.1/gpu-97.00.12.00.01.bin" },
    });
    expect(upd.status).toBe(202);
    const after = parseTranscript(
      Buffer.from((await measure(bmc, "GPU_3", { Nonce: "22".repeat(32) })).body.SignedMeasurements, "base64"),
    );
    const [b, a] = [before.responses[0].blocks, after.responses[0].blocks];
    expect(a[4].value.toString()).toBe("97.00.12.00.01");
    expect(a[1].value.equals(b[1].value)).toBe(false);
    expect(a[0].value.equals(b[0].value)).toBe(true);
    const ref = referenceFor(await references(), "NVIDIA", n.spec.hardware.gpus?.model ?? "", "97.00.12.00.01");
    expect(ref.measurements[1].digest).toBe(a[1].value.toString("hex"));
    // An upgrade target not yet sent is published on request.
    const doc = await references("?gpu=98.00.01");
    expect(referenceFor(doc, "NVIDIA", n.spec.hardware.gpus?.model ?? "", "98.00.01")).toBeDefined();
  });

  it("attest-tamper: the named index differs from the reference, the signature still verifies; cleared, it matches again", async () => {
    const { n, name, bmc } = nodeOf("contoso");
    const id = await fault({ kind: "attest-tamper", node: name, component: "GPU_2", index: 4 });
    const r = await measure(bmc, "GPU_2", { Nonce: "33".repeat(32) });
    const tr = parseTranscript(Buffer.from(r.body.SignedMeasurements, "base64"));
    const ref = referenceFor(await references(), "NVIDIA", n.spec.hardware.gpus?.model ?? "", n.firmware.gpu);
    const blocks = tr.responses[0].blocks;
    expect(blocks[3].value.toString("hex")).not.toBe(ref.measurements[3].digest);
    expect(blocks[1].value.toString("hex")).toBe(ref.measurements[1].digest);
    const cert = (await call(t, bmc, "GET", r.body.Certificate["@odata.id"])).body;
    expect(signatureValid(tr, leafOf(cert.CertificateString))).toBe(true);
    // Other components are untouched.
    const other = parseTranscript(
      Buffer.from((await measure(bmc, "GPU_1", { Nonce: "33".repeat(32) })).body.SignedMeasurements, "base64"),
    );
    expect(other.responses[0].blocks[3].value.toString("hex")).toBe(ref.measurements[3].digest);
    await control(t, "DELETE", `/faults/${id}`);
    const cured = parseTranscript(
      Buffer.from((await measure(bmc, "GPU_2", { Nonce: "34".repeat(32) })).body.SignedMeasurements, "base64"),
    );
    expect(cured.responses[0].blocks[3].value.toString("hex")).toBe(ref.measurements[3].digest);
  });

  it("attest-unknown-ca: the chain no longer reaches the lab root, while the signature matches its leaf", async () => {
    const { name, bmc } = nodeOf("dell");
    const id = await fault({ kind: "attest-unknown-ca", node: name, component: "BMC" });
    const r = await measure(bmc, "BMC", { Nonce: "44".repeat(32) });
    const cert = (await call(t, bmc, "GET", r.body.Certificate["@odata.id"])).body;
    expect(await chainsTo(cert.CertificateString, rootPem)).toBe(false);
    const blocks = pemBlocks(cert.CertificateString);
    expect(await chainsTo(cert.CertificateString, blocks[blocks.length - 1] ?? "")).toBe(true);
    const tr = parseTranscript(Buffer.from(r.body.SignedMeasurements, "base64"));
    expect(signatureValid(tr, leafOf(cert.CertificateString))).toBe(true);
    await control(t, "DELETE", `/faults/${id}`);
    const fresh = (await call(t, bmc, "GET", r.body.Certificate["@odata.id"])).body;
    expect(await chainsTo(fresh.CertificateString, rootPem)).toBe(true);
  });

  it("attest-replay: the answer is the previous one, the request's nonce is not in it; without a previous one a made-up nonce", async () => {
    const { name, bmc } = nodeOf("hpe");
    const first = await measure(bmc, "GPU_4", { Nonce: "55".repeat(32) });
    const id = await fault({ kind: "attest-replay", node: name, component: "GPU_4" });
    const replayed = await measure(bmc, "GPU_4", { Nonce: "66".repeat(32) });
    expect(replayed.body.SignedMeasurements).toBe(first.body.SignedMeasurements);
    expect(
      parseTranscript(Buffer.from(replayed.body.SignedMeasurements, "base64")).requests[0].nonce?.toString("hex"),
    ).toBe("55".repeat(32));
    // GPU_5 never answered: it makes one up and then repeats it.
    await fault({ kind: "attest-replay", node: name, component: "GPU_5" });
    const made = await measure(bmc, "GPU_5", { Nonce: "77".repeat(32) });
    const madeNonce = parseTranscript(Buffer.from(made.body.SignedMeasurements, "base64")).requests[0].nonce?.toString(
      "hex",
    );
    expect(madeNonce).not.toBe("77".repeat(32));
    expect((await measure(bmc, "GPU_5", { Nonce: "78".repeat(32) })).body.SignedMeasurements).toBe(
      made.body.SignedMeasurements,
    );
    await control(t, "DELETE", `/faults/${id}`);
    const fresh = await measure(bmc, "GPU_4", { Nonce: "88".repeat(32) });
    expect(
      parseTranscript(Buffer.from(fresh.body.SignedMeasurements, "base64")).requests[0].nonce?.toString("hex"),
    ).toBe("88".repeat(32));
  });

  it("attest-silent: the action answers 503 with Retry-After; the resource itself still reads", async () => {
    const { name, bmc } = nodeOf("nvidia-dgx");
    const id = await fault({ kind: "attest-silent", node: name, component: "GPU_8" });
    const r = await measure(bmc, "GPU_8", { Nonce: "99".repeat(32) });
    expect(r.status).toBe(503);
    expect(r.headers["retry-after"]).toBeDefined();
    expect(r.body.error["@Message.ExtendedInfo"][0].MessageId).toBe("Base.1.18.ServiceTemporarilyUnavailable");
    expect((await call(t, bmc, "GET", "/redfish/v1/ComponentIntegrity/GPU_8")).status).toBe(200);
    expect((await measure(bmc, "GPU_7", { Nonce: "99".repeat(32) })).status).toBe(200);
    await control(t, "DELETE", `/faults/${id}`);
    expect((await measure(bmc, "GPU_8", { Nonce: "99".repeat(32) })).status).toBe(200);
  });

  it("attest faults are validated: a bad component or index is refused", async () => {
    const { name } = nodeOf("dell");
    for (const spec of [
      { kind: "attest-tamper", node: name, component: "gpu", index: 2 },
      { kind: "attest-tamper", node: name, component: "GPU_1", index: 5 },
      { kind: "attest-replay", node: name, index: 2 },
    ]) {
      const r = await control(t, "POST", "/faults", spec);
      expect(r.status, JSON.stringify(spec)).toBe(400);
      expect(r.body.error.code).toBe("RACKFORM_ERR_LAB_FAULT_INVALID");
    }
  });
});
