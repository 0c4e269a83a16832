/**
 * The settings constructs (Image, Flavor, AcceptancePolicy, backends, clusters, RackformStack): their defaults, what
 * they hand the chain, and that a cdktf token (a variable, another resource's attribute) passes validation unread.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TerraformVariable, Testing } from "cdktf";
import { describe, expect, it } from "vitest";
import {
  AcceptancePolicy,
  Duration,
  Flavor,
  Image,
  MaasBackend,
  pgSchemaName,
  Rack,
  RackformStack,
} from "../../constructs/lib/index.js";
import { nodes, pdus, REDFISH, ref, SHA, shared, synthJson } from "./support.js";

describe("settings constructs", () => {
  it("Image names itself after its id and normalises the checksum to lower case", () => {
    const image = new Image(Testing.app(), "ubuntu-gpu", { version: "2026.06.2", sha256: SHA.toUpperCase() });
    expect(image.toDeploymentImage()).toEqual({ name: "ubuntu-gpu", version: "2026.06.2", sha256: SHA });
  });

  it("Image hands checkUrl = false to the deployment only when it is set (else the provider checks the URL)", () => {
    const url = "https://mirror.internal/ubuntu-gpu-2026.06.2.qcow2";
    const off = new Image(Testing.app(), "ubuntu-gpu", { version: "2026.06.2", sha256: SHA, url, checkUrl: false });
    expect(off.toDeploymentImage()).toMatchObject({ url, checkUrl: false });
    const on = new Image(Testing.app(), "ubuntu-gpu", { version: "2026.06.2", sha256: SHA, url });
    expect(on.toDeploymentImage()).not.toHaveProperty("checkUrl");
  });

  it("Flavor's line rate is rails × rail rate / 8, one 400 Gb/s rail per GPU by default", () => {
    const app = Testing.app();
    expect(new Flavor(app, "hgx", { gpus: { model: "H100", count: 8 } }).fabricLineRateGBps).toBe(400);
    expect(
      new Flavor(app, "gb", { gpus: { model: "B200", count: 8 }, fabric: { railGbps: 800 } }).fabricLineRateGBps,
    ).toBe(800);
    expect(
      new Flavor(app, "two", { gpus: { model: "A100", count: 8 }, fabric: { rails: 2, railGbps: 200 } })
        .fabricLineRateGBps,
    ).toBe(50);
  });

  it("AcceptancePolicy defaults to DCGM 3, 72 h burn-in, 92 % of line rate, the flavor's GPUs and no XID", () => {
    const app = Testing.app();
    const flavor = new Flavor(app, "hgx", { gpus: { model: "H100", count: 8 } });
    expect(new AcceptancePolicy(app, "standard").toAcceptanceConfig(flavor)).toEqual({
      dcgmLevel: 3,
      ncclMinBusbwGbps: 370,
      burnIn: "72h",
      expectedGpuCount: 8,
      allowXid: false,
    });
    const strict = new AcceptancePolicy(app, "strict", { ncclBusbwMinGBps: 385, firmware: { bmc: "1.2.3" } });
    expect(strict.toAcceptanceConfig(flavor)).toMatchObject({ ncclMinBusbwGbps: 385, firmware: { bmc: "1.2.3" } });
  });

  it("Duration props read as the provider's Go-style text, whichever way they are written", () => {
    expect(Duration.hours(72).toString()).toBe("72h");
    expect(Duration.minutes(90).toString()).toBe("1h30m");
    expect(Duration.days(3).toString()).toBe("72h");
    expect(Duration.millis(250).toString()).toBe("250ms");
    expect(Duration.seconds(90.5).toString()).toBe("1m30s500ms");
    const app = Testing.app();
    const flavor = new Flavor(app, "hgx", { gpus: { model: "H100", count: 8 } });
    const typed = new AcceptancePolicy(app, "typed", { burnIn: Duration.hours(12) });
    expect(typed.toAcceptanceConfig(flavor).burnIn).toBe("12h");
    const out = Testing.synthScope((stack) => {
      const s = shared(stack);
      new Rack(stack, "r1", {
        ...s,
        pdus: pdus("r1"),
        nodes: nodes("r1", 1),
        redfish: { ...REDFISH, powerOnInterval: Duration.millis(500) },
      });
    });
    expect(JSON.parse(out).provider.rackform[0].redfish.power_on_interval).toBe("500ms");
  });

  it("accepts credentials and addresses given as tokens, unread (Testing.synthScope)", () => {
    const out = Testing.synthScope((stack) => {
      const s = shared(stack);
      const key = new TerraformVariable(stack, "vault_maas_key", { type: "string", sensitive: true });
      const bmcAddress = new TerraformVariable(stack, "bmc_address", { type: "string" });
      const backend = new MaasBackend(stack, "maas-vault", { url: "http://maas.lab/MAAS/", apiKey: key.stringValue });
      new Rack(stack, "r1", {
        ...s,
        backend,
        pdus: pdus("r1"),
        nodes: [{ ...nodes("r1", 1)[0], bmc: bmcAddress.stringValue }],
        redfish: REDFISH,
      });
    });
    const json = JSON.parse(out);
    expect(json.provider.rackform[0].maas.api_key).toBe(ref("var.vault_maas_key"));
    expect(json.resource.rackform_bmc.r1_n01_bmc.endpoint).toBe(ref("var.bmc_address"));
    expect(json.variable.maas_api_key).toBeUndefined();
  });

  it("RackformStack keeps cdktf's local state by default and names pg schemas after the stack", () => {
    const stack = new RackformStack(Testing.app(), "gpu-rack");
    expect(stack.stateBackend).toEqual({ kind: "local" });
    expect(synthJson(stack).terraform?.backend).toBeUndefined();
    expect(pgSchemaName("fleet-r01.a")).toBe("rackform_fleet_r01_a");
  });

  it("a full synth of a rack stack writes its cdk.tf.json (Testing.fullSynth)", () => {
    const app = Testing.app();
    const stack = new RackformStack(app, "gpu-rack");
    new Rack(stack, "r1", { ...shared(stack), pdus: pdus("r1"), nodes: nodes("r1", 2), redfish: REDFISH });
    const dir = Testing.fullSynth(stack);
    const json = JSON.parse(readFileSync(join(dir, "stacks", "gpu-rack", "cdk.tf.json"), "utf8"));
    expect(Object.keys(json.resource.rackform_cluster_member)).toEqual(["r1_n01_member", "r1_n02_member"]);
  });
});
