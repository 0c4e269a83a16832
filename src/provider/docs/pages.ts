/**
 * What the reference pages say beyond the schema: a complete example configuration per page and, for resources, the
 * import id in the form ImportResourceState accepts. `npm run docs` renders them (src/cli/docs.ts);
 * test/e2e/docs-examples.test.ts runs every example against the lab (plan, apply, empty plan) and imports the page's
 * resource by the documented id form, so a page cannot drift from the code.
 */
import {
  ACCEPTANCE,
  BMC,
  configuration,
  DPU,
  deployment,
  FIRMWARE,
  IMAGE,
  IMAGE_ID,
  image,
  MEMBER,
  machine,
  machineAfterDpu,
  machineAfterFirmware,
  NODE,
  OUTLET,
} from "./hcl-parts.js";

/** The extra sections of one page. */
export interface PageDocs {
  /** A whole configuration (HCL) that runs as it stands once its variables are set. */
  readonly example: string;
  /** Markdown of the Import section, with `terraform import` lines giving real-looking ids. */
  readonly import?: string;
}

const R = NODE.id;

function importSection(intro: string, ids: readonly [string, string][], after = "", name: string = R): string {
  const lines = ids.map(([type, id]) => `terraform import ${type}.${name} ${id}`).join("\n");
  return `${intro}\n\n\`\`\`sh\n${lines}\n\`\`\`\n${after ? `\n${after}\n` : ""}`;
}

const MACHINE_IDS: [string, string][] = [
  ["rackform_machine", "maas:4y3h7n"],
  ["rackform_machine", "ironic:1be26c0b-03f2-4d2e-ae87-c02d7f33c123"],
  ["rackform_machine", "bcm:5c1f0e7a-8d3b-4c2a-9e61-7b0d2f4a9c35"],
];
const byMachineId = (type: string): [string, string][] => MACHINE_IDS.map(([, id]) => [type, id]);

/** Page docs by type name; "provider" is docs/index.md. */
export const PAGE_DOCS: Readonly<Record<string, PageDocs>> = {
  provider: {
    example: configuration(
      { backend: "maas", slurm: true },
      [],
      "# Every setting can also come from the environment (RACKFORM_REDFISH_PASSWORD, RACKFORM_MAAS_API_KEY, …).\n",
    ),
  },

  rackform_pdu_outlet: {
    example: configuration({}, ["pdu_endpoint"], OUTLET),
    import: importSection(
      "By the outlet's Redfish URL, which is also its `id`: the PDU's address, then the rack PDU's own id under " +
        "PowerEquipment/RackPDUs (`pdu_id`, e.g. `r01-pdu-a`; `1` on PDUs that number it) and the outlet's id " +
        "(`outlet_id`):",
      [
        [
          "rackform_pdu_outlet",
          `https://10.0.0.9/redfish/v1/PowerEquipment/RackPDUs/${NODE.pdu}/Outlets/${NODE.outlet}`,
        ],
      ],
    ),
  },

  rackform_bmc: {
    example: configuration({}, ["pdu_endpoint", "bmc_endpoint"], `${OUTLET}\n${BMC}`),
    import: importSection(
      "By the BMC's address (when it has one system) or by the system's Redfish URL, which is the resource's `id` " +
        "(the system id is the vendor's: `System.Embedded.1` on Dell iDRAC, `1` on many others):",
      [
        ["rackform_bmc", "https://10.0.0.5"],
        ["rackform_bmc", "https://10.0.0.5/redfish/v1/Systems/System.Embedded.1"],
      ],
    ),
  },

  rackform_dpu: {
    example: configuration(
      { backend: "maas" },
      ["pdu_endpoint", "bmc_endpoint", "dpu_endpoint", "bfb_url"],
      `${OUTLET}\n${BMC}\n${DPU}\n${machineAfterDpu("maas")}`,
    ),
    import: importSection(
      "By the DPU BMC's address, which is the resource's `id`; the next plan fills in `bfb.url` and `bfb.sha256` " +
        "from the configuration (and the credentials, when set there) as an in-place update that installs nothing " +
        "when the DPU already runs `bfb.version`:",
      [["rackform_dpu", "https://10.0.1.7"]],
    ),
  },

  rackform_firmware: {
    example: configuration(
      { backend: "maas" },
      ["pdu_endpoint", "bmc_endpoint", "bios_image_url"],
      `${OUTLET}\n${BMC}\n${FIRMWARE}\n${machineAfterFirmware("maas")}`,
    ),
    import: importSection(
      "By the BMC's address, which is the resource's `id`; the next plan takes `components` and `bios` from the " +
        "configuration in place, and pushes nothing to a node that already runs them:",
      [["rackform_firmware", "https://10.0.0.5"]],
    ),
  },

  rackform_machine: {
    example: configuration(
      { backend: "maas" },
      ["pdu_endpoint", "bmc_endpoint"],
      `${OUTLET}\n${BMC}\n${machine("maas")}`,
    ),
    import: importSection(
      "By the backend and the machine's id there (MAAS system_id, Ironic node uuid, BCM device uuid), which is the resource's `id`:",
      MACHINE_IDS,
    ),
  },

  rackform_deployment: {
    example: configuration(
      { backend: "ironic", deployImages: true },
      ["pdu_endpoint", "bmc_endpoint", "image_url"],
      `${OUTLET}\n${BMC}\n${machine("ironic")}\n${deployment({ backend: "ironic" })}`,
    ),
    import: importSection(
      "By the deployed machine's id (as rackform_machine records it), which is the resource's `id`:",
      byMachineId("rackform_deployment"),
      "The image, user data and other settings are then taken from the configuration without a reimage, unless the " +
        "backend reports another image (then the plan replaces the deployment).",
    ),
  },

  rackform_image: {
    example: configuration({ backend: "maas" }, ["image_url"], image("maas")),
    import: importSection(
      "By the backend, the image name and its version, which is the resource's `id`; the state then takes the " +
        "sha256 MAAS verified (url or source_file come from the configuration, recorded in place without an upload):",
      [
        ["rackform_image", `maas:${IMAGE.name}/${IMAGE.version}`],
        ["rackform_image", `ironic:${IMAGE.name}/${IMAGE.version}`],
      ],
      "",
      IMAGE_ID,
    ),
  },

  rackform_acceptance: {
    example: configuration(
      { backend: "maas" },
      ["pdu_endpoint", "bmc_endpoint", "image_url"],
      `${image("maas")}\n${OUTLET}\n${BMC}\n${machine("maas")}\n${deployment({ backend: "maas", image: true })}\n${ACCEPTANCE}`,
    ),
    import: importSection(
      "By the machine's id, which is the resource's `id`; the state then holds the latest gate result the backend " +
        "reports (or passed = false when there is none, so the plan runs the gate):",
      byMachineId("rackform_acceptance"),
    ),
  },

  rackform_cluster_member: {
    example: configuration(
      { backend: "ironic", slurm: true },
      ["pdu_endpoint", "bmc_endpoint", "image_url"],
      `${OUTLET}\n${BMC}\n${machine("ironic")}\n${deployment({ backend: "ironic" })}\n${ACCEPTANCE}\n${MEMBER}`,
    ),
    import: importSection(
      "By the scheduler and the node's name there, which is the resource's `id`:",
      [
        ["rackform_cluster_member", `slurm:${NODE.name}`],
        ["rackform_cluster_member", `kubernetes:${NODE.name}`],
      ],
      "After a Slurm import `features` holds the node's current features; Kubernetes labels and taints start unmanaged.",
    ),
  },

  rackform_inventory: {
    example: configuration(
      {},
      ["bmc_endpoint"],
      `data "rackform_inventory" "rack" {
  bmcs = [
    { name = "${NODE.name}", endpoint = var.bmc_endpoint },
  ]
  # or a sheet with the columns name,endpoint[,rack,u]: csv = file("\${path.module}/bmcs.csv")
  concurrency = 8
  bmc_timeout = "30s"
}

output "gpus" {
  value = { for n in data.rackform_inventory.rack.nodes : n.name => n.reachable ? "\${n.gpu_count} x \${n.gpu_model}" : n.error }
}
`,
    ),
  },
};
