/**
 * Rack synth: every node gets the demo's chain (outlet → bmc → machine → deployment → acceptance → member) with the
 * references that order it, the defaults of flavor, image and policy, and the provider built from sensitive variables.
 */
import { Testing } from "cdktf";
import { describe, expect, it } from "vitest";
import {
  AcceptancePolicy,
  BcmBackend,
  Flavor,
  IronicBackend,
  KubernetesCluster,
  Rack,
  RackformStack,
  SlurmCluster,
} from "../../constructs/lib/index.js";
import { nodes, REDFISH, rackProps, ref, resources, SHA, shared, synthJson } from "./support.js";

function oneRack(overrides: (s: ReturnType<typeof shared>, stack: RackformStack) => object = () => ({})) {
  const stack = new RackformStack(Testing.app(), "r1");
  const s = shared(stack);
  const rack = new Rack(stack, "r1", rackProps(s, "r1", overrides(s, stack)));
  return { stack, rack, json: synthJson(stack) };
}

describe("Rack", () => {
  it("creates the six-resource chain for every node, each step referencing the one before", () => {
    // GIVEN a rack of 8 lab nodes on MAAS and Slurm / WHEN it synthesizes
    const { json } = oneRack();
    // THEN each chain type has one resource per node, under the documented logical ids
    for (const [type, suffix] of [
      ["rackform_pdu_outlet", "outlet"],
      ["rackform_bmc", "bmc"],
      ["rackform_machine", "machine"],
      ["rackform_deployment", "deployment"],
      ["rackform_acceptance", "acceptance"],
      ["rackform_cluster_member", "member"],
    ]) {
      expect(Object.keys(resources(json, type)).sort()).toEqual(
        nodes("r1").map((n) => `${n.name.replaceAll("-", "_")}_${suffix}`),
      );
    }
    // AND node r1-n03's chain is the demo's, attribute for attribute
    expect(resources(json, "rackform_pdu_outlet").r1_n03_outlet).toEqual({
      endpoint: "https://127.11.1.1",
      pdu_id: "r1-pdu-a",
      outlet_id: "2",
      power_state: "On",
    });
    expect(resources(json, "rackform_bmc").r1_n03_bmc).toEqual({
      endpoint: "https://127.10.1.3",
      expected: { gpu_model: "H100", gpu_count: 8, min_memory_gib: 1024 },
      depends_on: ["rackform_pdu_outlet.r1_n03_outlet"],
    });
    expect(resources(json, "rackform_machine").r1_n03_machine).toEqual({
      name: "r1-n03",
      backend: "maas",
      bmc_endpoint: ref("rackform_bmc.r1_n03_bmc.endpoint"),
      macs: [ref("rackform_bmc.r1_n03_bmc.macs[0]")],
    });
    expect(resources(json, "rackform_deployment").r1_n03_deployment).toEqual({
      machine_id: ref("rackform_machine.r1_n03_machine.id"),
      image: {
        name: "ubuntu-gpu",
        version: "2026.06.2",
        url: "http://images.lab/ubuntu-gpu-2026.06.2.qcow2",
        sha256: SHA,
      },
      user_data: "#cloud-config\nrackform-join: slurm\n",
    });
    // AND the image is put in MAAS by one rackform_image, which no deployment depends on in the graph (the provider
    // makes a deploy wait for its upload: a dependency would deadlock an image bump against the disruption budget)
    expect(resources(json, "rackform_image")).toEqual({
      ubuntu_gpu_maas_image: {
        backend: "maas",
        name: "ubuntu-gpu",
        version: "2026.06.2",
        url: "http://images.lab/ubuntu-gpu-2026.06.2.qcow2",
        sha256: SHA,
      },
    });
    expect(resources(json, "rackform_acceptance").r1_n03_acceptance).toEqual({
      machine_id: ref("rackform_deployment.r1_n03_deployment.id"),
      bmc_gpu_count: ref("rackform_bmc.r1_n03_bmc.gpu_count"),
      bmc_health: ref("rackform_bmc.r1_n03_bmc.health"),
      dcgm_level: 3,
      nccl_min_busbw_gbps: 370,
      burn_in: "72h",
      expected_gpu_count: 8,
      allow_xid: false,
    });
    expect(resources(json, "rackform_cluster_member").r1_n03_member).toEqual({
      scheduler: "slurm",
      node: "r1-n03",
      features: ["h100"],
      gate_id: ref("rackform_acceptance.r1_n03_acceptance.id"),
    });
  });

  it("builds one provider from sensitive variables, with no credential in the output", () => {
    const { json, stack } = oneRack();
    expect(json.provider?.rackform).toEqual([
      {
        redfish: {
          username: "admin",
          password: ref("var.redfish_password"),
          ca_file: "/tmp/lab/ca.pem",
          power_on_interval: "250ms",
        },
        maas: { url: "http://127.0.0.1:5240/MAAS/", api_key: ref("var.maas_api_key") },
        slurm: { url: "http://127.0.0.1:6820", user: "root", token: ref("var.slurm_token") },
      },
    ]);
    for (const name of ["redfish_password", "maas_api_key", "slurm_token"]) {
      expect(json.variable?.[name]).toMatchObject({ type: "string", sensitive: true });
    }
    expect(Object.keys(json.variable ?? {}).sort()).toEqual(["maas_api_key", "redfish_password", "slurm_token"]);
    expect(Testing.toHaveProviderWithProperties(Testing.synth(stack), "rackform", {})).toBe(true);
  });

  it("passes cdktf's matchers and Terraform-shaped JSON", () => {
    const { stack } = oneRack();
    const out = Testing.synth(stack);
    expect(Testing.toHaveResourceWithProperties(out, "rackform_acceptance", { dcgm_level: 3, burn_in: "72h" })).toBe(
      true,
    );
    expect(Testing.toHaveResourceWithProperties(out, "rackform_machine", { name: "r1-n08", backend: "maas" })).toBe(
      true,
    );
  });

  // Issue #14: provide's automated cleaning boots the ramdisk before any deployment exists, so the images belong to
  // enrollment (the provider block), not to each deployment.
  it("renders the Ironic deploy kernel and ramdisk in the provider's ironic block and enrolls with backend ironic", () => {
    const { json } = oneRack((_s, stack) => ({
      backend: new IronicBackend(stack, "ironic", {
        url: "http://127.0.0.1:6385",
        deployKernel: "http://images.lab/ipa.kernel",
        deployRamdisk: "http://images.lab/ipa.initramfs",
      }),
    }));
    expect(json.provider?.rackform[0].ironic).toEqual({
      url: "http://127.0.0.1:6385",
      deploy_kernel: "http://images.lab/ipa.kernel",
      deploy_ramdisk: "http://images.lab/ipa.initramfs",
    });
    const deployments = Object.values(resources(json, "rackform_deployment"));
    expect(deployments).toHaveLength(8);
    for (const d of deployments) expect(d).not.toHaveProperty("deploy_kernel");
    expect(resources(json, "rackform_machine").r1_n01_machine.backend).toBe("ironic");
    expect(json.provider?.rackform[0].maas).toBeUndefined();
    expect(json.variable?.maas_api_key).toBeUndefined();
  });

  it("enrolls with backend bcm, renders the provider's bcm block with the password variable, and creates no rackform_image", () => {
    const { json } = oneRack((_s, stack) => ({
      backend: new BcmBackend(stack, "bcm", { url: "https://127.0.0.1:8081", username: "rackform", insecure: true }),
    }));
    expect(json.provider?.rackform[0].bcm).toEqual({
      url: "https://127.0.0.1:8081",
      username: "rackform",
      password: ref("var.bcm_password"),
      insecure: true,
    });
    expect(json.variable?.bcm_password).toMatchObject({ sensitive: true });
    expect(resources(json, "rackform_machine").r1_n01_machine.backend).toBe("bcm");
    expect(Object.keys(resources(json, "rackform_image"))).toEqual([]);
    expect(Object.keys(resources(json, "rackform_deployment"))).toHaveLength(8);
  });

  it("refuses a literal BCM password at synth", () => {
    expect(() =>
      oneRack((_s, stack) => ({
        backend: new BcmBackend(stack, "bcm", { url: "https://127.0.0.1:8081", username: "u", password: "hunter2" }),
      })),
    ).toThrow(/literal secret/);
  });

  it("leaves deploy_kernel/deploy_ramdisk out when the Ironic backend sets neither (ironic.conf's [conductor] defaults apply)", () => {
    const { json } = oneRack((_s, stack) => ({
      backend: new IronicBackend(stack, "ironic", { url: "http://127.0.0.1:6385" }),
    }));
    expect(json.provider?.rackform[0].ironic).toEqual({ url: "http://127.0.0.1:6385" });
    for (const d of Object.values(resources(json, "rackform_deployment"))) {
      expect(d).not.toHaveProperty("deploy_kernel");
      expect(d).not.toHaveProperty("deploy_ramdisk");
    }
  });

  it("joins Kubernetes with the GPU label by default and asks the image to register with Kubernetes", () => {
    const { json } = oneRack((_s, stack) => ({
      cluster: new KubernetesCluster(stack, "k8s", { url: "https://127.0.0.1:6443", maxUnavailable: 2 }),
    }));
    expect(resources(json, "rackform_cluster_member").r1_n01_member).toEqual({
      scheduler: "kubernetes",
      node: "r1-n01",
      labels: { "rackform.io/gpu": "h100" },
      gate_id: ref("rackform_acceptance.r1_n01_acceptance.id"),
      max_unavailable: 2,
      // With a budget the rack rolls: an image change is the member's in-place reimage of its node.
      image_ref: ref("rackform_deployment.r1_n01_deployment.image_ref"),
    });
    const deployment = resources(json, "rackform_deployment").r1_n01_deployment;
    expect(deployment.user_data).toBe("#cloud-config\nrackform-join: kubernetes\n");
    expect(deployment.rolling).toBe(true);
    expect(resources(json, "rackform_acceptance").r1_n01_acceptance.image_ref).toEqual(
      ref("rackform_deployment.r1_n01_deployment.image_ref"),
    );
    expect(json.provider?.rackform[0].kubernetes).toEqual({
      url: "https://127.0.0.1:6443",
      token: ref("var.kubernetes_token"),
    });
    expect(json.variable?.kubernetes_token).toMatchObject({ sensitive: true });
  });

  it("sets the Slurm disruption budget and checks partition membership after apply", () => {
    const { json } = oneRack((_s, stack) => ({
      cluster: new SlurmCluster(stack, "gpu-partition", {
        url: "http://127.0.0.1:6820",
        user: "root",
        partition: "gpu",
        features: ["h100", "ib"],
        maxUnavailable: 1,
      }),
    }));
    const member = resources(json, "rackform_cluster_member").r1_n05_member;
    expect(member).toMatchObject({ features: ["h100", "ib"], max_unavailable: 1 });
    expect(member.lifecycle).toEqual({
      postcondition: [
        {
          condition: ref('contains(self.partitions, "gpu")'),
          error_message: expect.stringContaining("PartitionName=gpu"),
        },
      ],
    });
  });

  it("derives the gate from the flavor: 92 % of its fabric line rate and its GPU count", () => {
    // GIVEN 4 GPUs on 4 × 200 Gb/s rails (100 GB/s) with a firmware baseline, and a policy with every default
    const { json } = oneRack((_s, stack) => ({
      flavor: new Flavor(stack, "l40s", {
        gpus: { model: "L40S", count: 4 },
        fabric: { railGbps: 200 },
        firmware: { BIOS: "2.3.1" },
      }),
      acceptance: new AcceptancePolicy(stack, "quick", { dcgmLevel: 1, burnIn: "1h" }),
    }));
    expect(resources(json, "rackform_acceptance").r1_n01_acceptance).toMatchObject({
      nccl_min_busbw_gbps: 90,
      expected_gpu_count: 4,
      dcgm_level: 1,
      burn_in: "1h",
    });
    expect(resources(json, "rackform_bmc").r1_n01_bmc.expected).toEqual({
      gpu_model: "L40S",
      gpu_count: 4,
      firmware: { BIOS: "2.3.1" },
    });
    expect(resources(json, "rackform_cluster_member").r1_n01_member.features).toEqual(["l40s"]);
  });

  it("enrolls the node's own MACs and has the BMC check them when they are given", () => {
    const { json } = oneRack(() => ({
      nodes: [
        {
          name: "r1-n01",
          u: 1,
          pdu: "r1-pdu-a",
          outlet: "A1",
          bmc: "https://10.0.0.5:8443",
          macs: ["3c:fd:fe:a1:b2:c3"],
        },
      ],
    }));
    expect(resources(json, "rackform_machine").r1_n01_machine.macs).toEqual(["3c:fd:fe:a1:b2:c3"]);
    expect(resources(json, "rackform_bmc").r1_n01_bmc).toMatchObject({
      endpoint: "https://10.0.0.5:8443",
      expected: { macs: ["3c:fd:fe:a1:b2:c3"] },
    });
    expect(resources(json, "rackform_pdu_outlet").r1_n01_outlet.outlet_id).toBe("A1");
  });

  it("names resources after the node, with characters Terraform forbids as '_'", () => {
    const { rack, json } = oneRack(() => ({
      nodes: [
        { name: "gpu.r1-07", u: 7, pdu: "r1-pdu-a", outlet: 7, bmc: "10.0.0.7" },
        { name: "7-gpu", u: 9, pdu: "r1-pdu-a", outlet: 9, bmc: "10.0.0.9" },
      ],
    }));
    expect(Object.keys(resources(json, "rackform_bmc")).sort()).toEqual(["gpu_r1_07_bmc", "n7_gpu_bmc"]);
    expect(rack.chainOf("gpu.r1-07").member.node.id).toBe("gpu_r1_07_member");
  });

  it("shares one provider and its variables between two racks of a stack", () => {
    const stack = new RackformStack(Testing.app(), "row");
    const s = shared(stack);
    new Rack(stack, "r1", rackProps(s, "r1"));
    new Rack(stack, "r2", rackProps(s, "r2"));
    const json = synthJson(stack);
    expect(json.provider?.rackform).toHaveLength(1);
    expect(Object.keys(resources(json, "rackform_cluster_member"))).toHaveLength(16);
  });

  it("accepts settings created outside any stack (a fleet shares them)", () => {
    const app = Testing.app();
    const s = shared(app);
    const stack = new RackformStack(app, "r1");
    new Rack(stack, "r1", { ...rackProps(s, "r1"), redfish: REDFISH });
    expect(Object.keys(resources(synthJson(stack), "rackform_bmc"))).toHaveLength(8);
  });
});
