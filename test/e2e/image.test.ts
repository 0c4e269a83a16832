/**
 * rackform_image under the real engines, with no hand call to MAAS anywhere: the image is uploaded to the lab MAAS
 * from the lab image server by the resource, and a machine is deployed with it; a re-plan is empty; the boot resource
 * deleted by hand is planned as an in-place re-upload of the image only, which one apply heals; removing the image
 * while a machine runs it is refused naming the fix; it is imported by its documented id; a new image version is
 * uploaded and the machine redeployed with it in one apply; destroy releases the machine and then deletes the image.
 * An Ironic image's URL is checked (HEAD) and a URL gone is drift on the image alone.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock, testLab } from "../support/rackform-e2e.js";

let lab: Lab;
let cliConfig: string;
let maas: MaasClient;

beforeAll(async () => {
  lab = await testLab(2);
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  maas = new MaasClient({ url: lab.info.maas!.url, apiKey: lab.info.maas!.apiKey });
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await maas?.close();
  await lab?.close();
});

describe.each(ENGINES.map((n, i) => [n, i] as const))("rackform_image under %s", (name, i) => {
  // Each engine has its own image name and node, so the two never share a boot resource or a machine.
  const img = `gpu-${name}`;
  const node = `r01-n0${1 + i}`;
  const sha = (v: string) => createHash("sha256").update(`${img}-${v}`).digest("hex");
  const url = (v: string) => `${lab.images.url}${img}-${v}.qcow2`;
  const bootResources = async () =>
    (await maas.catalog.listBootResources()).filter((b) => b.name.replace(/^custom\//, "").startsWith(`${img}-`));
  const machine = async () => (await maas.listMachines()).find((m) => m.hostname === node);
  let w: Workdir;

  /** The image (MAAS), an Ironic image check, and one machine deployed with the MAAS image (after it). */
  function mainTf(version: string, o: { withImage?: boolean } = {}): string {
    const n = lab.info.nodes.find((x) => x.name === node)!;
    const mac = lab.world.node(node)!.ports[0].mac.toLowerCase();
    const withImage = o.withImage ?? true;
    const image = withImage
      ? `resource "rackform_image" "golden" {
  backend = "maas"
  name    = "${img}"
  version = "${version}"
  url     = "${url(version)}"
  sha256  = "${sha(version)}"
}
`
      : "";
    return `${providerBlock(lab, { backends: ["maas", "ironic"] })}${image}
resource "rackform_image" "ironic" {
  backend = "ironic"
  name    = "${img}"
  version = "1.0"
  url     = "${url("1.0")}"
  sha256  = "${sha("1.0")}"
}
resource "rackform_machine" "m" {
  name         = "${node}"
  backend      = "maas"
  bmc_endpoint = "${n.bmc.url}"
  macs         = ["${mac}"]
}
resource "rackform_deployment" "m" {
  machine_id = rackform_machine.m.id
  image = {
    name    = "${img}"
    version = "${version}"
    sha256  = "${sha(version)}"
  }
  user_data  = "#cloud-config\\n"
  ${withImage ? "depends_on = [rackform_image.golden]" : ""}
}
`;
  }

  beforeAll(async () => {
    w = await Workdir.create(engine(name), cliConfig, { "main.tf": mainTf("1.0") });
    await w.ok(["init", "-no-color"]);
  });

  it("GIVEN no image in MAAS WHEN apply THEN the image is uploaded and verified, the machine deployed with it, and the next plan is empty", async () => {
    expect(await bootResources()).toEqual([]);
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("4 added, 0 changed, 0 destroyed");
    const [b] = await bootResources();
    const detail = await maas.catalog.getBootResource(b.id);
    expect(detail.file).toMatchObject({ complete: true, sha256: sha("1.0") });
    const m = await machine();
    expect([m?.statusName, m?.osystem, m?.distroSeries]).toEqual(["Deployed", "custom", `${img}-1.0`]);
    const shown = JSON.parse((await w.ok(["show", "-json", "-no-color"])).stdout);
    const golden = shown.values.root_module.resources.find(
      (r: { address: string }) => r.address === "rackform_image.golden",
    );
    expect(golden.values).toMatchObject({
      id: `maas:${img}/1.0`,
      backend_image: `custom/${img}-1.0`,
      verified_sha256: sha("1.0"),
      size_bytes: `${img}-1.0`.length,
    });
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("GIVEN the boot resource deleted by hand WHEN plan THEN only the image is updated in place, and one apply re-uploads it", async () => {
    for (const b of await bootResources()) await maas.catalog.deleteBootResource(b.id);
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout, plan.stderr).toContain("rackform_image.golden will be updated in-place");
    expect(plan.stdout).toContain("0 to add, 1 to change, 0 to destroy");
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("0 added, 1 changed, 0 destroyed");
    const [b] = await bootResources();
    expect((await maas.catalog.getBootResource(b.id)).file).toMatchObject({ complete: true, sha256: sha("1.0") });
    expect((await machine())?.statusName).toBe("Deployed");
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("GIVEN a machine deployed with the image WHEN the image is removed from the configuration THEN its destroy is refused naming the fix", async () => {
    await w.write({ "main.tf": mainTf("1.0", { withImage: false }) });
    const r = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(r.code).not.toBe(0);
    const err = r.stderr.replace(/\s+/g, " ");
    expect(err).toContain(`Image in use: custom/${img}-1.0`);
    expect(err).toContain(node);
    expect(err).toContain("RACKFORM_ERR_IMAGE_IN_USE");
    expect(await bootResources()).toHaveLength(1);
    await w.write({ "main.tf": mainTf("1.0") });
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("WHEN the image is imported by its id THEN the plan adds and destroys nothing", async () => {
    await w.ok(["state", "rm", "-no-color", "rackform_image.golden"]);
    await w.ok(["import", "-no-color", "rackform_image.golden", `maas:${img}/1.0`]);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect([0, 2], plan.stdout + plan.stderr).toContain(plan.code);
    if (plan.code === 2) expect(plan.stdout).toMatch(/Plan: 0 to add, 1 to change, 0 to destroy\./);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
  });

  it("GIVEN an Ironic image URL gone WHEN plan THEN only that image is re-checked, and it heals once the URL answers", async () => {
    lab.images.remove(`${img}-1.0.qcow2`);
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toContain("rackform_image.ironic will be updated in-place");
    expect(plan.stdout).toContain("0 to add, 1 to change, 0 to destroy");
    const failed = await w.run(["apply", "-auto-approve", "-no-color"]);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr.replace(/\s+/g, " ")).toContain("answered HTTP 404");
    lab.images.put(`${img}-1.0.qcow2`, `${img}-1.0`);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("GIVEN a new image version WHEN apply THEN it is uploaded and the machine redeployed with it, with no hand call to MAAS", async () => {
    await w.write({ "main.tf": mainTf("2.0") });
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout, plan.stderr).toContain("rackform_image.golden will be updated in-place");
    expect(plan.stdout).toMatch(/rackform_deployment\.m must be replaced/);
    await w.ok(["apply", "-auto-approve", "-no-color"]);
    const m = await machine();
    expect([m?.statusName, m?.distroSeries]).toEqual(["Deployed", `${img}-2.0`]);
    const names = (await bootResources()).map((b) => b.name.replace(/^custom\//, ""));
    expect(names).toContain(`${img}-2.0`);
    const again = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(again.code, again.stdout + again.stderr).toBe(0);
  });

  it("WHEN destroy THEN the machine is released first and then the image leaves MAAS", async () => {
    await w.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(await machine()).toBeUndefined();
    const names = (await bootResources()).map((b) => b.name.replace(/^custom\//, ""));
    expect(names).not.toContain(`${img}-2.0`);
  });
});
