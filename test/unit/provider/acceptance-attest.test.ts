/**
 * rackform_acceptance's attestation step against a fake BMC whose components answer with SPDM transcripts built from
 * DSP0274's layouts (test/support/attest): a node whose every component attests passes; a tampered measurement, a
 * chain from an unknown CA, a replayed answer, a silent component and a missing kind each fail with evidence naming
 * the component (and the index); the evidence re-verifies offline with `rackform attest verify`, and holds no key.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { attestVerify } from "../../../src/cli/attest-verify.js";
import { attest, kindOf } from "../../../src/provider/resources/acceptance-attest.js";
import { fakeBmc, pki, reference, stranger } from "../../support/attest/fake-bmc.js";

const cfg = (kinds: string[] = []) => ({
  origin: "https://10.0.0.5",
  anchors: [pki.root.pem],
  referenceText: reference,
  kinds,
});

describe("attestation of a node's components", () => {
  it("passes when every SPDM component's answer verifies and matches the references, with a fresh nonce each", async () => {
    const out = await attest(fakeBmc(), cfg(["GPU", "BMC"]));
    expect(out.check).toMatchObject({ attribute: "attestation", passed: true, measured: "3 of 3 components attested" });
    expect(out.lines).toEqual([]);
    const e = JSON.parse(out.evidence) as { components: { nonce: string; kind: string }[] };
    expect(e.components.map((c) => c.kind)).toEqual(["GPU", "GPU", "BMC"]);
    expect(new Set(e.components.map((c) => c.nonce)).size).toBe(3);
    expect(out.evidence).not.toMatch(/PRIVATE KEY/);
  });

  it("fails naming the component and index for a tampered measurement, the CA for a stranger's chain, and a replay", async () => {
    const out = await attest(fakeBmc({ GPU_1: "tamper", GPU_0: "unknown-ca", HGX_BMC_0: "replay" }), cfg());
    expect(out.check.passed).toBe(false);
    expect(out.check.measured).toBe("0 of 3 components attested");
    const text = out.lines.join("\n");
    expect(text).toMatch(/attestation: GPU_1 \(GPU\) measurement: index 2: measured 0707/);
    expect(text).toMatch(/attestation: GPU_0 \(GPU\) chain: /);
    expect(text).toMatch(/attestation: HGX_BMC_0 \(BMC\) replay: /);
  });

  it("fails for a component that does not answer and for a required kind the BMC does not list", async () => {
    const out = await attest(fakeBmc({ GPU_0: "silent" }), cfg(["NIC"]));
    expect(out.check.passed).toBe(false);
    expect(out.lines).toContain(
      "attestation: no NIC listed under the BMC's ComponentIntegrity (components requires it)",
    );
    expect(out.lines.join("\n")).toMatch(/GPU_0 \(GPU\) no answer: GPU_0 did not answer/);
  });

  it("names kinds from the resource each component targets", () => {
    const k = (targetUri: string, id = "x") => kindOf({ targetUri, id });
    expect(k("/redfish/v1/Managers/bmc")).toBe("BMC");
    expect(k("/redfish/v1/Chassis/1/NetworkAdapters/CX7_0")).toBe("NIC");
    expect(k("/redfish/v1/Chassis/1/NetworkAdapters/BlueField_0")).toBe("DPU");
    expect(k("/redfish/v1/Systems/1/Processors/GPU_SXM_1")).toBe("GPU");
    expect(k("/redfish/v1/Systems/1/Processors/CPU0")).toBe("CPU");
  });
});

describe("rackform attest verify", () => {
  it("re-verifies the evidence in a state file offline; a tampered answer or another reference fails", async () => {
    const good = await attest(fakeBmc(), cfg());
    const bad = await attest(fakeBmc({ GPU_1: "tamper" }), cfg());
    const dir = await mkdtemp(join(tmpdir(), "rf-attest-"));
    onTestFinished(() => rm(dir, { recursive: true, force: true }));
    const state = { resources: [{ instances: [{ attributes: { attestation_evidence: good.evidence } }] }] };
    await writeFile(join(dir, "state.json"), JSON.stringify(state));
    await writeFile(join(dir, "root.pem"), pki.root.pem);
    await writeFile(join(dir, "reference.json"), reference);
    const out: string[] = [];
    const args = ["--anchors", join(dir, "root.pem"), "--reference", join(dir, "reference.json")];
    expect(await attestVerify([join(dir, "state.json"), ...args], (s) => out.push(s))).toBe(0);
    expect(out.join("")).toMatch(/GPU_0 \(GPU\): verified/);
    // The recorded failure verifies as a failure, naming the index.
    await writeFile(join(dir, "bad.json"), bad.evidence);
    const badOut: string[] = [];
    expect(await attestVerify([join(dir, "bad.json"), ...args], (s) => badOut.push(s))).toBe(1);
    expect(badOut.join("")).toMatch(/GPU_1 \(GPU\): measurement: index 2/);
    // Another trust anchor: nothing verifies.
    await writeFile(join(dir, "other.pem"), stranger.root.pem);
    const other: string[] = [];
    expect(
      await attestVerify([join(dir, "state.json"), "--anchors", join(dir, "other.pem")], (s) => other.push(s)),
    ).toBe(1);
    expect(other.join("")).toMatch(/chain: /);
  });
});
