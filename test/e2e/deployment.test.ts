/**
 * rackform_deployment and rackform_acceptance under the real engines: per engine one MAAS machine and one Ironic
 * node, commissioned, deployed with the golden image and passed through the acceptance gate; a no-op plan; a new
 * image version planned as "must be replaced" and applied as a reimage that re-runs the gate; a failing gate
 * quarantining the node and recorded as tainted; destroy releasing (erase) / undeploying (cleaning) before the
 * machines leave the backends — for Terraform and for OpenTofu.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uploadImages } from "../../src/cli/demo.js";
import { IronicClient } from "../../src/clients/ironic/index.js";
import { MaasClient } from "../../src/clients/maas/index.js";
import type { Lab } from "../../src/lab/index.js";
import { ENGINES, engine, Workdir } from "../support/engines.js";
import { builtProvider, freshInstall, providerBlock, testLab } from "../support/rackform-e2e.js";

let lab: Lab;
let cliConfig: string;
let maas: MaasClient;
let ironic: IronicClient;

/** Where the lab's image server serves version `version` (its bytes hash to `shaOf(version)`). */
const imageUrl = (version: string) => `${lab.images.url}ubuntu-gpu-${version}.qcow2`;
const shaOf = (version: string) => createHash("sha256").update(`ubuntu-gpu-${version}`).digest("hex");

/** Uploads custom image ubuntu-gpu-<version> to the lab MAAS from the lab image server, as an operator does. */
async function uploadMaasImage(version: string): Promise<void> {
  await uploadImages(lab.info, [{ name: "ubuntu-gpu", version, sha256: shaOf(version) }]);
}

beforeAll(async () => {
  lab = await testLab(4);
  if (!lab.info.maas || !lab.info.ironic) throw new Error("the lab started without MAAS and Ironic");
  for (const n of lab.info.nodes) lab.world.setOutlet(n.pdu, n.outlet, "On");
  maas = new MaasClient({ url: lab.info.maas.url, apiKey: lab.info.maas.apiKey });
  ironic = new IronicClient({ url: lab.info.ironic.url });
  await uploadMaasImage("2026.06.1");
  await uploadMaasImage("2026.06.2");
  cliConfig = await freshInstall([builtProvider()]);
});
afterAll(async () => {
  await maas?.close();
  await ironic?.close();
  await lab?.close();
});

function mainTf(nodes: { readonly maas: string; readonly ironic: string }, version: string): string {
  const pair = (name: string, backend: "maas" | "ironic") => {
    const n = lab.info.nodes.find((x) => x.name === name)!;
    const mac = lab.world.node(name)!.ports[0].mac.toLowerCase();
    const ironicOnly =
      backend === "ironic"
        ? `  deploy_kernel  = "${lab.images.url}ipa.kernel"
  deploy_ramdisk = "${lab.images.url}ipa.initramfs"
`
        : "";
    return `resource "rackform_machine" ${JSON.stringify(name)} {
  name         = ${JSON.stringify(name)}
  backend      = ${JSON.stringify(backend)}
  bmc_endpoint = ${JSON.stringify(n.bmc.url)}
  macs         = [${JSON.stringify(mac)}]
}
resource "rackform_deployment" ${JSON.stringify(name)} {
  machine_id = rackform_machine.${name}.id
  image = {
    name    = "ubuntu-gpu"
    version = ${JSON.stringify(version)}
    url     = "${imageUrl(version)}"
    sha256  = ${JSON.stringify(shaOf(version))}
  }
  user_data = "#cloud-config\\n"
${ironicOnly}  timeouts {
    create = "5m"
  }
}
resource "rackform_acceptance" ${JSON.stringify(name)} {
  machine_id          = rackform_deployment.${name}.id
  dcgm_level          = 3
  nccl_min_busbw_gbps = 360
  burn_in             = "72h"
  expected_gpu_count  = 8
  timeouts {
    create = "5m"
  }
}
`;
  };
  return `${providerBlock(lab, { backends: ["maas", "ironic"] })}${pair(nodes.maas, "maas")}
${pair(nodes.ironic, "ironic")}`;
}

describe.each(ENGINES.map((n, i) => [n, i] as const))("rackform_deployment under %s", (name, i) => {
  const nodes = { maas: `r01-n0${1 + i * 2}`, ironic: `r01-n0${2 + i * 2}` };
  let w: Workdir;

  const maasMachine = async () => (await maas.listMachines()).filter((x) => x.hostname === nodes.maas);
  const ironicNode = async () => (await ironic.listNodes({ detail: true })).filter((x) => x.name === nodes.ironic);

  beforeAll(async () => {
    w = await Workdir.create(engine(name), cliConfig, { "main.tf": mainTf(nodes, "2026.06.1") });
    await w.ok(["init", "-no-color"]);
  });

  it("GIVEN powered nodes WHEN apply THEN MAAS reports Deployed, Ironic active, both pass the gate, and the next plan is empty", async () => {
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("6 added, 0 changed, 0 destroyed");
    const [m] = await maasMachine();
    expect([m.statusName, m.osystem, m.distroSeries]).toEqual(["Deployed", "custom", "ubuntu-gpu-2026.06.1"]);
    const [n] = await ironicNode();
    expect(n.provisionState).toBe("active");
    expect(n.instanceInfo?.image_source).toBe(imageUrl("2026.06.1"));
    const state = JSON.parse(await readFile(join(w.dir, "terraform.tfstate"), "utf8"));
    const gates = state.resources.filter((r: { type: string }) => r.type === "rackform_acceptance");
    expect(
      gates.map(
        (r: { instances: { attributes: { passed: boolean; gpu_count: number } }[] }) => r.instances[0].attributes,
      ),
    ).toMatchObject([
      { passed: true, gpu_count: 8 },
      { passed: true, gpu_count: 8 },
    ]);
    expect(JSON.stringify(state)).not.toContain(lab.info.maas!.apiKey);
    const plan = await w.run(["plan", "-detailed-exitcode", "-no-color"]);
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
  });

  it("GIVEN a new image version WHEN plan THEN both deployments must be replaced (and their gates re-run), and apply reimages them", async () => {
    await w.write({ "main.tf": mainTf(nodes, "2026.06.2") });
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(/rackform_deployment\.r01-n0\d must be replaced/);
    expect(plan.stdout).toMatch(/rackform_acceptance\.r01-n0\d must be replaced/);
    expect(plan.stdout).toMatch(/# forces replacement/);
    expect(plan.stdout).toContain("4 to add, 0 to change, 4 to destroy");
    const apply = await w.ok(["apply", "-auto-approve", "-no-color"]);
    expect(apply.stdout).toContain("4 added, 0 changed, 4 destroyed");
    const [m] = await maasMachine();
    expect([m.statusName, m.distroSeries]).toEqual(["Deployed", "ubuntu-gpu-2026.06.2"]);
    const events = await maas.events({ systemId: m.systemId, limit: 30 });
    expect(events.map((e) => e.type)).toContain("Disk erasing");
    const [n] = await ironicNode();
    expect([n.provisionState, n.instanceInfo?.image_source]).toEqual(["active", imageUrl("2026.06.2")]);
  });

  it("GIVEN marginal NCCL WHEN the gate runs again THEN it fails with measured vs threshold, MAAS quarantines the node, and the result is tainted", async () => {
    const addr = `rackform_acceptance.${nodes.maas}`;
    const fault = lab.world.faults.add({ kind: "marginal-nccl", node: nodes.maas, value: 300 });
    const failed = await w.run(["apply", "-auto-approve", "-no-color", `-replace=${addr}`]);
    lab.world.faults.remove(fault.id);
    expect(failed.code, failed.stdout + failed.stderr).not.toBe(0);
    const err = failed.stderr.replace(/\s+/g, " ");
    expect(err).toContain("Acceptance gate failed");
    expect(err).toContain("nccl_min_busbw_gbps: measured all_reduce busbw 300 GB/s; threshold ≥ 360 GB/s");
    const [m] = await maasMachine();
    // MAAS holds the machine out of service in Failed testing; rackform records why where operators look.
    expect(m.statusName).toBe("Failed testing");
    expect(m.description).toMatch(/^rackform acceptance failed/);
    const plan = await w.run(["plan", "-no-color"]);
    expect(plan.stdout).toMatch(new RegExp(`${addr.replaceAll(".", "\\.")} is tainted, so (it )?must be replaced`));
  });

  it("WHEN destroy THEN the deployments are released and the machines leave both backends", async () => {
    const r = await w.ok(["destroy", "-auto-approve", "-no-color"]);
    expect(r.stdout).toContain("6 destroyed");
    expect(await maasMachine()).toEqual([]);
    expect(await ironicNode()).toEqual([]);
  });
});
