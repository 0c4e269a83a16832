/**
 * The building blocks of the reference pages' examples: the variables a site fills in, the provider block, and one
 * node's chain (outlet → BMC → machine → deployment → acceptance → cluster member) as HCL. Each page's example is a
 * whole configuration assembled from these, so a user can copy it as it stands, and test/e2e/docs-examples.test.ts
 * runs every page's example against the lab (filling the variables with the lab's values).
 */

/** A variable of the examples: what a site sets in terraform.tfvars (or TF_VAR_<name>). */
interface ExampleVariable {
  readonly description: string;
  readonly sensitive?: boolean;
}

/** Every variable an example may declare; the e2e test has a lab value for each. */
export const EXAMPLE_VARIABLES = {
  redfish_password: { description: "Password of the Redfish account on the BMCs and PDUs.", sensitive: true },
  redfish_ca_file: { description: "PEM file of the CA that signed the BMC and PDU certificates." },
  pdu_endpoint: { description: "Redfish address of the rack PDU feeding the node, e.g. https://10.0.0.9." },
  bmc_endpoint: { description: "Redfish address of the node's BMC, e.g. https://10.0.0.5." },
  maas_url: { description: "MAAS region URL, e.g. http://maas:5240/MAAS/." },
  maas_api_key: { description: "MAAS API key (consumer_key:token_key:token_secret).", sensitive: true },
  ironic_url: { description: "Ironic API endpoint, e.g. http://ironic:6385." },
  slurm_url: { description: "slurmrestd URL, e.g. http://slurmctl:6820." },
  slurm_token: { description: "JWT of the Slurm user (scontrol token).", sensitive: true },
  dpu_endpoint: { description: "Redfish address of the node's BlueField-3 DPU BMC, e.g. https://10.0.1.7." },
  bfb_url: { description: "Where the DPU's BMC downloads the pinned .bfb from (http or https)." },
  bios_image_url: { description: "Where rackform reads the node's BIOS firmware image from (http or https)." },
  image_url: {
    description: "Where the golden image is served (Ironic downloads it from there; rackform streams it to MAAS).",
  },
} as const satisfies Record<string, ExampleVariable>;

export type ExampleVariableName = keyof typeof EXAMPLE_VARIABLES;

/** Which backend and scheduler blocks an example's provider block has. */
export interface ProviderParts {
  readonly backend?: "maas" | "ironic";
  readonly slurm?: boolean;
  /** Ironic: the ironic block names the deploy (IPA) kernel and ramdisk (an ironic.conf without [conductor] defaults). */
  readonly deployImages?: boolean;
}

const TERRAFORM = `terraform {
  required_providers {
    rackform = { source = "rackform/rackform" }
  }
}
`;

function variable(name: ExampleVariableName): string {
  const v: ExampleVariable = EXAMPLE_VARIABLES[name];
  return `variable "${name}" {
  description = ${JSON.stringify(v.description)}
  type        = string${v.sensitive ? "\n  sensitive   = true" : ""}
}
`;
}

/** The variables the provider block of `parts` reads, in declaration order. */
function providerVariables(parts: ProviderParts): ExampleVariableName[] {
  const out: ExampleVariableName[] = ["redfish_password", "redfish_ca_file"];
  if (parts.backend === "maas") out.push("maas_url", "maas_api_key");
  if (parts.backend === "ironic") out.push("ironic_url");
  if (parts.slurm) out.push("slurm_url", "slurm_token");
  return out;
}

function providerBlock(parts: ProviderParts): string {
  const blocks = [
    `  redfish {
    username = "admin"
    password = var.redfish_password
    ca_file  = var.redfish_ca_file
  }
`,
  ];
  if (parts.backend === "maas")
    blocks.push(`  maas {
    url     = var.maas_url
    api_key = var.maas_api_key
  }
`);
  if (parts.backend === "ironic")
    blocks.push(`  ironic {
    url = var.ironic_url # noauth; set username/password or token where Ironic asks for them
${
  parts.deployImages
    ? `    # Written into each node's driver_info at enrollment, so provide's cleaning can boot the ramdisk. Needed when
    # ironic.conf has no [conductor]deploy_kernel / deploy_ramdisk; set both or neither.
    deploy_kernel  = "http://images.example/ipa/ipa.kernel"
    deploy_ramdisk = "http://images.example/ipa/ipa.initramfs"
`
    : "    # deploy_kernel / deploy_ramdisk left out: ironic.conf's [conductor] defaults apply\n"
}  }
`);
  if (parts.slurm)
    blocks.push(`  slurm {
    url   = var.slurm_url
    user  = "rackform"
    token = var.slurm_token
  }
`);
  return `provider "rackform" {\n${blocks.join("\n")}}\n`;
}

/**
 * A whole configuration: the terraform block, the variables (the provider's, then `extra`), the provider block and
 * the body.
 */
export function configuration(parts: ProviderParts, extra: readonly ExampleVariableName[], body: string): string {
  const vars = [...new Set([...providerVariables(parts), ...extra])];
  return [TERRAFORM, vars.map(variable).join("\n"), providerBlock(parts), body].join("\n");
}

/** The node every example manages: r01-n07, fed by outlet 7 of PDU r01-pdu-a. */
export const NODE = { name: "r01-n07", id: "r01_n07", pdu: "r01-pdu-a", outlet: 7 } as const;

/** The golden image of the examples (the e2e test serves bytes with this sha256 at var.image_url, and uploads it to MAAS). */
export const IMAGE = {
  name: "ubuntu-gpu",
  version: "2026.06.2",
  sha256: "762af2a3c180385ab91b1ae939b9f4a73a621fd01ac43a2ab212826e610acf39",
} as const;

export const OUTLET = `resource "rackform_pdu_outlet" "${NODE.id}" {
  endpoint    = var.pdu_endpoint
  pdu_id      = "${NODE.pdu}"
  outlet_id   = "${NODE.outlet}"
  power_state = "On"
}
`;

export const BMC = `resource "rackform_bmc" "${NODE.id}" {
  endpoint = var.bmc_endpoint
  # The flavor: the node must have these before it is enrolled anywhere.
  expected = {
    gpu_model      = "H100"
    gpu_count      = 8
    min_memory_gib = 1024
  }
  depends_on = [rackform_pdu_outlet.${NODE.id}] # the BMC has no power before its outlet is on
}
`;

export function machine(backend: "maas" | "ironic"): string {
  return `resource "rackform_machine" "${NODE.id}" {
  name         = "${NODE.name}"
  backend      = "${backend}"
  bmc_endpoint = rackform_bmc.${NODE.id}.endpoint
  macs         = [rackform_bmc.${NODE.id}.macs[0]] # the boot NIC
}
`;
}

/** The BFB the DPU example pins (the lab reports a BFB's file name, without .bfb, as its DPU_OS version). */
export const BFB = {
  version: "DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod",
  sha256: "3b5b7c6f1f0c6a0e0f3f4e5d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b",
} as const;

export const DPU = `resource "rackform_dpu" "${NODE.id}" {
  endpoint      = var.dpu_endpoint
  host_endpoint = rackform_bmc.${NODE.id}.endpoint # power-cycles the host when the mode changes
  mode          = "DpuMode"
  bfb = {
    version = "${BFB.version}"
    url     = var.bfb_url
    sha256  = "${BFB.sha256}"
  }
  rshim = "bmc"
}
`;

/** The BIOS image the firmware example pins (the lab serves it at var.bios_image_url with this sha256). */
export const BIOS_IMAGE = {
  version: "2.3.1",
  sha256: "a92166eed0a6726e9be137fb5e521be41ad2f6e47d02dc5623e7b96b619ea2ad",
} as const;

export const FIRMWARE = `resource "rackform_firmware" "${NODE.id}" {
  endpoint = rackform_bmc.${NODE.id}.endpoint
  components = {
    # Named as the BMC's FirmwareInventory names the item (its Id or Name)
    BIOS = {
      version = "${BIOS_IMAGE.version}"
      url     = var.bios_image_url
      sha256  = "${BIOS_IMAGE.sha256}"
    }
  }
  bios = {
    SriovGlobalEnable = "Enabled" # AttributeRegistry names: these are a Dell PowerEdge's
    ProcVirtualization = "Enabled"
  }
}
`;

/** A machine enrolled only once its firmware baseline and BIOS settings are in place. */
export function machineAfterFirmware(backend: "maas" | "ironic"): string {
  return machine(backend).replace(
    /\n}\n$/,
    `\n  depends_on   = [rackform_firmware.${NODE.id}] # enrolled on the baseline firmware\n}\n`,
  );
}

/** A machine enrolled only once its DPU is in mode and on its BFB. */
export function machineAfterDpu(backend: "maas" | "ironic"): string {
  return machine(backend).replace(
    /\n}\n$/,
    `\n  depends_on   = [rackform_dpu.${NODE.id}] # enrolled only once its DPU is ready\n}\n`,
  );
}

/** The image resource's name in the examples. */
export const IMAGE_ID = "ubuntu_gpu";

/** The golden image as a resource: uploaded to MAAS (streamed from var.image_url), or its URL checked for Ironic. */
export function image(backend: "maas" | "ironic"): string {
  const how =
    backend === "maas"
      ? "  # Streamed to MAAS in 4 MiB pieces as custom/ubuntu-gpu-2026.06.2; or source_file = a local path\n"
      : "  # Ironic downloads it at deploy; rackform checks that it answers (HEAD) with its size\n";
  return `resource "rackform_image" "${IMAGE_ID}" {
  backend = "${backend}"
  name    = "${IMAGE.name}"
  version = "${IMAGE.version}"
${how}  url     = var.image_url
  sha256  = "${IMAGE.sha256}"
}
`;
}

/** How a deployment names its image. */
export interface DeploymentParts {
  readonly backend: "maas" | "ironic";
  /** The deployment depends on rackform_image (the example declares it). */
  readonly image?: boolean;
}

export function deployment(p: DeploymentParts): string {
  const url =
    p.backend === "ironic"
      ? "    url     = var.image_url\n"
      : "    # MAAS deploys the custom image uploaded as custom/ubuntu-gpu-2026.06.2; url is for Ironic\n";
  const ipa =
    p.backend === "ironic"
      ? "\n  # deploy_kernel / deploy_ramdisk: only to override the provider's ironic block for this deployment\n"
      : "";
  return `resource "rackform_deployment" "${NODE.id}" {
  machine_id = rackform_machine.${NODE.id}.id
  image = {
    name    = "${IMAGE.name}"
    version = "${IMAGE.version}"
${url}    sha256  = "${IMAGE.sha256}"
  }
  # cloud-init; the rackform-join line asks the booted node to register with Slurm
  user_data = <<-EOT
    #cloud-config
    # rackform-join: slurm
    runcmd:
      - [systemctl, enable, --now, slurmd]
  EOT
${ipa}${p.image ? `\n  depends_on = [rackform_image.${IMAGE_ID}] # the image is in the backend first, and outlives the deployment\n` : ""}}
`;
}

export const ACCEPTANCE = `resource "rackform_acceptance" "${NODE.id}" {
  machine_id          = rackform_deployment.${NODE.id}.id # the gate runs on the deployed image
  dcgm_level          = 3
  nccl_min_busbw_gbps = 370
  burn_in             = "12h"
  expected_gpu_count  = 8

  timeouts {
    create = "14h" # above burn_in
  }
}
`;

export const MEMBER = `resource "rackform_cluster_member" "${NODE.id}" {
  scheduler       = "slurm"
  node            = "${NODE.name}"
  features        = ["h100", "nvlink4"]
  gate_id         = rackform_acceptance.${NODE.id}.id # a new gate (a reimage) drains the node first
  max_unavailable = 2                                 # with the rest of the rack: at most 2 out at once
}
`;
