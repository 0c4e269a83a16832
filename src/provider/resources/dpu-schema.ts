/** rackform_dpu's schema: a BlueField-3 DPU's BMC, its mode, its pinned BFB and its rshim policy. */
import {
  attr,
  type ModelOf,
  requiresReplace,
  stringMatches,
  stringOneOf,
  timeoutsBlock,
  useStateForUnknown,
} from "../../framework/index.js";
import { endpointSpelling, redfishEndpoint } from "../shared/endpoint.js";
import { SHA256 } from "./deployment-schema.js";

/** A DPU_OS version as the BMC reports it, e.g. DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod. */
export const BFB_VERSION = /^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/;

/** The schema of rackform_dpu. */
export const dpuSchema = {
  version: 0,
  description:
    "A BlueField-3 DPU, converged through its own BMC (NVIDIA BlueField BMC Redfish): its mode of operation " +
    "(`Systems/Bluefield/Oem/Nvidia` Mode.Set) and the BFB it runs (`UpdateService.SimpleUpdate` on " +
    "`FirmwareInventory/DPU_OS`, the task polled to its end). Create and update converge the mode first — Mode.Set, " +
    "two Arm reboots, then a power cycle of the host through its own BMC (`host_endpoint`), after which the host is " +
    "left in the power state it had — and then install the BFB over the BMC's rshim (the host's rshim is disabled " +
    "for it). A refresh reads the mode and DPU_OS version: a mode or image changed out of band shows as an update. " +
    "A failed install keeps the resource (tainted on create) with the task's messages in `last_install_messages`. " +
    "Make the host's rackform_machine depend on it (`depends_on`) so the host is enrolled only once its DPU is " +
    "ready. Import with the DPU BMC's address.",
  attributes: {
    id: attr.string({
      computed: true,
      description: "The DPU BMC's address (its origin), e.g. https://10.0.1.21; also the import id.",
      planModifiers: [useStateForUnknown()],
    }),
    endpoint: attr.string({
      required: true,
      description:
        'Address of the DPU BMC\'s Redfish service, e.g. "https://10.0.1.21". Another spelling of the same address ' +
        "(a trailing slash, the default port, the host's case) plans nothing; another address replaces the resource.",
      validators: [redfishEndpoint],
      planModifiers: [endpointSpelling(), requiresReplace()],
    }),
    username: attr.string({
      optional: true,
      description: "User of the DPU's BMC. @default the provider's redfish.username",
    }),
    password: attr.string({
      optional: true,
      sensitive: true,
      description:
        "Password of the DPU's BMC (sensitive: never shown in plans). @default the provider's redfish.password",
    }),
    host_endpoint: attr.string({
      optional: true,
      description:
        "Address of the host's own BMC (the rackform_bmc endpoint), used with the provider's redfish credentials " +
        "to power-cycle the host when the mode changes (the new mode takes effect only then). Required for a mode " +
        "change; a plan that changes `mode` without it fails before anything is sent.",
      validators: [redfishEndpoint],
      planModifiers: [endpointSpelling()],
    }),
    mode: attr.string({
      required: true,
      description:
        'Mode of operation: "DpuMode" (the Arm cores own the NIC, the DPU\'s default) or "NicMode". A change ' +
        "reboots the DPU's Arm cores twice and power-cycles the host.",
      validators: [stringOneOf("DpuMode", "NicMode")],
    }),
    bfb: attr.single(
      {
        version: attr.string({
          required: true,
          description:
            "The version FirmwareInventory/DPU_OS reports once the BFB runs, e.g. " +
            '"DOCA_2.9.1_BSP_4.9.1_Ubuntu_22.04-4.24-11.prod". A different version read from the DPU plans an install.',
          validators: [stringMatches(BFB_VERSION, "a DPU_OS version (letters, digits, . _ + -)")],
        }),
        url: attr.string({
          required: true,
          description: "Where the DPU's BMC downloads the .bfb from: an http or https URL (SimpleUpdate ImageURI).",
          validators: [stringMatches(/^https?:\/\/[^\s/]+\/\S*$/, "an http(s) URL of the .bfb")],
        }),
        sha256: attr.string({
          required: true,
          description:
            "sha256 of the .bfb (64 hex digits), recorded with the install: SimpleUpdate carries no checksum, so " +
            "rackform does not verify it; pin it so a rebuilt image under the same version is a visible change.",
          validators: [stringMatches(SHA256, "a sha256 digest of 64 hex digits")],
        }),
      },
      { required: true, description: "The pinned BlueField boot stream (BFB): version, url, sha256." },
    ),
    rshim: attr.string({
      optional: true,
      computed: true,
      default: "bmc",
      description:
        "Who holds the DPU's rshim once converged: \"bmc\" (host rshim disabled, the BMC's enabled: what BFB " +
        "installs need, and what NVIDIA's DOCA Platform Framework leaves) or \"host\" (handed back to the host's " +
        'rshim driver after an install). @default "bmc"',
      validators: [stringOneOf("bmc", "host")],
    }),
    serial: attr.string({
      computed: true,
      description: "The DPU's serial number (Systems/Bluefield).",
      planModifiers: [useStateForUnknown()],
    }),
    last_install_messages: attr.list("string", {
      computed: true,
      description:
        "Messages of the last BFB install task that failed (its evidence); empty after a successful install.",
    }),
  },
  blocks: { timeouts: timeoutsBlock(["create", "read", "update"]) },
} as const;

/** The recorded DPU. */
export type DpuState = ModelOf<typeof dpuSchema>;
/** The planned DPU at apply: computed attributes may be unknown. */
export type DpuPlan = ModelOf<typeof dpuSchema, "plan">;
/** The planned DPU at plan time: any attribute may be unknown. */
export type DpuConfig = ModelOf<typeof dpuSchema, "config">;
