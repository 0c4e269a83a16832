/** rackform_machine's schema and its config checks (all before any backend call). */
import {
  type AttributePath,
  attr,
  type Diagnostics,
  isUnknownValue,
  type ModelOf,
  path,
  requiresReplaceIf,
  stringMatches,
  stringOneOf,
  timeoutsBlock,
  useStateForUnknown,
  validator,
} from "../../framework/index.js";
import { BACKEND_NAMES, type BackendName } from "../backends/backend.js";
import { BACKEND_TRAITS, type BackendTraits } from "../backends/traits.js";
import { endpointSpelling, redfishEndpoint } from "../shared/endpoint.js";

/** A MAC written with colons or dashes, six pairs of hex digits. */
export const MAC_PATTERN = /^[0-9a-fA-F]{2}([:-])[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){4}$/;

// Identity attributes replace the machine when changed, except right after an import: the imported state does not
// know them yet (MAAS does not list BMC addresses), and recording the config then must not re-enroll the node.
const replaceUnlessImported = () =>
  requiresReplaceIf(
    (req) => req.stateValue !== null,
    "requires replacement when changed (not when first recorded after an import)",
  );

const macList = validator("MAC addresses such as 3c:ec:ef:00:00:01, each listed once", (req, resp) => {
  if (!Array.isArray(req.value)) return;
  const seen = new Map<string, number>();
  req.value.forEach((v, i) => {
    if (typeof v !== "string") return;
    const at: AttributePath = [...req.path, { index: i }];
    if (!MAC_PATTERN.test(v.trim())) {
      resp.diagnostics.error(
        "Invalid MAC address",
        `${JSON.stringify(v)} is not a MAC address; write six pairs of hex digits, e.g. "3c:ec:ef:00:00:01".`,
        at,
      );
      return;
    }
    const key = v.trim().toLowerCase().replaceAll("-", ":");
    const first = seen.get(key);
    if (first !== undefined) {
      resp.diagnostics.error(
        "Duplicate MAC address",
        `${JSON.stringify(v)} is listed twice (also at index ${first}); list each NIC once.`,
        at,
      );
    } else seen.set(key, i);
  });
});

/** The rackform_machine schema; its model (ModelOf) is what the handlers in machine-ops.ts read and write. */
export const machineSchema = {
  version: 0,
  description:
    "A node enrolled in the chosen backend and commissioned there: a MAAS machine with redfish power, commissioned " +
    "to Ready, or an Ironic node with the redfish driver, inspected and provided to available. Create first looks " +
    "the node up by name, MACs and BMC address, so a re-apply after an interrupted run never enrolls it twice. If " +
    "commissioning fails, the machine is kept (with the backend's evidence) and recorded as tainted: the next apply " +
    "replaces it. On BCM, a PhysicalNode device powered through its BMC (Redfish, rf0): identified and installable. " +
    "BMC credentials come from the provider's redfish block. Import with `maas:<system_id>`, `ironic:<uuid>` or " +
    "`bcm:<device uuid>`.",
  attributes: {
    id: attr.string({
      computed: true,
      description: 'The backend and the machine\'s id there, e.g. "maas:4y3h7n", "ironic:<uuid>" or "bcm:<uuid>".',
      planModifiers: [useStateForUnknown()],
    }),
    name: attr.string({
      required: true,
      description:
        "Hostname (MAAS, BCM) or node name (Ironic, Warewulf): a lower-case DNS label. Changing it replaces the machine.",
      validators: [stringMatches(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, "a lower-case DNS label such as r12-n03")],
      planModifiers: [replaceUnlessImported()],
    }),
    backend: attr.string({
      required: true,
      description:
        'Where the machine is enrolled: "maas", "ironic", "warewulf" or "bcm" (configured in the provider block).',
      validators: [stringOneOf(...BACKEND_NAMES)],
      planModifiers: [replaceUnlessImported()],
    }),
    bmc_endpoint: attr.string({
      required: true,
      description:
        'Address of the node\'s Redfish BMC, e.g. "https://10.0.0.5"; the backend powers the node through it with ' +
        "the provider's redfish credentials. Another spelling of the same address plans nothing; a new address " +
        "(the BMC re-addressed, usually through rackform_bmc.endpoint) is an in-place update that hands it to the " +
        "backend (MAAS power parameters, Ironic driver_info redfish_address, BCM's BMC interface, Warewulf's ipmi " +
        "block) in the same apply.",
      validators: [redfishEndpoint],
      planModifiers: [endpointSpelling()],
    }),
    macs: attr.list("string", {
      optional: true,
      description:
        "MAC addresses of the node's NICs, boot NIC first (at least one for MAAS). Changing them replaces the machine.",
      validators: [macList],
      planModifiers: [replaceUnlessImported()],
    }),
    architecture: attr.string({
      optional: true,
      computed: true,
      default: "amd64/generic",
      description: 'MAAS architecture of the machine (ignored by Ironic). @default "amd64/generic"',
      validators: [
        stringMatches(/^[a-z0-9_]+\/[a-z0-9_.-]+$/, "an architecture/subarchitecture such as amd64/generic"),
      ],
      planModifiers: [replaceUnlessImported()],
    }),
    resource_class: attr.string({
      optional: true,
      description: 'Ironic resource class of the node, e.g. "gpu-h100" (Ironic only).',
      validators: [stringMatches(/^[A-Za-z0-9_.-]{1,80}$/, "a resource class name such as gpu-h100")],
      planModifiers: [replaceUnlessImported()],
    }),
    machine_id: attr.string({
      computed: true,
      description: "MAAS system_id or Ironic node uuid.",
      planModifiers: [useStateForUnknown()],
    }),
    bmc_credentials_fingerprint: attr.string({
      computed: true,
      sensitive: true,
      description:
        "Fingerprint of the BMC credentials the backend was given (the provider's redfish username and password): " +
        "an HMAC with a random salt per machine under a salted scrypt key, so the state never holds the password " +
        "and the fingerprint cannot be reversed. Each plan recomputes it from the provider configuration; when the password is rotated, the " +
        "plan shows this attribute changing (an in-place update, nothing replaced) and apply hands the new " +
        "credentials to the backend (MAAS power parameters, Ironic driver_info). After an import, the first " +
        "refresh records the current credentials as the ones the backend holds.",
    }),
    deploy_kernel: attr.string({
      computed: true,
      description:
        "Ironic: the deploy (IPA) kernel rackform wrote into the node's driver_info, from the provider's " +
        "ironic.deploy_kernel (at enrollment, before provide's cleaning). A change in the provider block is an " +
        "in-place update that writes the new images; with none there, rackform leaves driver_info as it is (the " +
        "conductor's [conductor] defaults apply). Null on MAAS.",
    }),
    deploy_ramdisk: attr.string({
      computed: true,
      description:
        "Ironic: the deploy (IPA) ramdisk rackform wrote into the node's driver_info, from the provider's " +
        "ironic.deploy_ramdisk (see deploy_kernel). Null on MAAS.",
    }),
    status: attr.string({
      computed: true,
      description: 'The backend\'s own status name, e.g. "Ready", "Failed commissioning", "available".',
    }),
    state: attr.string({
      computed: true,
      description:
        "The status in rackform's words, the same for every backend: enrolled, enrolling, commissioning, ready, " +
        "allocated, deploying, deployed, releasing, failed, broken or other.",
    }),
  },
  blocks: { timeouts: timeoutsBlock(["create", "read", "update", "delete"]) },
} as const;

/** The recorded machine. */
export type MachineState = ModelOf<typeof machineSchema>;
/** The planned machine at apply: computed attributes may be unknown. */
export type MachinePlan = ModelOf<typeof machineSchema, "plan">;
/** The machine at plan time and validation: any attribute may be unknown. */
export type MachineConfig = ModelOf<typeof machineSchema, "config">;

/** Cross-attribute checks: MAAS needs a MAC to PXE-boot the machine; resource_class means nothing to MAAS. */
export function checkMachineConfig(c: MachineConfig, diags: Diagnostics): void {
  if (isUnknownValue(c.backend) || c.backend === null) return;
  const backend = c.backend;
  const t: BackendTraits | undefined = BACKEND_TRAITS[backend as BackendName];
  if (!t) return;
  const macs = c.macs;
  if (t.needsMac && !isUnknownValue(macs) && (macs === null || macs.length === 0)) {
    diags.error(
      `${t.label} needs a MAC address`,
      `backend = "${backend}" enlists the machine by its boot NIC: list at least one MAC in macs, boot NIC first.`,
      path("macs"),
    );
  }
  if (!t.usesResourceClass && !isUnknownValue(c.resource_class) && c.resource_class !== null) {
    diags.warning(
      `resource_class is ignored by ${t.label}`,
      'resource_class is an Ironic setting; remove it, or use backend = "ironic".',
      path("resource_class"),
    );
  }
}
